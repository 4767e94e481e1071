import { describe, expect, it } from 'vitest';
import { TOOLS } from './registry.ts';
import { TOOL_WORDS, toolAction } from './tool-words.ts';

describe('tools in plain words', () => {
  it('has an action and a sentence for every tool the agent has, and for no other', () => {
    expect(Object.keys(TOOL_WORDS).sort()).toEqual(TOOLS.map((tool) => tool.name).sort());
    for (const { action, purpose } of Object.values(TOOL_WORDS)) {
      expect(action).not.toMatch(/_/);
      expect(purpose).toMatch(/^[A-Z].*\.$/);
      expect(purpose).not.toMatch(/\b[a-z]+_[a-z]+\b/);
    }
  });

  it('names a tool it does not know rather than hiding it', () => {
    expect(toolAction('kg_query')).toBe('Query the knowledge graph');
    expect(toolAction('teleport')).toBe('Run the tool teleport');
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultPsyche } from '../../src/core/psyche/psyche.ts';
import { parsePsycheToml } from '../../src/core/psyche/psyche-toml.ts';
import { parseGrammar } from '../../src/core/synthesis/parse-grammar.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The first TOML code block after a heading of the README. */
function tomlBlockAfter(heading: string): string {
  const section = README.slice(README.indexOf(heading));
  const match = /```toml\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error(`no TOML example after "${heading}"`);
  return match[1];
}

describe('the README examples', () => {
  it('the psyche.toml example imports as documented', () => {
    const read = parsePsycheToml(tomlBlockAfter('### Psyche (`psyche.toml`)'), defaultPsyche());
    if (!read.ok) throw new Error(JSON.stringify(read.problems));
    expect(read.warnings).toEqual([]);
    expect(read.psyche.shadow.vetoPatterns.map((pattern) => [pattern.name, pattern.requireApproval])).toEqual([
      ['destructive_action', false],
      ['external_request', true],
    ]);
    expect(read.psyche.grammar?.name).toBe('field-notes');
  });

  it('the custom grammar example parses', () => {
    const parsed = parseGrammar(tomlBlockAfter('### Write-up grammar'));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
    expect(parsed.value.name).toBe('field-notes');
  });
});

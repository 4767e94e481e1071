import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultPsyche } from '#core/psyche/psyche.ts';
import { parsePsycheToml } from '#core/psyche/psyche-toml.ts';
import { parseGrammar } from '#core/synthesis/parse-grammar.ts';
import { SECURITY_HEADERS } from '../../src/security-headers.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The first code block in a language after some text of the README. */
function blockAfter(text: string, language: string): string {
  const at = README.indexOf(text);
  if (at < 0) throw new Error(`no "${text}" in the README`);
  const match = new RegExp(`\`\`\`${language}\n([\\s\\S]*?)\`\`\``).exec(README.slice(at));
  if (!match?.[1]) throw new Error(`no ${language} example after "${text}"`);
  return match[1];
}

const tomlBlockAfter = (heading: string) => blockAfter(heading, 'toml');

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

  it('the headers for a static host are the ones `npm start` sends', () => {
    const headers = Object.entries(SECURITY_HEADERS);
    expect(blockAfter('With nginx:', 'nginx')).toBe(headers.map(([name, value]) => `add_header ${name} "${value}" always;\n`).join(''));
    expect(blockAfter('`_headers` file', 'text')).toBe(`/*\n${headers.map(([name, value]) => `  ${name}: ${value}\n`).join('')}`);
  });

  it('the custom grammar example parses', () => {
    const parsed = parseGrammar(tomlBlockAfter('### Write-up grammar'));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
    expect(parsed.value.name).toBe('field-notes');
  });
});

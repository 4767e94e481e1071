import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultPsyche } from '#core/records/psyche.ts';
import { parsePsycheToml } from '#core/psyche/psyche-toml-read.ts';
import { parseGrammar } from '#core/synthesis/parse-grammar.ts';
import { SECURITY_HEADERS } from '../../src/security-headers.ts';

const doc = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
const FORMATS = doc('formats.md');
const SECURITY = doc('security.md');

/** The first code block in a language after some text of a document. */
function blockAfter(document: string, text: string, language: string): string {
  const at = document.indexOf(text);
  if (at < 0) throw new Error(`no "${text}" in the document`);
  const match = new RegExp(`\`\`\`${language}\n([\\s\\S]*?)\`\`\``).exec(document.slice(at));
  if (!match?.[1]) throw new Error(`no ${language} example after "${text}"`);
  return match[1];
}

const tomlBlockAfter = (heading: string) => blockAfter(FORMATS, heading, 'toml');

describe('the documented examples', () => {
  it('the psyche.toml example imports as documented', () => {
    const read = parsePsycheToml(tomlBlockAfter('## Psyche (`psyche.toml`)'), defaultPsyche());
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
    expect(blockAfter(SECURITY, 'With nginx:', 'nginx')).toBe(
      headers.map(([name, value]) => `add_header ${name} "${value}" always;\n`).join(''),
    );
    expect(blockAfter(SECURITY, '`_headers` file', 'text')).toBe(
      `/*\n${headers.map(([name, value]) => `  ${name}: ${value}\n`).join('')}`,
    );
  });

  it('the custom grammar example parses', () => {
    const parsed = parseGrammar(tomlBlockAfter('## Write-up grammar'));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
    expect(parsed.value.name).toBe('field-notes');
  });
});

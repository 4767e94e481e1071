import { readFileSync } from 'node:fs';
import { stringify } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { MAMMALS } from './__fixtures__/mammals.ts';
import { BUILT_IN_GRAMMARS } from './built-in-grammars.ts';
import { MAX_GRAMMAR_BYTES, parseGrammar } from './parse-grammar.ts';
import { synthesize } from './synthesize.ts';

const EXAMPLE = readFileSync(new URL('./example-grammar.toml', import.meta.url), 'utf8');

const MINIMAL = `name = "plain"
layout = { kind = "lines" }

[templates]
classification = "{subject} is {a} {object}"
part = "{subject} has {object}"
part_of = "{subject} is part of {object}"
other = "{subject} {relation} {object}"
`;

/** The problems of a grammar that should not parse. */
function problemsOf(source: string) {
  const result = parseGrammar(source);
  if (result.ok) throw new Error('expected the grammar to be refused');
  return result.error;
}

describe('parseGrammar', () => {
  it('reads the example grammar, which renders with its own templates and headings', () => {
    const result = parseGrammar(EXAMPLE);
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    expect(result.value.name).toBe('field-notes');
    expect(synthesize(MAMMALS, result.value)).toBe(
      [
        'Observer: Scholar\nField notes on: Find mammals (closed). 5 entries, 3 answers among them.',
        '== Sightings ==\n* Dog: a kind of Mammal\n* Cat: a kind of Mammal (worked out via is-a-transitive, 90%)\n* Whale: a kind of Mammal? (a hunch, 60%)',
        '== Taxonomy ==\n* Mammal: a kind of Animal',
        '== Anatomy ==\n* Dog: has Tail',
        '== Still to find ==\nNo sign yet of:\n* habitat',
      ].join('\n\n'),
    );
  });

  it('needs only a name, a layout and the templates; the rest has defaults', () => {
    const result = parseGrammar(MINIMAL);
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    expect(result.value.origins).toEqual({ stated: '{fact}', derived: '{fact}', proposed: '{fact}' });
    expect(synthesize(MAMMALS, result.value)).toBe(
      'Dog is a Mammal\nCat is a Mammal\nWhale is a Mammal\nMammal is an Animal\nDog has Tail\nhabitat',
    );
  });

  it('reads every built-in grammar written as TOML back to the same grammar (one format for all)', () => {
    for (const grammar of Object.values(BUILT_IN_GRAMMARS))
      expect(parseGrammar(stringify(grammar))).toEqual({ ok: true, value: grammar });
  });

  it('names the line of a TOML syntax error', () => {
    expect(problemsOf(`${MINIMAL}\n[gaps]\nitem = "unclosed\n`)).toEqual([
      { line: 11, message: expect.stringMatching(/column \d+/) },
    ]);
  });

  it('names the key path and line of a value of the wrong type or a missing key', () => {
    const source = MINIMAL.replace('part = "{subject} has {object}"', 'part = 3').replace(
      '[templates]',
      '[confidence]\ndecimals = "two"\n\n[templates]',
    );
    expect(problemsOf(source)).toEqual([
      { line: 9, path: 'templates.part', message: expect.stringContaining('expected string') },
      { line: 5, path: 'confidence.decimals', message: expect.stringContaining('expected number') },
    ]);
    expect(problemsOf(MINIMAL.replace(/other = .*\n/, ''))).toEqual([
      { line: 4, path: 'templates.other', message: 'missing (expected string)' },
    ]);
  });

  it('refuses an unknown placeholder, naming it and the ones that would work', () => {
    const [problem, ...others] = problemsOf(MINIMAL.replace('{subject} has {object}', '{sujbect} has {object}'));
    expect(others).toEqual([]);
    expect(problem).toMatchObject({ line: 6, path: 'templates.part' });
    expect(problem?.message).toContain('unknown placeholder {sujbect}');
    expect(problem?.message).toContain('{subject}');
  });

  it('refuses placeholders where the text cannot use them, and accepts doubled braces', () => {
    expect(problemsOf(`empty = "nothing for {goal}"\n${MINIMAL}`)).toMatchObject([
      { line: 1, path: 'empty', message: expect.stringContaining('takes no placeholders') },
    ]);
    expect(parseGrammar(`empty = "nothing {{yet}}"\n${MINIMAL}`).ok).toBe(true);
  });

  it('reports unknown keys as errors, each at its own path and line (a misspelt key would silently do nothing)', () => {
    expect(problemsOf(`${MINIMAL}clasification = "x"\n`)).toEqual([
      { line: 9, path: 'templates.clasification', message: expect.stringContaining('unknown key') },
    ]);
    expect(problemsOf(MINIMAL.replace('kind = "lines"', 'kind = "lines", bullet = "- "'))).toEqual([
      { line: 2, path: 'layout.bullet', message: expect.stringContaining('unknown key') },
    ]);
  });

  it('names the layouts there are when the layout is unknown', () => {
    expect(problemsOf(MINIMAL.replace('"lines"', '"poem"'))).toEqual([
      { line: 2, path: 'layout.kind', message: expect.stringContaining("'prose' | 'sections' | 'lines'") },
    ]);
  });

  it('refuses a file larger than the cap before parsing it', () => {
    const padded = `${MINIMAL}# ${'x'.repeat(MAX_GRAMMAR_BYTES)}\n`;
    expect(problemsOf(padded)).toEqual([{ message: expect.stringContaining('at most 200 KB') }]);
  });

  it('refuses what is not a grammar at all', () => {
    expect(problemsOf('')).toEqual([
      { path: 'name', message: 'missing (expected string)' },
      { path: 'layout', message: 'missing (expected object)' },
      { path: 'templates', message: 'missing (expected object)' },
    ]);
  });
});

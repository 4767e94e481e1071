import { describe, expect, it } from 'vitest';
import { createRdfParser } from './rdf-parser.ts';
import type { ParsedStatement } from './statement.ts';

function parse(format: 'n-triples' | 'turtle', chunks: string[]) {
  const statements: ParsedStatement[] = [];
  const parser = createRdfParser(format, (statement) => statements.push(statement));
  for (const chunk of chunks) {
    const problem = parser.push(chunk);
    if (problem) return { statements, problem };
  }
  return { statements, problem: parser.end() };
}

describe('N-Triples and Turtle import', () => {
  it('reads IRIs, language-tagged and typed literals, split at any point', () => {
    const text = [
      '<http://example.org/Dog> <http://example.org/is-a> <http://example.org/Mammal> .',
      '<http://example.org/Dog> <http://www.w3.org/2000/01/rdf-schema#label> "chien"@fr .',
      '<http://example.org/Mars> <http://example.org/moons> "2"^^<http://www.w3.org/2001/XMLSchema#integer> .',
      '<http://example.org/Mars> <http://example.org/note> "plain \\"quoted\\" text" .',
      '',
    ].join('\n');
    for (const size of [5, 17, text.length]) {
      const { statements, problem } = parse('n-triples', text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!);
      expect(problem).toBeUndefined();
      expect(statements.map((statement) => statement.object)).toEqual([
        { type: 'iri', value: 'http://example.org/Mammal' },
        { type: 'literal', value: 'chien', language: 'fr' },
        { type: 'literal', value: '2', datatype: 'http://www.w3.org/2001/XMLSchema#integer' },
        { type: 'literal', value: 'plain "quoted" text' },
      ]);
    }
  });

  it('names the bad line of an N-Triples file', () => {
    const { problem, statements } = parse('n-triples', [
      '<http://e.org/a> <http://e.org/b> <http://e.org/c> .\n',
      '<http://e.org/a> <http://e.org/b> <http://e.org/d> .\n<http://e.org/a> <http://e.org/b> oops .\n',
    ]);
    expect(problem?.line).toBe(3);
    expect(statements).toHaveLength(2);
  });

  it('reads Turtle with prefixes and lists of objects', () => {
    const { statements, problem } = parse('turtle', [
      '@prefix : <urn:anima:kg#> .\n:Dog :is-a :Canine , :Pet ;\n  :has-part :Tail .\n',
    ]);
    expect(problem).toBeUndefined();
    expect(statements).toHaveLength(3);
    expect(statements[2]).toMatchObject({
      subject: { value: 'urn:anima:kg#Dog' },
      object: { value: 'urn:anima:kg#Tail' },
    });
  });

  it('names the line of a Turtle syntax error', () => {
    const { problem } = parse('turtle', [
      '@prefix : <urn:anima:kg#> .\n:Dog :is-a :Canine .\n:Cat is-a :Mammal .\n:Cow :is-a :Mammal .\n',
    ]);
    expect(problem).toEqual({ line: 3, message: 'Unexpected "is-a"' });
  });

  it('refuses an invalid IRI in a prefix declaration with its line, where n3 goes on to throw', () => {
    for (const declaration of ['@prefix : <http\u200b://example.org/> .', 'PREFIX ex: <1rn:anima:kg#>']) {
      expect(parse('turtle', [`# zoo\n${declaration}\n:a :b :c .\n`]).problem).toEqual({
        line: 2,
        message: 'Invalid IRI',
      });
    }
  });

  it('refuses a relative IRI that no @base resolves, with the line of its statement', () => {
    // n3 kept <rel> as it was, and made "undefined/zoo#Dog" of </zoo#Dog>: neither could be exported as N-Triples.
    const text = '@prefix : <http://e.org/> .\n:a :b :c .\n:a\n  :b <rel> .\n';
    for (const size of [1, 5, text.length]) {
      const chunks = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      expect(parse('turtle', chunks)).toMatchObject({
        statements: [{ object: { value: 'http://e.org/c' } }],
        problem: {
          line: 4,
          message:
            'the IRI "rel" is not absolute (it names no scheme, such as http:): write it in full, or declare @base before it',
        },
      });
    }
    expect(parse('turtle', ['@prefix : </zoo#> .\n:Dog :is-a :Animal .\n']).problem).toMatchObject({
      line: 2,
      message: expect.stringContaining('"undefined/zoo#Dog" is not absolute'),
    });
    expect(parse('turtle', ['<http://e.org/a> <http://e.org/b> "1"^^<xsd-integer> .\n']).problem).toMatchObject({
      line: 1,
      message: expect.stringContaining('"xsd-integer" is not absolute'),
    });
    expect(parse('turtle', ['@base <http://e.org/> .\n<a> <b> <rel> .\n']).statements).toMatchObject([
      { object: { value: 'http://e.org/rel' } },
    ]);
  });

  it('echoes at most 200 characters of a huge line it cannot read', () => {
    const huge = 'x'.repeat(10_000_000);
    const nTriples = parse('n-triples', [`<http://e.org/a> <http://e.org/b> ${huge} .\n`]).problem;
    expect(nTriples).toEqual({ line: 1, message: `Unexpected "${'x'.repeat(200)}…" (10,000,000 characters)` });
    const turtle = parse('turtle', [
      `@prefix : <urn:anima:kg#> .\n:a :b :c .\n${'p'.repeat(5000)}:a :b :c .\n`,
    ]).problem;
    // n3 cuts its parser's own messages (not its lexer's) near 200 characters.
    expect(turtle).toEqual({ line: 3, message: expect.stringMatching(/^Undefined prefix "p{100,200}…$/) });
  });
});

import { describe, expect, it } from 'vitest';
import { createCsvParser } from './csv-parser.ts';
import type { ParsedStatement } from './statement.ts';

function parse(chunks: string[]) {
  const statements: ParsedStatement[] = [];
  const parser = createCsvParser((statement) => statements.push(statement));
  for (const chunk of chunks) {
    const problem = parser.push(chunk);
    if (problem) return { statements, problem };
  }
  return { statements, problem: parser.end() };
}

const labels = (statements: ParsedStatement[]) =>
  statements.map((statement) =>
    [statement.subject, statement.predicate, statement.object].map((term) => term.value).join(' | '),
  );

describe('CSV import', () => {
  it('reads subject,predicate,object with an optional confidence and header', () => {
    const { statements, problem } = parse([
      'subject,predicate,object,confidence\nDog,is-a,Mammal\nCat,is-a,Mammal,0.8\n',
    ]);
    expect(problem).toBeUndefined();
    expect(labels(statements)).toEqual(['Dog | is-a | Mammal', 'Cat | is-a | Mammal']);
    expect(statements[1]?.confidence).toBe(0.8);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks, across chunk boundaries', () => {
    const text = '"Golden, Retriever",is-a,Dog\r\n"The ""Red"" Planet",has-note,"line one\nline two"\nMars,is-a,Planet';
    for (const size of [1, 3, 7, text.length]) {
      const chunks = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      const { statements, problem } = parse(chunks);
      expect(problem).toBeUndefined();
      expect(labels(statements)).toEqual([
        'Golden, Retriever | is-a | Dog',
        'The "Red" Planet | has-note | line one\nline two',
        'Mars | is-a | Planet',
      ]);
    }
  });

  it('names the line of a record with the wrong number of fields, counting multi-line fields', () => {
    const { problem } = parse(['a,b,"c\nc"\n# a comment\n\nd,e\n']);
    expect(problem).toEqual({ line: 5, message: expect.stringContaining('expected 3 or 4 fields') });
  });

  it('refuses a confidence outside 0..1 and an empty field, naming the line', () => {
    expect(parse(['a,b,c,1.5\n']).problem).toEqual({
      line: 1,
      message: 'the confidence (column 4) "1.5" is not a plain decimal from 0 to 1, such as 0.75',
    });
    expect(parse(['a,b,c\n,b,c\n']).problem).toEqual({ line: 2, message: 'the subject (column 1) is empty' });
  });

  it.each(['0x1', '1e-1', 'Infinity', 'NaN', '0b1', '1_0', '.5', '+0.5', '0,5', '-0'])(
    'refuses the confidence %j, naming its line and column',
    (confidence) => {
      const { statements, problem } = parse([`Dog,is-a,Mammal\nCat,is-a,Mammal,"${confidence}"\n`]);
      expect(problem).toEqual({
        line: 2,
        message: `the confidence (column 4) ${JSON.stringify(confidence)} is not a plain decimal from 0 to 1, such as 0.75`,
      });
      expect(statements).toHaveLength(1);
    },
  );

  it('reads plain decimals from 0 to 1, spaces around them aside', () => {
    const { statements, problem } = parse(['a,b,c,0\na,b,d, 1 \na,b,e,0.25\na,b,f,1.000\n']);
    expect(problem).toBeUndefined();
    expect(statements.map((statement) => statement.confidence)).toEqual([0, 1, 0.25, 1]);
  });

  it('echoes at most 200 characters of a huge confidence', () => {
    const { problem } = parse([`a,b,c,${'9'.repeat(10_000_000)}\n`]);
    expect(problem?.message).toBe(
      `the confidence (column 4) "${'9'.repeat(200)}…" (10,000,000 characters) is not a plain decimal from 0 to 1, such as 0.75`,
    );
  });

  it('refuses an unclosed quote', () => {
    expect(parse(['a,b,c\nd,e,"f\n']).problem).toEqual({ line: 2, message: 'a quoted field is not closed' });
  });

  it('skips comment lines whatever they hold, and lines of spaces', () => {
    const { statements, problem } = parse([
      '# columns: subject,predicate,object\n# a "quoted" comment\n   \nDog,is-a,Mammal\n  # indented, too\n',
    ]);
    expect(problem).toBeUndefined();
    expect(labels(statements)).toEqual(['Dog | is-a | Mammal']);
  });
});

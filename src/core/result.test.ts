import { describe, expect, it } from 'vitest';
import { describeProblem } from './result.ts';

describe('describeProblem', () => {
  it('names the line and the key path when the agent gives them', () => {
    expect(describeProblem({ line: 7, path: 'persona.name', message: 'expected a string' })).toBe(
      'line 7, at persona.name: expected a string',
    );
  });

  it('names the column after the line when a reader knows it', () => {
    expect(
      describeProblem({ line: 1, column: 40, path: '$.triples', message: 'the key "triples" appears twice' }),
    ).toBe('line 1, column 40, at $.triples: the key "triples" appears twice');
  });

  it('gives the bare message when there is no location', () => {
    expect(describeProblem({ message: 'the file is empty' })).toBe('the file is empty');
  });
});

import { describe, expect, it } from 'vitest';
import { factText, tripleText } from './fact-text.ts';

const fact = {
  subject: { id: 1, label: 'GoldenRetriever', kind: 'entity' as const },
  predicate: { id: 2, label: 'is-a', kind: 'relation' as const },
  object: { id: 3, label: 'Dog', kind: 'entity' as const },
  confidence: 1,
};

describe('fact text', () => {
  it('writes a triple by its labels, with the confidence when asked', () => {
    expect(tripleText(fact)).toBe('GoldenRetriever is-a Dog');
    expect(factText(fact)).toBe('GoldenRetriever is-a Dog (1.00)');
  });
});

import { describe, expect, it } from 'vitest';
import { refusalProblem } from '#core/testing/fuzz.ts';
import { errorSentence, isDefect } from './error-sentence.ts';

describe('errorSentence', () => {
  it('passes an error written for people as it is', () => {
    expect(errorSentence(new Error('Anima is setting up in another tab; reload this one in a moment'))).toBe(
      'Anima is setting up in another tab; reload this one in a moment',
    );
    expect(isDefect(new DOMException('The operation was aborted.', 'AbortError'))).toBe(false);
  });

  it("says a defect in one sentence, with JavaScript's message but never its stack", () => {
    let overflow: unknown;
    const recurse = (depth: number): number => recurse(depth + 1) + 1;
    try {
      recurse(0);
    } catch (error) {
      overflow = error;
    }
    const sentence = errorSentence(overflow);
    expect(sentence).toBe(
      'Anima stopped on an internal error, a defect to report (RangeError: Maximum call stack size exceeded)',
    );
    expect(refusalProblem(sentence)).toBeUndefined();
    expect(errorSentence('a thrown string')).toBe(
      'Anima stopped on an internal error, a defect to report (a thrown string)',
    );
  });

  it('cuts a message that quotes a huge input', () => {
    const sentence = errorSentence(new Error(`cannot read "${'x'.repeat(10_000_000)}"`));
    expect(sentence.length).toBeLessThan(1_100);
    expect(sentence).toMatch(/… \(10,000,014 characters\)$/);
    expect(errorSentence(new TypeError(`bad ${'y'.repeat(5_000)}`)).length).toBeLessThan(300);
  });
});

import { describe, expect, it } from 'vitest';
import {
  type Hypervector,
  DEFAULT_DIMENSIONS,
  bind,
  bindToRandom,
  bundle,
  hammingDistance,
  hypervectorOfText,
  randomHypervector,
  similarity,
  textSimilarity,
  textWords,
} from './hypervector.ts';

const bitOf = (vector: Hypervector, dimension: number) => (vector.words[dimension >>> 5]! >>> (dimension & 31)) & 1;

const complementOf = (vector: Hypervector): Hypervector => {
  const words = vector.words.map((word) => ~word >>> 0);
  const used = vector.dimensions % 32;
  if (used !== 0) words[words.length - 1]! &= 0xffffffff >>> (32 - used);
  return { dimensions: vector.dimensions, words };
};

describe('random hypervectors', () => {
  it('gives the same vector for the same seed, and a different one for another seed', () => {
    expect(randomHypervector(42).words).toEqual(randomHypervector(42).words);
    expect(randomHypervector(42).words).not.toEqual(randomHypervector(43).words);
    expect(randomHypervector(42).dimensions).toBe(DEFAULT_DIMENSIONS);
    expect(randomHypervector(42).words).toHaveLength(Math.ceil(DEFAULT_DIMENSIONS / 32));
  });

  it('keeps the vector of a seed stable across versions and platforms', () => {
    expect([...randomHypervector(42).words.slice(0, 3)]).toEqual([...randomHypervector(42, 96).words]);
    expect([...randomHypervector(42, 96).words]).toMatchInlineSnapshot(`
      [
        809479221,
        424321267,
        953870938,
      ]
    `);
  });

  it('makes vectors of different seeds unrelated (similarity near 0.5), even for neighbouring or packed seeds', () => {
    const seeds = [0, 1, 2, 3, 1000, 2 ** 32, 2 ** 32 + 1, 2 * 2 ** 32, 2 * 2 ** 32 + 1, Number.MAX_SAFE_INTEGER, -1];
    for (const [index, seed] of seeds.entries()) {
      for (const other of seeds.slice(index + 1)) {
        const score = similarity(randomHypervector(seed), randomHypervector(other));
        expect(score, `${seed} vs ${other}`).toBeGreaterThan(0.45);
        expect(score, `${seed} vs ${other}`).toBeLessThan(0.55);
      }
    }
  });

  it('has about as many +1 as -1 dimensions', () => {
    const vector = randomHypervector(7);
    const ones =
      DEFAULT_DIMENSIONS -
      hammingDistance(vector, { dimensions: DEFAULT_DIMENSIONS, words: new Uint32Array(vector.words.length) });
    expect(ones / DEFAULT_DIMENSIONS).toBeGreaterThan(0.48);
    expect(ones / DEFAULT_DIMENSIONS).toBeLessThan(0.52);
  });

  it('leaves the bits past the last dimension at 0', () => {
    for (const dimensions of [1, 31, 33, 100]) {
      const vector = randomHypervector(5, dimensions);
      expect(vector.words[vector.words.length - 1]! >>> (dimensions % 32)).toBe(0);
    }
    expect(similarity(randomHypervector(5, 33), randomHypervector(5, 33))).toBe(1);
  });

  it('refuses seeds and dimensions it cannot use', () => {
    expect(() => randomHypervector(1.5)).toThrow(RangeError);
    expect(() => randomHypervector(2 ** 53)).toThrow(RangeError);
    expect(() => randomHypervector(1, 0)).toThrow(RangeError);
  });
});

describe('similarity', () => {
  it('is 1 for equal vectors and 0 for opposite ones', () => {
    const vector = randomHypervector(1);
    expect(similarity(vector, vector)).toBe(1);
    expect(similarity(vector, complementOf(vector))).toBe(0);
    expect(similarity(randomHypervector(1, 100), complementOf(randomHypervector(1, 100)))).toBe(0);
  });

  it('refuses vectors of different dimensions', () => {
    expect(() => similarity(randomHypervector(1, 100), randomHypervector(1, 200))).toThrow(/different dimensions/);
  });
});

describe('bind', () => {
  it('undoes itself: binding again with either vector gives back the other', () => {
    const a = randomHypervector(1);
    const b = randomHypervector(2);
    const bound = bind(a, b);
    expect(bind(bound, b).words).toEqual(a.words);
    expect(bind(bound, a).words).toEqual(b.words);
  });

  it('gives a vector unlike both of its inputs', () => {
    const a = randomHypervector(1);
    const b = randomHypervector(2);
    expect(similarity(bind(a, b), a)).toBeLessThan(0.55);
    expect(similarity(bind(a, b), b)).toBeLessThan(0.55);
  });

  it("binds to a seed's random vector as to the vector itself, the unused bits of the last word zero", () => {
    for (const dimensions of [32, 100, DEFAULT_DIMENSIONS])
      for (const seed of [0, 7, 2 * 2 ** 32 + 12_345, Number.MAX_SAFE_INTEGER]) {
        const role = randomHypervector(3 * 2 ** 32 + 5, dimensions);
        expect(bindToRandom(role, seed)).toEqual(bind(role, randomHypervector(seed, dimensions)));
      }
    expect(() => bindToRandom(randomHypervector(1), 0.5)).toThrow(RangeError);
  });
});

describe('bundle', () => {
  const a = randomHypervector(1);
  const b = randomHypervector(2);
  const c = randomHypervector(3);

  it('stays closer to a vector it holds twice (A, A, B is nearer A than B)', () => {
    const bundled = bundle([a, a, b]);
    expect(similarity(bundled, a)).toBeGreaterThan(similarity(bundled, b));
    // Two votes of three: every dimension follows A.
    expect(bundled.words).toEqual(a.words);
  });

  it('stays similar to each of its members and unlike an outsider', () => {
    const bundled = bundle([a, b, c]);
    for (const member of [a, b, c]) expect(similarity(bundled, member)).toBeGreaterThan(0.7);
    expect(similarity(bundled, randomHypervector(4))).toBeLessThan(0.55);
  });

  it('counts a weight as that many copies', () => {
    expect(bundle([a, b], [2, 1]).words).toEqual(a.words);
    expect(bundle([a, b, c], [3, 1, 1]).words).toEqual(a.words);
    expect(bundle([a, b, c], [1, 0, 1]).words).toEqual(bundle([a, c]).words);
    expect(bundle([a, b, c], [5, 2, 4]).words).toEqual(bundle([a, a, a, a, a, b, b, c, c, c, c]).words);
  });

  it('settles even votes the same way whatever the order', () => {
    expect(bundle([a, b]).words).toEqual(bundle([b, a]).words);
    expect(bundle([a, b, c, randomHypervector(4)]).words).toEqual(bundle([c, randomHypervector(4), b, a]).words);
    const score = similarity(bundle([a, b]), a);
    expect(score).toBeGreaterThan(0.7);
    expect(score).toBeLessThan(0.8);
  });

  it('keeps unrelated bundles of an even count unrelated', () => {
    const score = similarity(bundle([a, b]), bundle([c, randomHypervector(4)]));
    expect(score).toBeGreaterThan(0.45);
    expect(score).toBeLessThan(0.55);
  });

  it('gives the per-dimension weighted majority, settling even votes by the parity of the dimension before', () => {
    for (const dimensions of [33, 64, 100]) {
      // Every dimension of (V, not V) ties and the parity is all ones, so their bundle shows the fixed vector, inverted.
      const fixed = complementOf(
        bundle([randomHypervector(9, dimensions), complementOf(randomHypervector(9, dimensions))]),
      );
      for (let trial = 0; trial < 60; trial++) {
        const count = 1 + (trial % 7);
        const vectors = Array.from({ length: count }, (_, index) => randomHypervector(trial * 100 + index, dimensions));
        // Every third trial votes with equal weights (the closed forms for two and three vectors, and common divisors).
        const weights = vectors.map((_, index) =>
          trial % 3 === 0 ? 1 + (trial % 2) : ((trial * 7 + index * 3) % 6) + (index === 0 ? 1 : 0),
        );
        const bundled = bundle(vectors, weights);
        const total = weights.reduce((sum, weight) => sum + weight, 0);
        for (let dimension = 0; dimension < dimensions; dimension++) {
          const votes = vectors.reduce((sum, vector, index) => sum + bitOf(vector, dimension) * weights[index]!, 0);
          const before = (dimension + dimensions - 1) % dimensions;
          const parity = vectors.reduce(
            (sum, vector, index) => sum ^ (weights[index]! > 0 ? bitOf(vector, before) : 0),
            0,
          );
          const expected = 2 * votes > total ? 1 : 2 * votes < total ? 0 : parity ^ bitOf(fixed, dimension);
          expect(bitOf(bundled, dimension), `trial ${trial}, dimension ${dimension}`).toBe(expected);
        }
        if (dimensions % 32 !== 0) expect(bundled.words[bundled.words.length - 1]! >>> (dimensions % 32)).toBe(0);
      }
    }
  });

  it('refuses an empty bundle, a zero total weight and bad weights', () => {
    expect(() => bundle([])).toThrow(RangeError);
    expect(() => bundle([a, b], [0, 0])).toThrow(RangeError);
    expect(() => bundle([a, b], [1, -1])).toThrow(RangeError);
    expect(() => bundle([a, b], [1, 0.5])).toThrow(RangeError);
    expect(() => bundle([a, b], [1])).toThrow(RangeError);
    expect(() => bundle([a, randomHypervector(1, 100)])).toThrow(RangeError);
  });
});

describe('text', () => {
  it('reads words case-insensitively, normalised, split on anything but letters and digits', () => {
    expect(textWords('The RED-planet, 4th from the Sun!')).toEqual([
      'the',
      'red',
      'planet',
      '4th',
      'from',
      'the',
      'sun',
    ]);
    expect(textWords('ﬁre Ｆｕｒ')).toEqual(['fire', 'fur']);
    expect(textWords('Ünïcödé naïve')).toEqual(['ünïcödé', 'naïve']);
    expect(textWords(' -- ')).toEqual([]);
  });

  it('finds "red planet" nearer "the red planet" than "golden retriever"', () => {
    const close = textSimilarity('red planet', 'the red planet');
    const far = textSimilarity('red planet', 'golden retriever');
    expect(close).toBeGreaterThan(far);
    expect(close).toBeGreaterThan(0.7);
    expect(far).toBeGreaterThan(0.45);
    expect(far).toBeLessThan(0.55);
  });

  it('ignores word order, case and punctuation', () => {
    expect(textSimilarity('Red Planet', 'planet, red')).toBe(1);
    expect(hypervectorOfText('Red Planet').words).toEqual(hypervectorOfText('red-planet').words);
  });

  it('gives texts without words a similarity of 0', () => {
    expect(textSimilarity('', 'red planet')).toBe(0);
    expect(textSimilarity('...', '...')).toBe(0);
    expect(hypervectorOfText('').dimensions).toBe(DEFAULT_DIMENSIONS);
  });
});

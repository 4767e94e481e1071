/**
 * Bipolar hypervectors packed as bits: bit 1 stands for +1, bit 0 for -1, 32 dimensions to a
 * word of a `Uint32Array`. Random vectors of many dimensions are almost orthogonal (similarity
 * about 0.5), so a symbol or a word can be given one from a seed, and structure can be encoded
 * by binding (XOR) and bundling (majority) them. Everything here is integer arithmetic, so the
 * same seed gives the same vector on every platform.
 */

/** Dimensions of a hypervector unless told otherwise: enough to keep random vectors near 0.5 (±0.015). */
export const DEFAULT_DIMENSIONS = 10_000;

/**
 * A bipolar hypervector. `words` holds `ceil(dimensions / 32)` words; the bits of the last word
 * past `dimensions` are always 0, so whole-word operations never count them.
 */
export type Hypervector = { readonly dimensions: number; readonly words: Uint32Array };

/** Seeds of the fixed vectors used here; any constants would do, but they must never change. */
const TIE_BREAK_SEED = 0x71eb4ea;
const WORD_SALT = 0x5eed_0001;

/**
 * A random hypervector, the same for the same seed and dimensions on every platform.
 * Distinct safe-integer seeds give distinct generator states, so callers can pack a kind and an
 * id into one seed (`kind * 2 ** 32 + id`) without collisions.
 * @param seed any safe integer.
 */
export function randomHypervector(seed: number, dimensions: number = DEFAULT_DIMENSIONS): Hypervector {
  const words = new Uint32Array(wordCount(dimensions));
  const next = generatorOfSeed(seed);
  for (let index = 0; index < words.length; index++) words[index] = next();
  words[words.length - 1]! &= lastWordMask(dimensions);
  return { dimensions, words };
}

/**
 * `bind(vector, randomHypervector(seed, vector.dimensions))`, without making the random vector:
 * a similarity index binds a role to a symbol's random vector for each feature it bundles.
 */
export function bindToRandom(vector: Hypervector, seed: number): Hypervector {
  const next = generatorOfSeed(seed);
  const words = new Uint32Array(vector.words.length);
  for (let index = 0; index < words.length; index++) words[index] = vector.words[index]! ^ next();
  words[words.length - 1]! &= lastWordMask(vector.dimensions);
  return { dimensions: vector.dimensions, words };
}

/** The generator of a random hypervector's words: its state from both halves of the seed. */
function generatorOfSeed(seed: number): () => number {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`a hypervector seed must be a safe integer, got ${seed}`);
  return xoshiro128StarStar(seed >>> 0, Math.floor(seed / 2 ** 32) >>> 0);
}

/**
 * Binds two vectors (XOR, the bipolar product): the result is unlike both, and binding again with
 * either gives back the other. Used to pair a role with a filler, e.g. a predicate with an object.
 */
export function bind(a: Hypervector, b: Hypervector): Hypervector {
  assertSameDimensions(a, b);
  const words = new Uint32Array(a.words.length);
  for (let index = 0; index < words.length; index++) words[index] = a.words[index]! ^ b.words[index]!;
  return { dimensions: a.dimensions, words };
}

/**
 * Bundles vectors by bitwise majority: the result is similar to each of them, more so to the
 * heavier ones. A weight counts its vector that many times. A dimension where the votes are
 * exactly even takes its bit from a tie-break vector made from the members themselves (see
 * `fixedTieBreakVector`), so the result is deterministic and independent of the order of the vectors.
 * A tie-break vector shared by all bundles would not do: every bundle of two would agree with it
 * in half its dimensions, and so unrelated bundles would look alike (0.62 instead of 0.5).
 * Counting is bit-sliced (32 dimensions at a time), so bundling n vectors costs about n whole-word
 * additions per word, not n additions per dimension.
 * @param weights non-negative integers, one per vector (all 1 when left out); their sum must be
 *   positive and below 2^31.
 */
export function bundle(vectors: readonly Hypervector[], weights?: readonly number[]): Hypervector {
  const first = vectors[0];
  if (first === undefined) throw new RangeError('bundle needs at least one vector');
  if (weights !== undefined && weights.length !== vectors.length) {
    throw new RangeError(`bundle got ${vectors.length} vectors but ${weights.length} weights`);
  }
  let total = 0;
  for (let index = 0; index < vectors.length; index++) {
    assertSameDimensions(first, vectors[index]!);
    const weight = weights === undefined ? 1 : weights[index]!;
    if (!Number.isInteger(weight) || weight < 0)
      throw new RangeError(`bundle weights must be non-negative integers, got ${weight} at ${index}`);
    total += weight;
  }
  if (total === 0) throw new RangeError('bundle needs a positive total weight');
  if (total >= 2 ** 31) throw new RangeError(`bundle weights must sum to less than 2^31, got ${total}`);

  // Majority does not change when every weight is divided by their common divisor (10, 10, 5 is
  // 2, 2, 1), and fewer planes mean less work. Vectors of weight 0 take no part.
  let divisor = 0;
  for (const weight of weights ?? []) divisor = greatestCommonDivisor(divisor, weight);
  const members: Uint32Array[] = [];
  const memberWeights: number[] = [];
  for (const [index, vector] of vectors.entries()) {
    const weight = weights === undefined ? 1 : weights[index]! / divisor;
    if (weight === 0) continue;
    members.push(vector.words);
    memberWeights.push(weight);
  }
  total = weights === undefined ? total : total / divisor;
  const { dimensions } = first;
  if (members.length === 1) return { dimensions, words: members[0]!.slice() };

  // Count votes for +1 per dimension in binary, one Int32 per bit of the count ("plane"),
  // covering 32 dimensions at once. A count never exceeds the total, so it fits planeCount bits.
  const planeCount = 32 - Math.clz32(total);
  const planes = new Int32Array(planeCount);
  // +1 wins when 2 * count > total, i.e. count > floor(total / 2); an even total can tie.
  const threshold = total >>> 1;
  const canTie = total % 2 === 0;
  // Ties take the parity of the members one dimension before (see tieBreakBit), XOR a fixed vector.
  const fixed = fixedTieBreakVector(dimensions).words;
  const wordTotal = first.words.length;
  const lastDimension = dimensions - 1;
  let carriedParity = 0;
  for (const words of members) carriedParity ^= (words[wordTotal - 1]! >>> (lastDimension & 31)) & 1;
  const result = new Uint32Array(wordTotal);
  if (memberWeights.every((weight) => weight === 1) && members.length <= 3) {
    // Two or three equal votes, the commonest bundles here, have closed forms.
    const [a, b, c] = members as [Uint32Array, Uint32Array, Uint32Array | undefined];
    for (let wordIndex = 0; wordIndex < wordTotal; wordIndex++) {
      const left = a[wordIndex]!;
      const right = b[wordIndex]!;
      if (c === undefined) {
        const parity = left ^ right;
        const tieBreak = ((parity << 1) | carriedParity) ^ fixed[wordIndex]!;
        carriedParity = parity >>> 31;
        result[wordIndex] = (left & right) | (parity & tieBreak);
      } else {
        const third = c[wordIndex]!;
        result[wordIndex] = (left & right) | (third & (left | right));
      }
    }
    result[wordTotal - 1]! &= lastWordMask(dimensions);
    return { dimensions, words: result };
  }
  for (let wordIndex = 0; wordIndex < wordTotal; wordIndex++) {
    for (let plane = 0; plane < planeCount; plane++) planes[plane] = 0;
    let parity = 0;
    for (let memberIndex = 0; memberIndex < members.length; memberIndex++) {
      const value = members[memberIndex]![wordIndex]! | 0;
      parity ^= value;
      let weight = memberWeights[memberIndex]!;
      if (weight === 1) {
        let carry = value;
        for (let target = 0; carry !== 0 && target < planeCount; target++) {
          const overflow = planes[target]! & carry;
          planes[target]! ^= carry;
          carry = overflow;
        }
        continue;
      }
      // Adding weight w to the counts of the set bits: for each bit b of w, add the word at plane b.
      for (let plane = 0; weight !== 0; plane++, weight >>>= 1) {
        if ((weight & 1) === 0) continue;
        let carry = value;
        for (let target = plane; carry !== 0 && target < planeCount; target++) {
          const overflow = planes[target]! & carry;
          planes[target]! ^= carry;
          carry = overflow;
        }
      }
    }
    // Compare each 32 counts with the threshold, from the most significant plane down.
    let greater = 0;
    let equal = -1;
    for (let plane = planeCount - 1; plane >= 0; plane--) {
      const bits = planes[plane]!;
      if (((threshold >>> plane) & 1) === 1) {
        equal &= bits;
      } else {
        greater |= equal & bits;
        equal &= ~bits;
      }
    }
    const tieBreak = ((parity << 1) | carriedParity) ^ fixed[wordIndex]!;
    carriedParity = parity >>> 31;
    result[wordIndex] = canTie ? greater | (equal & tieBreak) : greater;
  }
  result[wordTotal - 1]! &= lastWordMask(dimensions);
  return { dimensions, words: result };
}

/** The number of dimensions where two vectors differ. */
export function hammingDistance(a: Hypervector, b: Hypervector): number {
  assertSameDimensions(a, b);
  const left = a.words;
  const right = b.words;
  let distance = 0;
  for (let index = 0; index < left.length; index++) distance += popCount(left[index]! ^ right[index]!);
  return distance;
}

/**
 * How alike two vectors are: 1 - hamming / dimensions. 1 for equal vectors, about 0.5 for
 * unrelated ones, 0 for opposite ones.
 */
export function similarity(a: Hypervector, b: Hypervector): number {
  return 1 - hammingDistance(a, b) / a.dimensions;
}

/**
 * The words of a text as text similarity sees them: NFKC-normalised, lower-cased, split on
 * anything that is not a letter or a digit (so "Red-Planet" and "red planet" read alike).
 */
export function textWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** The vector of one word, seeded from two FNV-1a hashes of it (so two words rarely share a seed). */
export function wordHypervector(word: string, dimensions: number = DEFAULT_DIMENSIONS): Hypervector {
  const low = fnv1a(word, 0x811c9dc5);
  const high = fnv1a(word, WORD_SALT) >>> 11; // 21 bits, so the seed stays a safe integer
  return randomHypervector(high * 2 ** 32 + low, dimensions);
}

/**
 * The vector of a text: its words' vectors bundled (a repeated word counts again). A text without
 * words gets the vector of the empty word, which no real word has.
 */
export function hypervectorOfText(text: string, dimensions: number = DEFAULT_DIMENSIONS): Hypervector {
  return bundleOfWords(textWords(text), dimensions);
}

/**
 * How alike two texts are by the words they share, whatever their order: 1 for the same words,
 * about 0.5 for texts with no word in common, and 0 when either text has no words at all.
 */
export function textSimilarity(a: string, b: string, dimensions: number = DEFAULT_DIMENSIONS): number {
  return textVectorSimilarity(textVector(a, dimensions), textVector(b, dimensions));
}

/** A text's words bundled into one hypervector (undefined: it has no words), to compare many times with {@link textVectorSimilarity}. */
export function textVector(text: string, dimensions: number = DEFAULT_DIMENSIONS): Hypervector | undefined {
  const words = textWords(text);
  return words.length === 0 ? undefined : bundleOfWords(words, dimensions);
}

/** {@link textSimilarity} of two texts' vectors: 0 when either has no words. */
export function textVectorSimilarity(a: Hypervector | undefined, b: Hypervector | undefined): number {
  return a && b ? similarity(a, b) : 0;
}

function bundleOfWords(words: readonly string[], dimensions: number): Hypervector {
  if (words.length === 0) return wordHypervector('', dimensions);
  return bundle(words.map((word) => wordHypervector(word, dimensions)));
}

/** FNV-1a over the UTF-16 code units of a string, from a given offset basis. */
function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** MurmurHash3's finaliser: a bijection on 32-bit integers that spreads every input bit. */
function mix32(value: number): number {
  let hash = value >>> 0;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/**
 * xoshiro128** (Blackman and Vigna), a small fast generator with 128 bits of state. The two seed
 * words go into separate state words through a bijection, so different seeds never share a state;
 * the first outputs are skipped so that nearby seeds have diverged before any is used.
 */
function xoshiro128StarStar(low: number, high: number): () => number {
  let a = mix32(low ^ 0x9e3779b9);
  let b = mix32(high ^ 0x243f6a88);
  let c = 0x85a308d3;
  let d = 0x13198a2e;
  const next = (): number => {
    const shifted = b << 9;
    let result = Math.imul(b, 5);
    result = Math.imul((result << 7) | (result >>> 25), 9);
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= shifted;
    d = (d << 11) | (d >>> 21);
    return result >>> 0;
  };
  for (let skipped = 0; skipped < 16; skipped++) next();
  return next;
}

/** Set bits of a 32-bit integer (SWAR). */
function popCount(value: number): number {
  let bits = value - ((value >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  bits = (bits + (bits >>> 4)) & 0x0f0f0f0f;
  return Math.imul(bits, 0x01010101) >>> 24;
}

function wordCount(dimensions: number): number {
  if (!Number.isInteger(dimensions) || dimensions < 1)
    throw new RangeError(`hypervector dimensions must be a positive integer, got ${dimensions}`);
  return Math.ceil(dimensions / 32);
}

/** The bits of the last word that are real dimensions. */
function lastWordMask(dimensions: number): number {
  const used = dimensions % 32;
  return used === 0 ? 0xffffffff : 0xffffffff >>> (32 - used);
}

function assertSameDimensions(a: Hypervector, b: Hypervector): void {
  if (a.dimensions !== b.dimensions)
    throw new RangeError(`hypervectors of different dimensions: ${a.dimensions} and ${b.dimensions}`);
}

function greatestCommonDivisor(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

const fixedTieBreakVectors = new Map<number, Hypervector>();

/**
 * The fixed part of the bits that settle even votes in {@link bundle}. A tie at a dimension takes
 * the parity of the members' bits one dimension before (cyclically), XOR this vector's bit. The
 * shift makes the bit independent of the vote it settles; the parity makes it the same for any
 * order of the members and unrelated between unrelated bundles; the fixed vector keeps it from
 * being all zeros when the members cancel out.
 */
function fixedTieBreakVector(dimensions: number): Hypervector {
  let vector = fixedTieBreakVectors.get(dimensions);
  if (vector === undefined) {
    vector = randomHypervector(TIE_BREAK_SEED, dimensions);
    fixedTieBreakVectors.set(dimensions, vector);
  }
  return vector;
}

/**
 * The benchmark's graph: a deterministic (seeded) taxonomy of classes about ten levels deep, with
 * instances of its leaf classes, each carrying a few attribute triples whose objects are shared
 * (colours, places, weights) or other instances. Terms are kept in one table and triples as three
 * Int32Array columns of term indexes, so that a million triples cost a few MB here and each engine
 * converts them into its own terms as part of its timed import.
 */

/** Where every IRI of the benchmark graph lives. */
export const BENCH_IRI_BASE = 'http://example.org/bench/';

/** The datatype of the weight literals. */
export const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';

/** The predicates of the benchmark graph, by their IRIs. */
export const PREDICATES = {
  isA: `${BENCH_IRI_BASE}is-a`,
  hasColor: `${BENCH_IRI_BASE}has-color`,
  livesIn: `${BENCH_IRI_BASE}lives-in`,
  weight: `${BENCH_IRI_BASE}weight`,
  likes: `${BENCH_IRI_BASE}likes`,
  knows: `${BENCH_IRI_BASE}knows`,
} as const;

/**
 * How the graph says "is a": Anima's is-a for subclasses and members alike, or RDFS's
 * rdfs:subClassOf between classes and rdf:type from instances (the same graph, in the standard vocabulary).
 */
export type BenchVocabulary = 'is-a' | 'rdfs';
export const RDFS_SUBCLASS_OF = 'http://www.w3.org/2000/01/rdf-schema#subClassOf';
export const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/** The classes the queries ask about, and the answer counts the generator knows they must have. */
export type QueryPlan = {
  vocabulary: BenchVocabulary;
  /** The predicate between classes (is-a, or rdfs:subClassOf). */
  isA: string;
  /** The predicate from an instance to its class (is-a, or rdf:type). */
  instanceOf: string;
  /** `?x is-a <leafClass>`: the leaf class with the most direct instances. */
  leafClass: string;
  /** `?x is-a ?y . ?y is-a <middleClass>`: the class (depth 3 to 8) with the most such answers. */
  middleClass: string;
  /** Everything reaching `closureClass` through is-a+: the depth-3 class with the largest subtree. */
  closureClass: string;
  expected: { query1: number; query2: number; closure: number };
  shape: { classes: number; leafClasses: number; instances: number; depth: number };
};

/** A generated graph: a term table and triples as columns of indexes into it. */
export type GeneratedGraph = {
  /** Full IRIs, or the lexical values of literals. */
  terms: string[];
  /** 1 where the term is an xsd:integer literal. */
  isLiteral: Uint8Array;
  subjects: Int32Array;
  predicates: Int32Array;
  objects: Int32Array;
  count: number;
  plan: QueryPlan;
};

const TAXONOMY_DEPTH = 10;
const MIN_BRANCHING = 4;
const MAX_BRANCHING = 6;
const TRIPLES_PER_CLASS = 40;
const ATTRIBUTES_PER_INSTANCE = 5;
const COLORS = [
  'red',
  'orange',
  'yellow',
  'green',
  'blue',
  'indigo',
  'violet',
  'black',
  'white',
  'grey',
  'brown',
  'pink',
];
const WEIGHT_VALUES = 500;

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same graph everywhere. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Generates exactly `tripleCount` distinct triples: is-a between classes (a tree of branching 4 to
 * 6, depth 10, widening until each level holds about a tenth of the classes), then for each
 * instance is-a (a leaf class, chosen with a skew so some classes are large), has-color,
 * lives-in, weight and likes; a few `knows` triples make up the exact count.
 */
export function generateGraph(tripleCount: number, seed: number, vocabulary: BenchVocabulary = 'is-a'): GeneratedGraph {
  if (!Number.isInteger(tripleCount) || tripleCount < 200)
    throw new Error(`the benchmark needs at least 200 triples, got ${tripleCount}`);
  const random = createRandom(seed);
  const randomInteger = (below: number) => Math.floor(random() * below);
  const terms: string[] = [];
  const literalFlags: number[] = [];
  const addTerm = (value: string, isLiteral = false) => {
    terms.push(value);
    literalFlags.push(isLiteral ? 1 : 0);
    return terms.length - 1;
  };

  const predicate = {
    isA: addTerm(PREDICATES.isA),
    hasColor: addTerm(PREDICATES.hasColor),
    livesIn: addTerm(PREDICATES.livesIn),
    weight: addTerm(PREDICATES.weight),
    likes: addTerm(PREDICATES.likes),
    knows: addTerm(PREDICATES.knows),
  };
  // In RDFS the is-a triples say rdfs:subClassOf or rdf:type; is-a itself stays in the term table (unused), so both graphs draw the same.
  const classEdge = vocabulary === 'rdfs' ? addTerm(RDFS_SUBCLASS_OF) : predicate.isA;
  const instanceEdge = vocabulary === 'rdfs' ? addTerm(RDF_TYPE) : predicate.isA;

  // The taxonomy, level by level: each level expands a random subset of its classes.
  const targetClasses = Math.max(64, Math.round(tripleCount / TRIPLES_PER_CLASS));
  const perLevel = targetClasses / TAXONOMY_DEPTH;
  const classTerm: number[] = [];
  const classDepth: number[] = [];
  const classParent: number[] = [];
  const classChildren: number[][] = [];
  const addClass = (depth: number, parent: number) => {
    const index = classTerm.length;
    classTerm.push(addTerm(`${BENCH_IRI_BASE}class-${depth}-${index}`));
    classDepth.push(depth);
    classParent.push(parent);
    classChildren.push([]);
    if (parent >= 0) classChildren[parent]!.push(index);
    return index;
  };
  let level = [addClass(0, -1)];
  for (let depth = 0; depth < TAXONOMY_DEPTH; depth++) {
    const expandCount = Math.min(
      level.length,
      Math.max(1, Math.ceil(perLevel / ((MIN_BRANCHING + MAX_BRANCHING) / 2))),
    );
    const expanded = shuffle(level, random)
      .slice(0, expandCount)
      .sort((a, b) => a - b);
    const next: number[] = [];
    for (const parent of expanded) {
      const branching = MIN_BRANCHING + randomInteger(MAX_BRANCHING - MIN_BRANCHING + 1);
      for (let child = 0; child < branching; child++) next.push(addClass(depth + 1, parent));
    }
    level = next;
  }
  const classCount = classTerm.length;
  const leaves = shuffle(
    classChildren.flatMap((children, index) => (children.length === 0 ? [index] : [])),
    random,
  );

  // Shared attribute objects.
  const colorTerms = COLORS.map((color) => addTerm(`${BENCH_IRI_BASE}color-${color}`));
  const instanceCount = Math.floor((tripleCount - (classCount - 1)) / ATTRIBUTES_PER_INSTANCE);
  if (instanceCount < 2) throw new Error(`${tripleCount} triples are too few for a taxonomy of ${classCount} classes`);
  const placeTerms = Array.from({ length: Math.max(16, Math.round(instanceCount / 100)) }, (_, index) =>
    addTerm(`${BENCH_IRI_BASE}place-${index}`),
  );
  const weightTerms = Array.from({ length: WEIGHT_VALUES }, (_, index) => addTerm(String(index + 1), true));
  const firstInstanceTerm = terms.length;
  for (let index = 0; index < instanceCount; index++) addTerm(`${BENCH_IRI_BASE}thing-${index}`);

  const subjects = new Int32Array(tripleCount);
  const predicates = new Int32Array(tripleCount);
  const objects = new Int32Array(tripleCount);
  let count = 0;
  const push = (subject: number, predicateTerm: number, object: number) => {
    subjects[count] = subject;
    predicates[count] = predicateTerm;
    objects[count] = object;
    count++;
  };
  for (let index = 1; index < classCount; index++) push(classTerm[index]!, classEdge, classTerm[classParent[index]!]!);

  const instancesOfClass = new Int32Array(classCount);
  for (let instance = 0; instance < instanceCount; instance++) {
    const subject = firstInstanceTerm + instance;
    // Squaring skews the choice: the first leaves of the shuffled list get most instances.
    const leaf = leaves[Math.floor(random() ** 2 * leaves.length)]!;
    instancesOfClass[leaf]!++;
    push(subject, instanceEdge, classTerm[leaf]!);
    push(subject, predicate.hasColor, colorTerms[randomInteger(colorTerms.length)]!);
    push(subject, predicate.livesIn, placeTerms[randomInteger(placeTerms.length)]!);
    push(subject, predicate.weight, weightTerms[randomInteger(weightTerms.length)]!);
    push(
      subject,
      predicate.likes,
      firstInstanceTerm + ((instance + 1 + randomInteger(instanceCount - 1)) % instanceCount),
    );
  }
  // The remainder: distinct subjects, so no triple repeats.
  for (let instance = 0; count < tripleCount; instance++)
    push(firstInstanceTerm + instance, predicate.knows, firstInstanceTerm + ((instance + 1) % instanceCount));

  return {
    terms,
    isLiteral: Uint8Array.from(literalFlags),
    subjects,
    predicates,
    objects,
    count,
    plan: {
      vocabulary,
      isA: terms[classEdge]!,
      instanceOf: terms[instanceEdge]!,
      ...planQueries({
        terms,
        classTerm,
        classDepth,
        classChildren,
        instancesOfClass,
        leafCount: leaves.length,
        instanceCount,
      }),
    },
  };
}

/** Picks the classes the queries ask about, and counts their answers from the taxonomy itself. */
function planQueries(taxonomy: {
  terms: string[];
  classTerm: number[];
  classDepth: number[];
  classChildren: number[][];
  instancesOfClass: Int32Array;
  leafCount: number;
  instanceCount: number;
}): Omit<QueryPlan, 'vocabulary' | 'isA' | 'instanceOf'> {
  const { terms, classTerm, classDepth, classChildren, instancesOfClass } = taxonomy;
  // Direct is-a subjects of a class: its subclasses and its instances.
  const directCount = (index: number) => classChildren[index]!.length + instancesOfClass[index]!;
  const best = (candidates: number[], score: (index: number) => number) =>
    candidates.reduce((bestSoFar, index) => (score(index) > score(bestSoFar) ? index : bestSoFar), candidates[0]!);
  const classIndexes = classTerm.map((_, index) => index);

  const leafClass = best(
    classIndexes.filter((index) => classChildren[index]!.length === 0),
    directCount,
  );
  const joinCount = (index: number) => classChildren[index]!.reduce((sum, child) => sum + directCount(child), 0);
  const middleClass = best(
    classIndexes.filter((index) => classDepth[index]! >= 3 && classDepth[index]! <= 8),
    joinCount,
  );
  const subtreeSize = new Int32Array(classTerm.length);
  for (let index = classTerm.length - 1; index >= 0; index--) {
    subtreeSize[index] =
      directCount(index) + classChildren[index]!.reduce((sum, child) => sum + subtreeSize[child]!, 0);
  }
  const closureClass = best(
    classIndexes.filter((index) => classDepth[index] === 3),
    (index) => subtreeSize[index]!,
  );
  return {
    leafClass: terms[classTerm[leafClass]!]!,
    middleClass: terms[classTerm[middleClass]!]!,
    closureClass: terms[classTerm[closureClass]!]!,
    expected: { query1: directCount(leafClass), query2: joinCount(middleClass), closure: subtreeSize[closureClass]! },
    shape: {
      classes: classTerm.length,
      leafClasses: taxonomy.leafCount,
      instances: taxonomy.instanceCount,
      depth: Math.max(...classDepth),
    },
  };
}

/** A shuffled copy (Fisher-Yates with the seeded PRNG). */
function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

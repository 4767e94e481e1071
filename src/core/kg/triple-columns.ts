import type { Triple } from './triple.ts';

/**
 * Triples as parallel typed-array columns, in the order they were added. A triple's position
 * never changes, which keeps iteration order the same before and after a reload, and lets
 * storage write them in fixed-size chunks. About 28 bytes a triple, against ~200 for objects.
 */
export type TripleColumns = {
  subjects: Int32Array;
  predicates: Int32Array;
  objects: Int32Array;
  confidences: Float64Array;
  /** -1 when the triple has no provenance record. */
  provenanceIds: Int32Array;
  createdAt: Float64Array;
};

export const NO_PROVENANCE = -1;

/** The triple at a position of the columns, as a record. */
export function tripleAt(columns: TripleColumns, position: number): Triple {
  const provenanceId = columns.provenanceIds[position]!;
  return {
    subject: columns.subjects[position]!,
    predicate: columns.predicates[position]!,
    object: columns.objects[position]!,
    confidence: columns.confidences[position]!,
    ...(provenanceId !== NO_PROVENANCE ? { provenanceId } : {}),
    createdAt: columns.createdAt[position]!,
  };
}

/** Empty columns with room for `capacity` triples. */
export function allocateColumns(capacity: number): TripleColumns {
  return {
    subjects: new Int32Array(capacity),
    predicates: new Int32Array(capacity),
    objects: new Int32Array(capacity),
    confidences: new Float64Array(capacity),
    provenanceIds: new Int32Array(capacity),
    createdAt: new Float64Array(capacity),
  };
}

/** Columns with room for `capacity`, holding the first `count` triples of `columns`. */
export function resizeColumns(columns: TripleColumns, count: number, capacity: number): TripleColumns {
  const resized = allocateColumns(capacity);
  for (const name of COLUMN_NAMES)
    (resized[name] as Int32Array | Float64Array).set((columns[name] as Int32Array | Float64Array).subarray(0, count));
  return resized;
}

/** Copies of positions [start, end) of each column. */
export function sliceColumns(columns: TripleColumns, start: number, end: number): TripleColumns {
  return {
    subjects: columns.subjects.slice(start, end),
    predicates: columns.predicates.slice(start, end),
    objects: columns.objects.slice(start, end),
    confidences: columns.confidences.slice(start, end),
    provenanceIds: columns.provenanceIds.slice(start, end),
    createdAt: columns.createdAt.slice(start, end),
  };
}

export const COLUMN_NAMES = ['subjects', 'predicates', 'objects', 'confidences', 'provenanceIds', 'createdAt'] as const;

/**
 * An open-addressing hash set of (subject, predicate, object) → position, over the columns.
 * Replaces a Map with a million string keys (over 100 MB) by one Int32Array.
 */
export class TripleKeyIndex {
  #slots: Int32Array;
  #mask: number;
  #size = 0;

  constructor(expected = 1024) {
    const capacity = nextPowerOfTwo(Math.max(16, expected * 2));
    this.#slots = new Int32Array(capacity).fill(-1);
    this.#mask = capacity - 1;
  }

  /** The position of a triple, or -1. */
  find(columns: TripleColumns, subject: number, predicate: number, object: number): number {
    for (let slot = hash(subject, predicate, object) & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const position = this.#slots[slot]!;
      if (position === -1) return -1;
      if (
        columns.subjects[position] === subject &&
        columns.predicates[position] === predicate &&
        columns.objects[position] === object
      )
        return position;
    }
  }

  /** Records the position of a triple known not to be in the set yet. */
  insert(columns: TripleColumns, position: number): void {
    if ((this.#size + 1) * 2 > this.#slots.length) this.#grow(columns);
    this.#place(columns, position);
    this.#size++;
  }

  /**
   * Records the position of the triple written there, unless the set holds that triple already:
   * returns where it is then, or -1 when it was recorded. One probe where find and insert take two.
   */
  insertIfAbsent(columns: TripleColumns, position: number): number {
    if ((this.#size + 1) * 2 > this.#slots.length) this.#grow(columns);
    const subject = columns.subjects[position]!;
    const predicate = columns.predicates[position]!;
    const object = columns.objects[position]!;
    let slot = hash(subject, predicate, object) & this.#mask;
    for (let held = this.#slots[slot]!; held !== -1; held = this.#slots[slot]!) {
      if (
        columns.subjects[held] === subject &&
        columns.predicates[held] === predicate &&
        columns.objects[held] === object
      )
        return held;
      slot = (slot + 1) & this.#mask;
    }
    this.#slots[slot] = position;
    this.#size++;
    return -1;
  }

  /** Forgets a triple's position (backward-shift deletion, so later lookups stay correct without tombstones). */
  remove(columns: TripleColumns, position: number): void {
    let hole = this.#slotOf(columns, position);
    this.#slots[hole] = -1;
    this.#size--;
    for (let slot = (hole + 1) & this.#mask; this.#slots[slot] !== -1; slot = (slot + 1) & this.#mask) {
      const moved = this.#slots[slot]!;
      const home = hash(columns.subjects[moved]!, columns.predicates[moved]!, columns.objects[moved]!) & this.#mask;
      // An entry may fill the hole only if its home is not between the hole and where it sits.
      const staysPut = hole <= slot ? hole < home && home <= slot : hole < home || home <= slot;
      if (staysPut) continue;
      this.#slots[hole] = moved;
      this.#slots[slot] = -1;
      hole = slot;
    }
  }

  /** Records that the triple at `from` now sits at `to` (its columns are still read at `from`). */
  move(columns: TripleColumns, from: number, to: number): void {
    this.#slots[this.#slotOf(columns, from)] = to;
  }

  #slotOf(columns: TripleColumns, position: number): number {
    for (
      let slot =
        hash(columns.subjects[position]!, columns.predicates[position]!, columns.objects[position]!) & this.#mask;
      ;
      slot = (slot + 1) & this.#mask
    ) {
      const held = this.#slots[slot]!;
      if (held === position) return slot;
      if (held === -1) throw new Error(`the key index does not hold position ${position}`);
    }
  }

  #place(columns: TripleColumns, position: number): void {
    let slot =
      hash(columns.subjects[position]!, columns.predicates[position]!, columns.objects[position]!) & this.#mask;
    while (this.#slots[slot] !== -1) slot = (slot + 1) & this.#mask;
    this.#slots[slot] = position;
  }

  #grow(columns: TripleColumns): void {
    const old = this.#slots;
    this.#slots = new Int32Array(old.length * 2).fill(-1);
    this.#mask = this.#slots.length - 1;
    for (const position of old) if (position !== -1) this.#place(columns, position);
  }
}

function hash(subject: number, predicate: number, object: number): number {
  let value = Math.imul(subject, 0x9e3779b1) ^ Math.imul(predicate, 0x85ebca6b) ^ Math.imul(object, 0xc2b2ae35);
  value ^= value >>> 16;
  value = Math.imul(value, 0x7feb352d);
  value ^= value >>> 15;
  return value >>> 0;
}

function nextPowerOfTwo(value: number): number {
  return 2 ** Math.ceil(Math.log2(value));
}

import type { DBCore, DBCoreMutateRequest, DBCoreMutateResponse, DBCoreTable, Middleware } from 'dexie';
import { packedForm } from './packed-values.ts';

/**
 * A read the mirror can keep in memory: which rows of a table it returns, in which order, and
 * how to read them from the database. Its rows are kept up to date from every write that commits
 * through this database object, so the read is answered without a request while nothing else wrote.
 */
export type MirroredRead<Row> = {
  /** Names the read and its parameters (e.g. the session): reads with the same key share rows. */
  key: string;
  table: string;
  /** Whether a row belongs to the read's result. */
  matches: (row: Row) => boolean;
  /** The read returns only the newest `count` matching rows, newest by `rank` (a number). */
  newest?: { count: number; rank: (row: Row) => number };
  /** The order of the result. */
  order: (a: Row, b: Row) => number;
  /** Reads the rows from the database (called inside the reader's read transaction). */
  load: () => Promise<Row[]>;
};

type Key = string | number;
type Kept = { read: MirroredRead<unknown>; rows: Map<Key, unknown> };
/** A write staged until its transaction commits: a row put or added (a frozen copy), a key deleted, or a whole table changed. */
type Staged =
  | { kind: 'upsert'; table: string; key: Key; row: unknown }
  | { kind: 'delete'; table: string; key: Key }
  | { kind: 'forget'; table: string };

/**
 * The rows of a few reads, held in memory and kept up to date from the writes of this database
 * object, which is the only writer: the worker that holds the write lock, or the CLI. A cycle's
 * inputs (its session, open goals, working memory, latest episodes and psyche) are read so, where
 * a read transaction cloning them cost a cycle about 1.5 ms and grew with the episodes.
 *
 * Writes apply when their transaction commits (an aborted one changes nothing). A read is
 * answered from memory only when no write to its table is waiting for its transaction; otherwise,
 * and the first time, it reads the database. Rows are frozen copies: a reader cannot change them.
 */
export class RowMirror {
  readonly #kept = new Map<string, Kept>();
  /** Per table: its primary key path, as the schema declares it. */
  readonly #keyPaths = new Map<string, string>();
  /** Per table: writes requested so far (a read whose table was written meanwhile is not kept). */
  readonly #writes = new Map<string, number>();
  /** Per table: writes waiting for their transaction to end. */
  readonly #waiting = new Map<string, number>();
  /** Per transaction: the tables it wrote, and what it will change once it commits. */
  readonly #transactions = new WeakMap<object, { tables: string[]; staged: Staged[] }>();

  readonly middleware: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'row-mirror',
    create: (down) => {
      for (const { name, primaryKey } of down.schema.tables)
        if (typeof primaryKey.keyPath === 'string') this.#keyPaths.set(name, primaryKey.keyPath);
      return { ...down, table: (name) => this.#mirroring(down.table(name)) };
    },
  };

  /**
   * The rows of each read, from memory where the mirror holds them; the others are loaded in
   * `transact` (one read transaction for all of them) and kept when no write to them intervened.
   */
  async readAll<Rows extends unknown[]>(
    reads: { [Index in keyof Rows]: MirroredRead<Rows[Index]> },
    transact: (load: () => Promise<unknown[]>) => Promise<unknown[]>,
  ): Promise<{ [Index in keyof Rows]: Rows[Index][] }> {
    const all = reads as readonly MirroredRead<unknown>[];
    const answered = all.map((read) => this.#answer(read));
    const results: unknown[][] = answered.map((rows) => rows ?? []);
    const missing = all.map((read, index) => ({ read, index })).filter(({ index }) => answered[index] === undefined);
    if (missing.length > 0) {
      const writesBefore = missing.map(({ read }) => this.#writes.get(read.table) ?? 0);
      const loaded = (await transact(() => Promise.all(missing.map(({ read }) => read.load())))) as unknown[][];
      missing.forEach(({ read, index }, position) => {
        const rows = loaded[position]!;
        results[index] = rows;
        const isUnchanged =
          (this.#writes.get(read.table) ?? 0) === writesBefore[position] && !this.#waiting.get(read.table);
        if (isUnchanged) this.#keep(read, rows);
      });
    }
    return results as { [Index in keyof Rows]: Rows[Index][] };
  }

  #isKept(table: string): boolean {
    for (const kept of this.#kept.values()) if (kept.read.table === table) return true;
    return false;
  }

  #isAnswerable(read: MirroredRead<unknown>): boolean {
    return this.#kept.has(read.key) && !this.#waiting.get(read.table);
  }

  #answer(read: MirroredRead<unknown>): unknown[] | undefined {
    if (!this.#isAnswerable(read)) return undefined;
    return [...this.#kept.get(read.key)!.rows.values()].map((row) => packedForm.read(read.table, row)).sort(read.order);
  }

  #keep(read: MirroredRead<unknown>, rows: readonly unknown[]): void {
    const keyPath = this.#keyPaths.get(read.table);
    if (keyPath === undefined) return;
    this.#kept.set(read.key, {
      read,
      rows: new Map(
        frozenCopies(rows.map((row) => packedForm.stored(read.table, row))).map((row) => [
          (row as Record<string, Key>)[keyPath]!,
          row,
        ]),
      ),
    });
  }

  #mirroring(table: DBCoreTable): DBCoreTable {
    const { name } = table;
    const keyPath = this.#keyPaths.get(name);
    return {
      ...table,
      mutate: (request: DBCoreMutateRequest): Promise<DBCoreMutateResponse> => {
        this.#writes.set(name, (this.#writes.get(name) ?? 0) + 1);
        const transaction = request.trans as unknown as EventTarget;
        const writes = this.#hold(transaction, name);
        // A table no kept read takes rows from needs no copies: a read loaded later waits for this write.
        if (!this.#isKept(name)) return table.mutate(request);
        // The copies are taken now: the writer may change its objects before the commit.
        const values = request.type === 'add' || request.type === 'put' ? frozenCopies(request.values) : [];
        return table.mutate(request).then((response) => {
          writes.push(...stagedWrites(name, keyPath, request, response, values));
          return response;
        });
      },
    };
  }

  /** Counts a write to the table as waiting until its transaction ends, and gives the list to stage its changes in. */
  #hold(transaction: EventTarget, table: string): Staged[] {
    this.#waiting.set(table, (this.#waiting.get(table) ?? 0) + 1);
    let written = this.#transactions.get(transaction);
    if (!written) {
      const started = { tables: [] as string[], staged: [] as Staged[] };
      written = started;
      this.#transactions.set(transaction, started);
      const end = (isCommitted: boolean) => {
        this.#transactions.delete(transaction);
        for (const name of started.tables) this.#waiting.set(name, this.#waiting.get(name)! - 1);
        if (isCommitted) for (const write of started.staged) this.#apply(write);
        else this.#forget(started.tables);
      };
      transaction.addEventListener('complete', () => end(true));
      transaction.addEventListener('abort', () => end(false));
    }
    written.tables.push(table);
    return written.staged;
  }

  #forget(tables: readonly string[]): void {
    for (const [key, kept] of this.#kept) if (tables.includes(kept.read.table)) this.#kept.delete(key);
  }

  #apply(write: Staged): void {
    for (const [key, kept] of this.#kept) {
      if (kept.read.table !== write.table) continue;
      if (write.kind === 'forget') this.#kept.delete(key);
      else if (write.kind === 'delete') {
        // A read of the newest rows does not know the row that would take a deleted one's place.
        if (kept.rows.delete(write.key) && kept.read.newest) this.#kept.delete(key);
      } else if (!applyUpsert(kept, write.key, write.row)) this.#kept.delete(key);
    }
  }
}

/** Puts a written row into a kept read; false when the read can no longer be answered from memory. */
function applyUpsert(kept: Kept, key: Key, row: unknown): boolean {
  const { read, rows } = kept;
  const isIn = read.matches(row);
  if (!read.newest) {
    if (isIn) rows.set(key, row);
    else rows.delete(key);
    return true;
  }
  if (!isIn) return !rows.delete(key);
  if (rows.has(key) || rows.size < read.newest.count) {
    rows.set(key, row);
    return true;
  }
  const { rank } = read.newest;
  let oldestKey: Key | undefined;
  let oldestRank = Infinity;
  for (const [candidate, kept] of rows) {
    const candidateRank = rank(kept);
    if (candidateRank < oldestRank) [oldestKey, oldestRank] = [candidate, candidateRank];
  }
  if (rank(row) > oldestRank) {
    rows.delete(oldestKey!);
    rows.set(key, row);
  }
  return true;
}

/** What a write that succeeded changes: each row put (with its key) or deleted, or the whole table. */
function stagedWrites(
  table: string,
  keyPath: string | undefined,
  request: DBCoreMutateRequest,
  response: DBCoreMutateResponse,
  values: readonly unknown[],
): Staged[] {
  if (keyPath === undefined) return [{ kind: 'forget', table }];
  if (request.type === 'deleteRange') return [{ kind: 'forget', table }];
  if (request.type === 'delete')
    return request.keys.map((key) => (isKey(key) ? { kind: 'delete', table, key } : { kind: 'forget', table }));
  return values.flatMap((row, index): Staged[] => {
    if (response.failures[index]) return [];
    const key: unknown = response.results?.[index];
    if (!isKey(key) || typeof row !== 'object' || row === null) return [{ kind: 'forget', table }];
    // An added row learns its generated key as the database gave it.
    const withKey = (row as Record<string, unknown>)[keyPath] === undefined ? { ...row, [keyPath]: key } : row;
    return [{ kind: 'upsert', table, key, row: withKey === row ? row : Object.freeze(withKey) }];
  });
}

function isKey(key: unknown): key is Key {
  return typeof key === 'string' || typeof key === 'number';
}

/** Rows as the mirror keeps them: frozen copies of their stored form (long lists packed, so cheap to copy). */
function frozenCopies(stored: readonly unknown[]): unknown[] {
  return stored.map((row) => frozenCopy(row, 0));
}

/** Deeper than any stored record: a value this deep (or one with a cycle) is copied by structuredClone. */
const MAX_COPIED_DEPTH = 32;

/**
 * A frozen copy of a stored value, copied here rather than by structuredClone, which took four
 * times as long on the rows a cycle writes (27 working-memory entries: 60 us against 15). Plain
 * objects and arrays are copied and frozen; typed arrays copied (they cannot be frozen); anything
 * else (a Date, a Blob) is left to structuredClone.
 */
function frozenCopy(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (ArrayBuffer.isView(value)) return (value as unknown as { slice(): unknown }).slice();
  if (depth > MAX_COPIED_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) copy[index] = frozenCopy(value[index], depth + 1);
    return Object.freeze(copy);
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = frozenCopy((value as Record<string, unknown>)[key], depth + 1);
  return Object.freeze(copy);
}

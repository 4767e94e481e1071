import type { DBCore, DBCoreCursor, DBCoreTable, Middleware } from 'dexie';
import type { DerivationEntry } from '#core/kg/provenance.ts';
import { columnsOfEntries, entriesOfColumns, isDerivationColumns } from '#core/kg/derivation-columns.ts';

/**
 * Long lists of small arrays are stored as typed-array columns, and read back as they were
 * written: IndexedDB clones a stored value on every write and read, and cloning thousands of
 * small arrays cost a cycle about 1 ms each time, where a typed array is copied whole. A goal's
 * findings (up to 2,000 facts) and an inference's derivations (up to 1,000 facts with their
 * premises) are stored so. Everything above the store sees the arrays; values stored before
 * read as they are.
 */
export const packedValues: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'packed-values',
  create: (down) => ({
    ...down,
    table: (name) => {
      const table = down.table(name);
      const packer = PACKERS[name];
      return packer ? packingTable(table, packer) : table;
    },
  }),
};

/** How one field of a table's values is stored, and read back. */
type Packer = {
  field: string;
  pack: (value: unknown[]) => unknown;
  unpack: (stored: unknown) => unknown[] | undefined;
};

type Fact = readonly [number, number, number];

const findingsPacker: Packer = {
  field: 'findings',
  pack: (findings) => factColumn(findings as Fact[]),
  unpack: (stored) => (stored instanceof Int32Array ? factsOf(stored) : undefined),
};

/** An inference's records come with their derivations in columns already: only a list is packed. */
const derivationsPacker: Packer = {
  field: 'derivations',
  pack: (derivations) => columnsOfEntries(derivations as DerivationEntry[]),
  unpack: (stored) => (isDerivationColumns(stored) ? entriesOfColumns(stored) : undefined),
};

const PACKERS: Readonly<Record<string, Packer>> = { goals: findingsPacker, provenance: derivationsPacker };

/**
 * A value of a table as it is stored, and back as it is read: what keeps rows in memory (the
 * row mirror) holds them so too, where a copy of a packed value is a copy of a few typed arrays.
 */
export const packedForm = {
  stored: (table: string, value: unknown): unknown => {
    const packer = PACKERS[table];
    return packer ? stored(value, packer) : value;
  },
  read: (table: string, value: unknown): unknown => {
    const packer = PACKERS[table];
    return packer ? read(value, packer) : value;
  },
};

function factColumn(facts: readonly (readonly number[])[]): Int32Array {
  const column = new Int32Array(facts.length * 3);
  // An index loop: entries() and destructuring allocated an array per fact, thousands per cycle.
  for (let index = 0; index < facts.length; index++) {
    const fact = facts[index]!;
    column[index * 3] = fact[0]!;
    column[index * 3 + 1] = fact[1]!;
    column[index * 3 + 2] = fact[2]!;
  }
  return column;
}

function factsOf(column: Int32Array): [number, number, number][] {
  const facts = new Array<[number, number, number]>(column.length / 3);
  for (let index = 0; index < facts.length; index++)
    facts[index] = [column[index * 3]!, column[index * 3 + 1]!, column[index * 3 + 2]!];
  return facts;
}

/** The value as stored: a copy with its field packed (the caller's object is left as it was). */
function stored(value: unknown, { field, pack }: Packer): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const list = (value as Record<string, unknown>)[field];
  return Array.isArray(list) ? { ...value, [field]: pack(list) } : value;
}

/** The value as read: its field as it was written (a value stored before packing has it so already). */
function read(value: unknown, { field, unpack }: Packer): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const list = unpack((value as Record<string, unknown>)[field]);
  return list === undefined ? value : { ...value, [field]: list };
}

/**
 * A cursor whose value is read back once per position, however often it is asked for.
 * The browser's cursor getters refuse another receiver: key and primaryKey are asked of it.
 */
function readingCursor(cursor: DBCoreCursor, packer: Packer): DBCoreCursor {
  let raw: unknown;
  let value: unknown;
  return Object.create(cursor, {
    key: { get: () => cursor.key },
    primaryKey: { get: () => cursor.primaryKey },
    value: {
      get() {
        if (cursor.value !== raw) {
          raw = cursor.value;
          value = read(raw, packer);
        }
        return value;
      },
    },
    next: { value: () => cursor.next().then((next) => readingCursor(next, packer)) },
  }) as DBCoreCursor;
}

function packingTable(table: DBCoreTable, packer: Packer): DBCoreTable {
  return {
    ...table,
    mutate: (request) =>
      request.type === 'add' || request.type === 'put'
        ? table.mutate({ ...request, values: request.values.map((value) => stored(value, packer)) })
        : table.mutate(request),
    get: (request) => table.get(request).then((value) => read(value, packer)),
    getMany: (request) => table.getMany(request).then((values) => values.map((value) => read(value, packer))),
    query: (request) =>
      table
        .query(request)
        .then((response) =>
          request.values ? { ...response, result: response.result.map((value) => read(value, packer)) } : response,
        ),
    openCursor: (request) =>
      table
        .openCursor(request)
        .then((cursor) => (cursor && request.values !== false ? readingCursor(cursor, packer) : cursor)),
  };
}

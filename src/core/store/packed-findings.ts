import type { DBCore, DBCoreCursor, DBCoreTable, Middleware } from 'dexie';

/**
 * A goal's findings (up to 2,000 facts, each [subject, predicate, object]) are stored as one
 * Int32Array, and read back as arrays: IndexedDB clones a stored value on every write and read,
 * and cloning 2,000 small arrays cost a cycle about 1 ms each time its goal was read or written,
 * where one typed array is copied whole. Everything above the store sees arrays.
 */
export const packedFindings: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'packed-findings',
  create: (down) => ({
    ...down,
    table: (name) => (name === 'goals' ? packingTable(down.table(name)) : down.table(name)),
  }),
};

type Findings = readonly (readonly [number, number, number])[];

function pack(findings: Findings): Int32Array {
  const packed = new Int32Array(findings.length * 3);
  for (const [index, [subject, predicate, object]] of findings.entries()) {
    packed[index * 3] = subject;
    packed[index * 3 + 1] = predicate;
    packed[index * 3 + 2] = object;
  }
  return packed;
}

function unpack(packed: Int32Array): [number, number, number][] {
  return Array.from({ length: packed.length / 3 }, (_, index): [number, number, number] => [
    packed[index * 3]!,
    packed[index * 3 + 1]!,
    packed[index * 3 + 2]!,
  ]);
}

/** The goal as stored: a copy with its findings packed (the caller's object is left as it was). */
function stored(goal: unknown): unknown {
  if (typeof goal !== 'object' || goal === null || !Array.isArray((goal as { findings?: unknown }).findings))
    return goal;
  return { ...goal, findings: pack((goal as { findings: Findings }).findings) };
}

/** The goal as read: its findings as arrays again (a goal stored before packing has them so already). */
function read(goal: unknown): unknown {
  if (typeof goal !== 'object' || goal === null) return goal;
  const { findings } = goal as { findings?: unknown };
  return findings instanceof Int32Array ? { ...goal, findings: unpack(findings) } : goal;
}

/**
 * A cursor over goals whose value is read back once per position, however often it is asked for.
 * The browser's cursor getters refuse another receiver: key and primaryKey are asked of it.
 */
function readingCursor(cursor: DBCoreCursor): DBCoreCursor {
  let raw: unknown;
  let value: unknown;
  return Object.create(cursor, {
    key: { get: () => cursor.key },
    primaryKey: { get: () => cursor.primaryKey },
    value: {
      get() {
        if (cursor.value !== raw) {
          raw = cursor.value;
          value = read(raw);
        }
        return value;
      },
    },
    next: { value: () => cursor.next().then(readingCursor) },
  }) as DBCoreCursor;
}

function packingTable(table: DBCoreTable): DBCoreTable {
  return {
    ...table,
    mutate: (request) =>
      request.type === 'add' || request.type === 'put'
        ? table.mutate({ ...request, values: request.values.map(stored) })
        : table.mutate(request),
    get: (request) => table.get(request).then(read),
    getMany: (request) => table.getMany(request).then((goals) => goals.map(read)),
    query: (request) =>
      table
        .query(request)
        .then((response) => (request.values ? { ...response, result: response.result.map(read) } : response)),
    openCursor: (request) =>
      table.openCursor(request).then((cursor) => (cursor && request.values !== false ? readingCursor(cursor) : cursor)),
  };
}

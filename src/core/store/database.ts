import { type Collection, Dexie, type DexieOptions, type EntityTable, type Table } from 'dexie';
import type { KgSymbol } from '../kg/symbol.ts';
import type { Triple } from '../kg/triple.ts';
import type { ProvenanceRecord } from './provenance.ts';
import { SCHEMA_VERSIONS } from './schema.ts';
import type { SessionRecord } from './session.ts';

/** A symbol as stored: the symbol and the session that owns it. */
export type StoredSymbol = KgSymbol & { sessionId: string };
/** A triple as stored: the triple and the session that owns it. */
export type StoredTriple = Triple & { sessionId: string };
/** A key-value setting. */
export type SettingRecord = { key: string; value: unknown };

/** Options for opening the database; Node passes fake-indexeddb here. */
export type DatabaseOptions = Pick<DexieOptions, 'indexedDB' | 'IDBKeyRange'>;

/**
 * Anima's IndexedDB database. Only the agent worker (and the CLI) write to it. Tables that later
 * issues fill are declared already, so their arrival needs no schema change.
 */
export class AnimaDatabase extends Dexie {
  sessions!: EntityTable<SessionRecord, 'id'>;
  symbols!: Table<StoredSymbol, [string, number]>;
  triples!: Table<StoredTriple, [string, number, number, number]>;
  provenance!: EntityTable<ProvenanceRecord, 'id'>;
  settings!: EntityTable<SettingRecord, 'key'>;

  constructor(name: string, options: DatabaseOptions = {}) {
    super(name, options);
    for (const { version, stores } of SCHEMA_VERSIONS) this.version(version).stores(stores);
  }
}

/** The name of the app's database in the browser. */
export const DATABASE_NAME = 'anima';

/** The setting that names the session the app (or CLI) works in. */
export const ACTIVE_SESSION_KEY = 'activeSessionId';

/** A session's symbols, by primary-key range. */
export function symbolsOfSession(db: AnimaDatabase, sessionId: string): Collection<StoredSymbol, [string, number]> {
  return db.symbols.where('[sessionId+id]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]);
}

/** A session's triples, by primary-key range. */
export function triplesOfSession(db: AnimaDatabase, sessionId: string): Collection<StoredTriple, [string, number, number, number]> {
  return db.triples
    .where('[sessionId+subject+predicate+object]')
    .between([sessionId, Dexie.minKey, Dexie.minKey, Dexie.minKey], [sessionId, Dexie.maxKey, Dexie.maxKey, Dexie.maxKey]);
}

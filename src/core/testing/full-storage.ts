import type { DBCore, Middleware } from 'dexie';
import type { AnimaDatabase } from '#core/store/database.ts';

/** Switches a test database's storage between full and free. */
export type StorageSwitch = {
  /**
   * From now on every write fails, as on a device whose storage is full; or, given tables, only
   * the writes to them: a cycle whose last write fails has already taken its facts into memory,
   * as when the browser refuses the commit itself.
   */
  fill(tables?: readonly string[]): void;
  /** Writes work again (space was freed, or more was allowed). */
  free(): void;
};

/**
 * Makes a test database run out of storage on demand: while full, every write that adds or
 * changes records fails with the `QuotaExceededError` IndexedDB raises, which aborts its
 * transaction; deletions still work, as they free space. Call it before the database opens.
 */
export function fullableStorage(db: AnimaDatabase): StorageSwitch {
  let isFull: (table: string) => boolean = () => false;
  const middleware: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'full-storage',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        return {
          ...table,
          mutate: (request) =>
            isFull(name) && (request.type === 'add' || request.type === 'put')
              ? Promise.reject(
                  new DOMException(`the quota of this origin is spent (writing to ${name})`, 'QuotaExceededError'),
                )
              : table.mutate(request),
        };
      },
    }),
  };
  db.use(middleware);
  return {
    fill: (tables) => {
      isFull = (table) => tables === undefined || tables.includes(table);
    },
    free: () => {
      isFull = () => false;
    },
  };
}

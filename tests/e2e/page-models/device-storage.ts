import type { CDPSession, Page } from '@playwright/test';

/**
 * Where the room is taken: Anima's own database, in its settings store under keys the app never
 * reads. Chromium counts each database's writes against the quota apart, so filling another
 * database left Anima's own writes of a few kilobytes room now and then.
 */
const FILLER = { database: 'anima', store: 'settings', keyPrefix: 'e2e-storage-filler:' };

/**
 * This origin's real storage in Chromium, made small and then full. The quota comes from the
 * DevTools protocol (`Storage.overrideQuotaForOrigin`); Chromium's IndexedDB reads it when the
 * origin first uses IndexedDB in a browser context, so set it before the app opens. Then the page
 * fills it with random bytes (they do not compress) until IndexedDB refuses a write.
 */
export class DeviceStorage {
  readonly page: Page;
  readonly origin: string;
  #session: CDPSession | undefined;

  constructor(page: Page, origin: string) {
    this.page = page;
    this.origin = origin;
  }

  /** Sets the origin's quota in bytes. */
  async setQuota(bytes: number): Promise<void> {
    this.#session ??= await this.page.context().newCDPSession(this.page);
    await this.#session.send('Storage.overrideQuotaForOrigin', { origin: this.origin, quotaSize: bytes });
  }

  /** Writes random bytes in ever smaller pieces until IndexedDB refuses even a small one for the quota; returns the bytes written. */
  async fill(): Promise<number> {
    return this.page.evaluate(async ({ database: name, store, keyPrefix }) => {
      // Opened at the version the app made: no upgrade, beside the app's own connection.
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      let count = 0;
      const randomBytes = (size: number) => {
        const bytes = new Uint8Array(size);
        // getRandomValues gives at most 64 KiB at a time.
        for (let start = 0; start < size; start += 65_536)
          crypto.getRandomValues(bytes.subarray(start, start + 65_536));
        return bytes;
      };
      const write = (size: number) =>
        new Promise<'stored' | 'full'>((resolve, reject) => {
          const transaction = database.transaction(store, 'readwrite');
          transaction.objectStore(store).add({ key: `${keyPrefix}${count++}`, value: randomBytes(size) });
          transaction.oncomplete = () => resolve('stored');
          transaction.onabort = () =>
            transaction.error?.name === 'QuotaExceededError' ? resolve('full') : reject(transaction.error);
        });
      let written = 0;
      for (const size of [1_048_576, 65_536, 4_096, 512]) while ((await write(size)) === 'stored') written += size;
      database.close();
      return written;
    }, FILLER);
  }
}

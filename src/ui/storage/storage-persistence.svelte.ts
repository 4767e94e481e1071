import type { PersistenceStatus } from './storage-messages.ts';

/** The part of the browser's StorageManager that persistence needs (navigator.storage, or a fake in tests). */
export type PersistentStorage = Pick<StorageManager, 'persist' | 'persisted'>;

/**
 * Whether the browser keeps this origin's data when space runs low, and asking it to. It runs in
 * the page, never in the worker: `navigator.storage.persist()` works only on the main thread.
 */
export class StoragePersistence {
  readonly #storage: PersistentStorage | undefined;

  status = $state<PersistenceStatus>('checking');
  isAsking = $state(false);

  /** @param storage navigator.storage, when the browser has one that can persist. */
  constructor(storage: PersistentStorage | undefined) {
    this.#storage =
      typeof storage?.persist === 'function' && typeof storage.persisted === 'function' ? storage : undefined;
    if (!this.#storage) this.status = 'unsupported';
  }

  /** Reads whether storage is persistent. Never rejects. */
  async check(): Promise<void> {
    if (!this.#storage) return;
    try {
      this.status = (await this.#storage.persisted()) ? 'persistent' : 'not-persistent';
    } catch {
      this.status = 'error';
    }
  }

  /** Asks the browser to keep the data; it may say no. Never rejects. */
  async ask(): Promise<void> {
    if (!this.#storage || this.isAsking) return;
    this.isAsking = true;
    try {
      this.status = (await this.#storage.persist()) ? 'persistent' : 'refused';
    } catch {
      this.status = 'error';
    } finally {
      this.isAsking = false;
    }
  }
}

import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { StoragePersistence } from './storage-persistence.svelte.ts';
import type { StorageUsage } from './storage-messages.ts';

/** The parts of the browser's StorageManager the Storage panel uses (navigator.storage, or a fake in tests); any may be missing. */
export type BrowserStorage = Partial<Pick<StorageManager, 'estimate' | 'persist' | 'persisted'>>;

function canEstimate(storage: BrowserStorage | undefined): storage is Pick<StorageManager, 'estimate'> {
  return typeof storage?.estimate === 'function';
}

function canPersist(storage: BrowserStorage | undefined): storage is Pick<StorageManager, 'persist' | 'persisted'> {
  return typeof storage?.persist === 'function' && typeof storage.persisted === 'function';
}

/** Where the usage figures stand: not read yet, read, not offered by this browser, or failed. */
export type UsageStatus = 'checking' | 'ready' | 'unsupported' | 'error';

/**
 * This origin's storage as the page sees it: how much is used of how much may be, and whether the
 * browser keeps it when space runs low (asked in the page: `persist()` works only on the main
 * thread, never in the worker).
 */
export class StorageState {
  readonly #estimate: (() => Promise<StorageEstimate>) | undefined;
  readonly #refresh = new CoalescedFetch(() => this.#readUsage());

  usage = $state<StorageUsage | undefined>();
  usageStatus = $state<UsageStatus>('checking');
  /** Whether the browser keeps the data, and asking it to. */
  readonly persistence: StoragePersistence;

  /** @param storage navigator.storage; undefined where the browser has none. */
  constructor(storage: BrowserStorage | undefined) {
    this.#estimate = canEstimate(storage) ? () => storage.estimate() : undefined;
    if (!this.#estimate) this.usageStatus = 'unsupported';
    this.persistence = new StoragePersistence(canPersist(storage) ? storage : undefined);
  }

  /** Reads the usage figures and whether storage is persistent. Never rejects. */
  async check(): Promise<void> {
    await Promise.all([this.refreshUsage(), this.persistence.check()]);
  }

  /** Reads the usage figures again (after a cycle stored more, say); calls made while one reads share the next read. Never rejects. */
  refreshUsage(): Promise<void> {
    return this.#refresh.run();
  }

  async #readUsage(): Promise<void> {
    if (!this.#estimate) return;
    try {
      const estimate = await this.#estimate();
      this.usage = { usageBytes: estimate.usage ?? 0, quotaBytes: estimate.quota ?? 0 };
      this.usageStatus = 'ready';
    } catch {
      this.usageStatus = 'error';
    }
  }
}

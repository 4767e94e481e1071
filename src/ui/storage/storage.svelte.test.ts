import { describe, expect, it } from 'vitest';
import { type BrowserStorage, StorageState } from './storage.svelte.ts';

/** A StorageManager that answers from a script, and counts how often it was asked for an estimate. */
function fakeStorage(answers: { usage: number; quota: number; persisted: boolean; grants: boolean }) {
  const asked = { estimate: 0, persist: 0 };
  const storage: BrowserStorage = {
    estimate: async () => {
      asked.estimate += 1;
      return { usage: answers.usage, quota: answers.quota };
    },
    persisted: async () => answers.persisted,
    persist: async () => {
      asked.persist += 1;
      answers.persisted = answers.grants;
      return answers.grants;
    },
  };
  return { storage, asked, answers };
}

describe('StorageState', () => {
  it('reads the usage and whether storage is persistent, and reads the usage again when asked', async () => {
    const { storage, answers } = fakeStorage({ usage: 1000, quota: 10_000, persisted: false, grants: true });
    const state = new StorageState(storage);
    expect(state.usageStatus).toBe('checking');
    await state.check();
    expect(state).toMatchObject({ usageStatus: 'ready', usage: { usageBytes: 1000, quotaBytes: 10_000 } });
    expect(state.persistence.status).toBe('not-persistent');
    answers.usage = 4000;
    await state.refreshUsage();
    expect(state.usage).toEqual({ usageBytes: 4000, quotaBytes: 10_000 });
  });

  it('asks the browser to keep the data and says what it answered', async () => {
    const granting = new StorageState(fakeStorage({ usage: 0, quota: 1, persisted: false, grants: true }).storage);
    await granting.persistence.ask();
    expect(granting.persistence.status).toBe('persistent');
    const refusing = new StorageState(fakeStorage({ usage: 0, quota: 1, persisted: false, grants: false }).storage);
    await refusing.persistence.ask();
    expect(refusing.persistence.status).toBe('refused');
  });

  it('shares one estimate among refreshes asked for while one is in flight', async () => {
    const { storage, asked } = fakeStorage({ usage: 1, quota: 2, persisted: true, grants: true });
    const state = new StorageState(storage);
    await Promise.all([state.refreshUsage(), state.refreshUsage(), state.refreshUsage(), state.refreshUsage()]);
    // The first, and one more after it for all who asked meanwhile.
    expect(asked.estimate).toBe(2);
  });

  it('says so where the browser has no storage manager, or a failing one, without throwing', async () => {
    const without = new StorageState(undefined);
    await without.check();
    expect(without.usageStatus).toBe('unsupported');
    expect(without.persistence.status).toBe('unsupported');
    const failing = new StorageState({
      estimate: () => Promise.reject(new Error('SecurityError')),
      persisted: () => Promise.reject(new Error('SecurityError')),
      persist: async () => false,
    });
    await failing.check();
    expect(failing.usageStatus).toBe('error');
    expect(failing.persistence.status).toBe('error');
  });
});

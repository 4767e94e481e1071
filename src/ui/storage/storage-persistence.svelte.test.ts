import { describe, expect, it } from 'vitest';
import { StoragePersistence } from './storage-persistence.svelte.ts';

describe('StoragePersistence', () => {
  function fakeStorage(answers: { persisted: boolean; persist: boolean }) {
    const calls: string[] = [];
    return {
      calls,
      storage: {
        persisted: async () => {
          calls.push('persisted');
          return answers.persisted;
        },
        persist: async () => {
          calls.push('persist');
          answers.persisted = answers.persist;
          return answers.persist;
        },
      },
    };
  }

  it('says whether storage is persistent, and asks the browser to keep the data', async () => {
    const { storage, calls } = fakeStorage({ persisted: false, persist: true });
    const persistence = new StoragePersistence(storage);
    expect(persistence.status).toBe('checking');
    await persistence.check();
    expect(persistence.status).toBe('not-persistent');
    await persistence.ask();
    expect(persistence.status).toBe('persistent');
    expect(calls).toEqual(['persisted', 'persist']);
  });

  it('says when the browser refuses, and when it cannot be asked', async () => {
    const refusing = new StoragePersistence(fakeStorage({ persisted: false, persist: false }).storage);
    await refusing.ask();
    expect(refusing.status).toBe('refused');
    const without = new StoragePersistence(undefined);
    await without.check();
    expect(without.status).toBe('unsupported');
  });
});

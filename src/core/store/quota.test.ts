import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { V2_CARD } from '#core/personas/__fixtures__/character-cards.ts';
import { fullableStorage } from '#core/testing/full-storage.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { AnimaDatabase } from './database.ts';
import { isQuotaExceeded, STORAGE_FULL_MESSAGE } from './quota.ts';

const quotaExceeded = () => new DOMException('Quota exceeded.', 'QuotaExceededError');

describe('telling a full storage from other failures', () => {
  it("knows the browser's error, Dexie's own, and Dexie's abort or bulk error that carries it", () => {
    expect(isQuotaExceeded(quotaExceeded())).toBe(true);
    expect(isQuotaExceeded(new Dexie.QuotaExceededError('Quota exceeded.', quotaExceeded()))).toBe(true);
    // Chromium aborts the transaction as it commits: Dexie's AbortError has the browser's error inside.
    expect(isQuotaExceeded(new Dexie.AbortError(quotaExceeded()))).toBe(true);
    expect(
      isQuotaExceeded(
        new Dexie.BulkError('2 of 3 failed', { 1: new Dexie.ConstraintError('key exists'), 2: quotaExceeded() }),
      ),
    ).toBe(true);
  });

  it('does not take a cancel, a plain abort, a clash of keys or a bug for a full storage', () => {
    expect(isQuotaExceeded(new DOMException('The operation was aborted.', 'AbortError'))).toBe(false);
    expect(isQuotaExceeded(new Dexie.AbortError('Transaction aborted'))).toBe(false);
    expect(isQuotaExceeded(new Dexie.BulkError('1 of 1 failed', { 0: new Dexie.ConstraintError('key exists') }))).toBe(
      false,
    );
    expect(isQuotaExceeded(new TypeError('x is undefined'))).toBe(false);
    expect(isQuotaExceeded('QuotaExceededError')).toBe(false);
    expect(isQuotaExceeded(undefined)).toBe(false);
  });
});

async function fullDevice() {
  const db = new AnimaDatabase('anima', freshIndexedDb());
  const storage = fullableStorage(db);
  const { service } = testService({
    db,
    loadStarterGraph: async () => '@prefix ex: <http://example.org/> .\nex:Dog ex:is-a ex:Mammal .\n',
  });
  const { session } = await service.open({});
  storage.fill();
  return { db, storage, service, sessionId: session.id };
}

describe('imports on a device whose storage is full', () => {
  it('refuses a graph file as storage-full, changes neither the graph nor the database, and imports it once there is room', async () => {
    const { db, storage, service, sessionId } = await fullDevice();
    const before = {
      stats: await service.kgStats({ sessionId }),
      provenance: await db.provenance.count(),
      chunks: await db.tripleChunks.count(),
    };
    const file = { sessionId, operationId: 'op', fileName: 'pets.csv', data: 'Tabby,is-a,Cat\nCat,is-a,Mammal\n' };
    expect(await service.kgImport(file)).toEqual({
      ok: false,
      reason: 'storage-full',
      problems: [{ message: STORAGE_FULL_MESSAGE }],
    });
    expect(await service.kgStats({ sessionId })).toEqual(before.stats);
    expect((await service.kgSearch({ sessionId, text: 'Tabby' })).hits).toEqual([]);
    expect({
      stats: before.stats,
      provenance: await db.provenance.count(),
      chunks: await db.tripleChunks.count(),
    }).toEqual(before);

    storage.free();
    expect(await service.kgImport(file)).toMatchObject({
      ok: true,
      added: 2,
      stats: { triples: before.stats.triples + 2 },
    });
  });

  it('refuses a document as storage-full and lists nothing new', async () => {
    const { storage, service, sessionId } = await fullDevice();
    const document = { sessionId, fileName: 'mars.txt', text: 'Mars has a volcano.' };
    expect(await service.documentImport(document)).toEqual({
      ok: false,
      reason: 'storage-full',
      problems: [{ message: STORAGE_FULL_MESSAGE }],
    });
    expect((await service.documentList({ sessionId })).documents).toEqual([]);
    storage.free();
    expect(await service.documentImport(document)).toMatchObject({ ok: true, document: { name: 'mars.txt' } });
  });

  it('refuses a persona file as storage-full and leaves the catalog as it was', async () => {
    const { storage, service } = await fullDevice();
    const before = await service.personaList({});
    const card = { fileName: 'bram.json', data: JSON.stringify(V2_CARD) };
    expect(await service.personaImport(card)).toEqual({
      ok: false,
      reason: 'storage-full',
      problems: [{ message: STORAGE_FULL_MESSAGE }],
    });
    expect(await service.personaList({})).toEqual(before);
    storage.free();
    expect(await service.personaImport(card)).toMatchObject({ ok: true, item: { name: 'Bram' } });
  });
});

describe('any other change on a device whose storage is full', () => {
  it('fails with the storage-full message in words, and nothing of it is kept', async () => {
    const { storage, service, sessionId } = await fullDevice();
    await expect(service.goalAdd({ sessionId, description: 'Find mammals', criteria: 'mammal' })).rejects.toThrow(
      STORAGE_FULL_MESSAGE,
    );
    expect((await service.goalList({ sessionId })).goals).toEqual([]);
    storage.free();
    expect(await service.goalAdd({ sessionId, description: 'Find mammals', criteria: 'mammal' })).toMatchObject({
      ok: true,
    });
  });
});

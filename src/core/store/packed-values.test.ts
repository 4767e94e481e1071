import { describe, expect, it } from 'vitest';
import type { Goal } from '#core/records/goal.ts';
import type { DerivationEntry, ProvenanceDraft, ProvenanceRecord } from '#core/kg/provenance.ts';
import { freshIndexedDb } from '#core/testing/test-database.ts';
import { AnimaDatabase } from './database.ts';

const findings = Array.from({ length: 2000 }, (_, index): [number, number, number] => [index, index + 1, index + 2]);

const goal = (description: string): Goal => ({
  sessionId: 's1',
  description,
  successCriteria: 'mammal',
  priority: 5,
  status: 'active',
  cyclesWorked: 3,
  lastProgressCycle: 2,
  stallThreshold: 5,
  findings,
  toolsUsed: [],
  createdAt: 1,
});

/** The goal as IndexedDB holds it, under the middleware. */
async function rawGoal(db: AnimaDatabase, id: number): Promise<{ findings: unknown }> {
  return raw(db, 'goals', id) as Promise<{ findings: unknown }>;
}

/** A record as IndexedDB holds it, under the middleware. */
async function raw(db: AnimaDatabase, store: string, id: number): Promise<Record<string, unknown>> {
  const idb = db.backendDB();
  return new Promise((resolve, reject) => {
    const request = idb.transaction(store).objectStore(store).get(id);
    request.onsuccess = () => resolve(request.result as Record<string, unknown>);
    request.onerror = () => reject(request.error);
  });
}

describe("a goal's findings in storage", () => {
  it('are stored as one packed array, and every way of reading a goal gives them back as they were', async () => {
    const db = new AnimaDatabase('packed', freshIndexedDb());
    const written = goal('Find mammals');
    const id = (await db.goals.add(written)) as number;
    // The caller's goal is left as it was.
    expect(written.findings).toBe(findings);
    const raw = await rawGoal(db, id);
    expect(raw.findings).toBeInstanceOf(Int32Array);
    expect((raw.findings as Int32Array).length).toBe(6000);

    expect((await db.goals.get(id))!.findings).toEqual(findings);
    expect((await db.goals.bulkGet([id]))[0]!.findings).toEqual(findings);
    expect((await db.goals.where('sessionId').equals('s1').toArray())[0]!.findings).toEqual(findings);
    // Through a cursor: a filter, and each.
    expect((await db.goals.filter((stored) => stored.findings.length === 2000).toArray()).map((g) => g.id)).toEqual([
      id,
    ]);
    const seen: Goal[] = [];
    await db.goals.each((stored) => void seen.push(stored));
    expect(seen[0]!.findings).toEqual(findings);
    // A change through modify reads and writes them whole.
    await db.goals
      .where('sessionId')
      .equals('s1')
      .modify((stored) => void stored.findings.push([7, 8, 9]));
    expect((await db.goals.get(id))!.findings).toEqual([...findings, [7, 8, 9]]);
    expect(((await rawGoal(db, id)).findings as Int32Array).length).toBe(6003);
    await db.goals.update(id, { cyclesWorked: 4 });
    expect(await db.goals.get(id)).toMatchObject({ cyclesWorked: 4, findings: [...findings, [7, 8, 9]] });
    db.close();
  });

  it('reads a goal stored before they were packed', async () => {
    const db = new AnimaDatabase('unpacked', freshIndexedDb());
    await db.open();
    const idb = db.backendDB();
    await new Promise<void>((resolve, reject) => {
      const transaction = idb.transaction('goals', 'readwrite');
      transaction.objectStore('goals').add({ ...goal('Find birds'), findings: [[1, 2, 3]] });
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
    });
    expect((await db.goals.toArray())[0]!.findings).toEqual([[1, 2, 3]]);
    db.close();
  });
});

describe("an inference's derivations in storage", () => {
  it('are stored as columns and read back as written, each fact with its rule and premises', async () => {
    const db = new AnimaDatabase('derivations', freshIndexedDb());
    const derivations: DerivationEntry[] = Array.from({ length: 1000 }, (_, index) => ({
      fact: [index, 2, index % 7],
      confidence: 0.5 + (index % 5) / 10,
      rule: index % 3 === 0 ? 'is-a-transitive' : 'part-of-transitive',
      // None, one, or two premises, with their confidence then.
      premises: Array.from({ length: index % 3 }, (_, premise): [number, number, number, number] => [
        index,
        2,
        premise + 10,
        1 - premise / 4,
      ]),
    }));
    const record: ProvenanceDraft = {
      sessionId: 's1',
      kind: 'inference',
      sources: ['rule:is-a-transitive', 'rule:part-of-transitive'],
      confidence: 0.9,
      cycle: 3,
      detail: '1000 facts derived by is-a-transitive, part-of-transitive',
      createdAt: 1,
      derivations,
    };
    const id = (await db.provenance.add(record)) as number;
    expect(record.derivations).toBe(derivations);
    const stored = await raw(db, 'provenance', id);
    expect((stored.derivations as { facts: unknown }).facts).toBeInstanceOf(Int32Array);
    expect((await db.provenance.get(id))!.derivations).toEqual(derivations);
    expect((await db.provenance.where('kind').equals('inference').toArray())[0]!.derivations).toEqual(derivations);
    // A record without derivations is stored and read as it is.
    const { id: _id, derivations: _derivations, ...plainRecord } = record as ProvenanceRecord;
    const plain = (await db.provenance.add(plainRecord)) as number;
    expect((await db.provenance.get(plain))!.derivations).toBeUndefined();
    db.close();
  });
});

import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { expect, test } from 'vitest';
import { describeProblem } from '#core/result.ts';
import { readJson } from '#core/safe-json.ts';
import { fuzzCaseCount, runFuzzKind, type Random } from '#core/testing/fuzz.ts';
import { jsonCaseText, refusalText } from '#core/testing/json-fuzz.ts';
import { testService } from '#core/testing/test-database.ts';
import { readSnapshotFile, snapshotFileBytes } from './snapshot-encoding.ts';

const CASES = fuzzCaseCount();
/** Imports into the database are slower than reading: every 20th case goes through the service as well. */
const DATABASE_EVERY = 20;
const SNAPSHOT_KEYS = [
  'format',
  'version',
  'sha256',
  'session',
  'triples',
  'symbols',
  'goals',
  'cycles',
  'provenance',
  'name',
  'id',
  'label',
  'subject',
  'confidence',
];

/** The hash a snapshot file carries, over its canonical JSON without it (as snapshot-encoding.ts makes it). */
function withHash(document: Record<string, unknown>): Record<string, unknown> {
  const sorted = (item: unknown): unknown =>
    Array.isArray(item)
      ? item.map(sorted)
      : typeof item === 'object' && item !== null
        ? Object.fromEntries(
            Object.keys(item)
              .sort()
              .map((key) => [key, sorted((item as Record<string, unknown>)[key])]),
          )
        : item;
  const { sha256: _sha256, ...content } = document;
  return {
    ...document,
    sha256: createHash('sha256')
      .update(JSON.stringify(sorted(content)))
      .digest('hex'),
  };
}

/** A case: half the changed files get their hash made right again, so the checks after the hash are reached. */
function snapshotCase(random: Random, documents: readonly unknown[]): Uint8Array {
  const text = jsonCaseText(random, documents, SNAPSHOT_KEYS);
  if (random() < 0.5) {
    const json = readJson(text, { maxBytes: 2 ** 26 });
    if (json.ok && typeof json.value === 'object' && json.value !== null && !Array.isArray(json.value))
      return new TextEncoder().encode(JSON.stringify(withHash(json.value as Record<string, unknown>)));
  }
  return new TextEncoder().encode(text);
}

// About 3 s per 1,000 cases here (a third of it the imports); the timeout leaves room for 10,000 on a loaded machine.
test(
  `snapshot reading survives ${CASES} random and broken files, and a refused import writes nothing`,
  { timeout: 600_000 },
  async () => {
    const source = testService();
    const { session } = await source.service.open({});
    await source.service.kgImport({
      sessionId: session.id,
      operationId: 'facts',
      fileName: 'facts.csv',
      data: 'Dog,is-a,Mammal\nCat,is-a,Mammal\nMammal,is-a,Animal,0.9\n',
    });
    await source.service.goalAdd({
      sessionId: session.id,
      description: 'What is a mammal',
      criteria: '?x is-a Mammal',
    });
    await source.service.agentRun({ sessionId: session.id, operationId: 'run', maxCycles: 2 });
    const exported = await source.service.sessionExport({ sessionId: session.id });
    if (!exported.ok) throw new Error('the session was not exported');
    const documents = [JSON.parse(new TextDecoder().decode(exported.bytes))];
    const { service } = testService();
    await service.open({});

    const report = await runFuzzKind({
      kind: 'snapshot',
      seed: 0x5a_a95e,
      generate: (random, index) => ({ bytes: snapshotCase(random, documents), index }),
      describe: ({ bytes }) => JSON.stringify(new TextDecoder().decode(bytes)),
      read: async ({ bytes, index }) => {
        const read = await readSnapshotFile(bytes);
        if (index % DATABASE_EVERY === 0) {
          const before = await service.sessionList({});
          const imported = await service.sessionImport({ bytes, as: 'copy', name: `fuzz ${index}` });
          if (!imported.ok && !isDeepStrictEqual(await service.sessionList({}), before))
            throw new Error('a refused import changed the sessions');
          if (imported.ok !== read.ok)
            throw new Error(`the service and the reader disagree: ${JSON.stringify(imported).slice(0, 300)}`);
        }
        return read.ok ? {} : { refused: refusalText(read.error) };
      },
      checkAccepted: async ({ bytes }) => {
        const read = await readSnapshotFile(bytes);
        if (!read.ok) return 'read differently the second time';
        const exported = await snapshotFileBytes(read.value.snapshot, { gzip: false, secrets: [] });
        if (!exported.ok) return `its export is refused: ${exported.error.map(describeProblem).join('; ')}`;
        const again = await readSnapshotFile(exported.value);
        if (!again.ok) return `its export is refused: ${again.error.map(describeProblem).join('; ')}`;
        return isDeepStrictEqual(again.value.snapshot, read.value.snapshot)
          ? undefined
          : 'its export does not read back the same';
      },
    });
    expect(report.failures).toEqual([]);
    expect(report.accepted).toBeGreaterThan(CASES / 50);
    expect(report.refused).toBeGreaterThan(CASES / 2);
  },
);

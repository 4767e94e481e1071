import { expect, test } from './fixtures.ts';
import { KillRounds, SOAK_SEED, starterTriplesIn } from './kill-rounds.ts';

/** Reflection (and with it psyche evolution) every other cycle: most runs are killed near one. */
const REFLECTION_INTERVAL = 2;

test('runs, reflections and evolutions killed at random moments reopen whole at the last committed cycle and run on', async ({
  soak,
  browser,
}, testInfo) => {
  const rounds = new KillRounds(soak, SOAK_SEED, {
    reflectionInterval: REFLECTION_INTERVAL,
    starterTriples: await starterTriplesIn(browser),
    stream: 1,
  });
  try {
    // The first start (the session created, the starter graph imported), then reopenings.
    for (let round = 0; round < 3; round++) await rounds.killDuring('open');
    await soak.call.setReflectionInterval(REFLECTION_INTERVAL);
    for (let round = 0; round < 23; round++) await rounds.killDuring(rounds.random() < 0.8 ? 'run' : 'reflect');
  } finally {
    await rounds.report(testInfo);
  }
  expect(rounds.problems()).toEqual([]);
  expect(rounds.records.filter((record) => record.operation === 'run').length).toBeGreaterThan(10);
});

test('graph, document and psyche imports killed at random moments leave all of the import or none of it', async ({
  soak,
}, testInfo) => {
  const rounds = new KillRounds(soak, SOAK_SEED, { reflectionInterval: REFLECTION_INTERVAL, stream: 2 });
  try {
    expect((await soak.call.open()).canWrite).toBe(true);
    await soak.call.setReflectionInterval(REFLECTION_INTERVAL);
    const kinds = ['kg-import', 'kg-import', 'document-import', 'psyche-import'] as const;
    for (let round = 0; round < 26; round++) await rounds.killDuring(kinds[rounds.between(0, kinds.length - 1)]!);
  } finally {
    await rounds.report(testInfo);
  }
  expect(rounds.problems()).toEqual([]);
});

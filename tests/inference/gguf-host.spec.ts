import { expect, test, tinyModel } from './fixtures.ts';

/** The worker's GGUF host (workers/gguf-host.ts) on the page's private file system and a real llama.cpp. */

const PLACES = [
  { place: 'on the page', isWorker: false, withoutCreateWritable: false },
  { place: 'in a worker', isWorker: true, withoutCreateWritable: false },
  {
    place: 'in a worker without createWritable (a sync access handle writes)',
    isWorker: true,
    withoutCreateWritable: true,
  },
];

for (const { place, isWorker, withoutCreateWritable } of PLACES) {
  test(`${place}: stores a model in the private file system with progress, reads it back, loads it once, answers, and removes it`, async ({
    inference,
  }) => {
    const model = tinyModel(3);
    const size = Buffer.from(model, 'base64').length;
    const outcome = isWorker
      ? await inference.call.storeLoadRemoveInWorker(model, 'tiny/3', { withoutCreateWritable })
      : await inference.call.storeLoadRemove(model, 'tiny/3');
    expect(outcome.size).toBe(size);
    expect(outcome.isSameBytes).toBe(true);
    expect(outcome.progress.at(-1)).toEqual({ bytesWritten: size, totalBytes: size });
    expect(outcome.loadProgress).toEqual([0, 1]);
    expect(outcome.isSameEngineOnReload).toBe(true);
    expect(outcome.answer.usage?.completion_tokens).toBeGreaterThan(0);
    expect(outcome.isGoneAfterRemove).toBe(true);
    expect(outcome.afterRemove).toContain('no longer loaded');
  });
}

test('a store cancelled half way leaves no file behind', async ({ inference }) => {
  const outcome = await inference.call.storeCancelled('half-way');
  expect(outcome.outcome.name).toBe('AbortError');
  expect(outcome.isGone).toBe(true);
});

test('a file llama.cpp cannot read fails to load with its reason; a model never stored says so', async ({
  inference,
}) => {
  const outcome = await inference.call.loadBroken('broken');
  expect(outcome.message).toMatch(/^broken: llama\.cpp could not load the model: .*GGUF/);
  expect(outcome.missing).toBe('there is no stored file for the GGUF model broken-never-stored: add the model again');
});

test('loading a second model unloads the first: its engine says so, and the second answers', async ({ inference }) => {
  const outcome = await inference.call.loadTwo(tinyModel(4), tinyModel(5));
  expect(outcome.firstAfter).toContain('no longer loaded');
  expect(outcome.secondAnswer.usage?.completion_tokens).toBeGreaterThan(0);
});

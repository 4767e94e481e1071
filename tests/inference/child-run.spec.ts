import { expect, test, tinyModel } from './fixtures.ts';

/**
 * A child run on a real llama.cpp: the reviewer posture over the tiny random model. Its words mean
 * nothing, so the test holds what the contract promises whatever it says: a result that passes
 * the reviewer's schema or a truthful bottleneck, every request counted in the parent's budget,
 * and the parent's limit holding across both.
 */

test("a reviewer child runs on the CPU engine, within and counted against the parent's budget", async ({
  inference,
}) => {
  // The reviewer's prompt (about 500 of the tiny vocabulary's tokens) needs more than the default 256-token model.
  await inference.call.load(tinyModel(1, { contextLength: 4096 }), 4096);
  const child = await inference.call.reviewerChild({ requests: 3 });
  expect(child.run).toMatchObject({ posture: 'reviewer', provider: 'gguf', model: 'tiny' });
  expect(child.run.settings).toEqual({ temperature: 0, maxTokens: 384 });
  expect(child.run.usage.requests).toBeGreaterThan(0);
  expect(child.run.usage.promptTokens).toBeGreaterThan(0);
  // One budget: the parent's totals are exactly what its child used.
  expect(child.totals.requests).toBe(child.run.usage.requests);
  expect(child.totals.inputTokens).toBe(child.run.usage.promptTokens);
  expect(child.totals.outputTokens).toBe(child.run.usage.completionTokens);
  if (child.ok) {
    expect(child.isValidResult).toBe(true);
    expect(child.run.bottleneck).toBeUndefined();
  } else {
    expect(['invalid_output', 'budget_exhausted']).toContain(child.run.bottleneck?.kind);
    expect(child.run.result).toBeUndefined();
  }

  // With one request left to the run, the child never takes a second.
  const limited = await inference.call.reviewerChild({ requests: 1 });
  expect(limited.totals.requests).toBe(1);
  expect(limited.run.usage.requests).toBe(1);
  expect(limited.spent).toEqual({ limit: 'requests', used: 1, max: 1 });
  if (!limited.ok) expect(['invalid_output', 'budget_exhausted']).toContain(limited.run.bottleneck?.kind);
});

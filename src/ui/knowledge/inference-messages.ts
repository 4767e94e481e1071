import type { AgentApi } from '#core/api.ts';

/** What kgInfer returns. */
export type InferenceResult = Extract<Awaited<ReturnType<AgentApi['kgInfer']>>, { ok: true }>;

/** What the Inference panel says about a run: one sentence, and notes when the run stopped early. */
export type InferenceReport = { summary: string; notes: string[] };

/**
 * Writes the words for an inference run: how many facts are new, how many were raised in
 * confidence, in how many rounds, and why the rules stopped when they did not run out of things
 * to derive.
 */
export function describeInference(
  result: Pick<InferenceResult, 'derived' | 'raised' | 'iterations' | 'hasConverged' | 'isTruncated'>,
): InferenceReport {
  const summary = `Derived ${countOf(result.derived, 'new fact')}, ${result.raised.toLocaleString()} raised in confidence, in ${countOf(result.iterations, 'round')}.`;
  const notes: string[] = [];
  if (result.isTruncated)
    notes.push('The rules stopped at the limit on derived facts; run inference again to derive more.');
  else if (!result.hasConverged)
    notes.push(
      `The rules were still finding facts after ${countOf(result.iterations, 'round')}; run inference again to go further.`,
    );
  return { summary, notes };
}

function countOf(count: number, noun: string): string {
  return `${count.toLocaleString()} ${noun}${count === 1 ? '' : 's'}`;
}

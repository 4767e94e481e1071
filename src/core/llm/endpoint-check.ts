import { z } from 'zod';
import type { LlmProvider } from './provider.ts';
import { type CallOutcome, structuredCall } from './structured-call.ts';

/** A question any model can answer, with a schema small enough for the smallest one. */
export const CHECK_SCHEMA = z.object({ city: z.string().min(1) });

/** One structured call through the contract: a user's way to test that a model and endpoint work. */
export function checkProvider(
  provider: LlmProvider,
  signal?: AbortSignal,
): Promise<CallOutcome<z.infer<typeof CHECK_SCHEMA>>> {
  return structuredCall(provider, CHECK_SCHEMA, {
    name: 'capital',
    system: 'Answer with JSON only.',
    prompt: 'What is the capital city of France? Answer as {"city": "..."}.',
    maxTokens: 64,
    ...(signal ? { signal } : {}),
  });
}

import { z } from 'zod';

/** A truthful stop (DESIGN section 10): what kept the call from an answer, never a made-up one. */
export const bottleneckSchema = z.object({
  kind: z.enum([
    'contradiction',
    'missing_input',
    'invalid_output',
    'policy_block',
    'dependency_unavailable',
    'budget_exhausted',
  ]),
  detail: z.string(),
});
export type Bottleneck = z.infer<typeof bottleneckSchema>;

/** What a tool's model calls used, and the bottleneck they ended in, if any: kept on the cycle record. */
export const modelUseSchema = z.object({
  provider: z.string(),
  model: z.string(),
  requests: z.number().int().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  /** Each request's tokens, in order (a tool call, a retry, the answer); absent in records written before they were kept. */
  steps: z
    .array(z.object({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative() }))
    .optional(),
  bottleneck: bottleneckSchema.optional(),
});
export type ModelUse = z.infer<typeof modelUseSchema>;

import { z } from 'zod';
import type { TokenUsage } from './provider.ts';

/** The most a run may use (DESIGN section 10); absent fields are unlimited. */
export const usageLimitsSchema = z.object({
  requests: z.number().int().positive().optional(),
  toolCalls: z.number().int().positive().optional(),
  inputTokens: z.number().int().positive().optional(),
  outputTokens: z.number().int().positive().optional(),
  wallSeconds: z.number().positive().optional(),
});
export type UsageLimits = z.infer<typeof usageLimitsSchema>;

export type UsageTotals = { requests: number; toolCalls: number; inputTokens: number; outputTokens: number };

/** A limit a run reached: which, what was used, and the limit (a code and numbers; the UI and CLI word it). */
export const spentLimitSchema = z.object({
  limit: z.enum(['requests', 'toolCalls', 'inputTokens', 'outputTokens', 'wallSeconds']),
  used: z.number(),
  max: z.number(),
});
export type SpentLimit = z.infer<typeof spentLimitSchema>;

const LIMIT_UNITS = {
  requests: ['request', 'requests'],
  toolCalls: ['tool call', 'tool calls'],
  inputTokens: ['input token', 'input tokens'],
  outputTokens: ['output token', 'output tokens'],
  wallSeconds: ['second of wall time', 'seconds of wall time'],
} as const;

/** A spent limit in words, for a model's bottleneck and the CLI: "1 request, the limit is 1". */
export function describeSpentLimit({ limit, used, max }: SpentLimit): string {
  const [one, many] = LIMIT_UNITS[limit];
  return `${used} ${used === 1 ? one : many}, the limit is ${max}`;
}

/**
 * What a run has used against its limits. A child run (a tool delegating to a model) is given the
 * same budget, so it draws from the same totals.
 */
export class UsageBudget {
  readonly totals: UsageTotals = { requests: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0 };
  readonly #startedAt: number;

  constructor(
    readonly limits: UsageLimits = {},
    readonly now: () => number = () => Date.now(),
  ) {
    this.#startedAt = now();
  }

  /** Counts one model request and its tokens. */
  chargeRequest(usage: TokenUsage): void {
    this.totals.requests++;
    this.totals.inputTokens += usage.promptTokens;
    this.totals.outputTokens += usage.completionTokens;
  }

  chargeToolCall(): void {
    this.totals.toolCalls++;
  }

  /** How long the run may still take, in milliseconds (0 once spent); undefined without a wall-time limit. */
  wallMsLeft(): number | undefined {
    const { wallSeconds } = this.limits;
    return wallSeconds === undefined ? undefined : Math.max(0, wallSeconds * 1000 - (this.now() - this.#startedAt));
  }

  /** Which limit is spent (what was used, and the limit), or undefined while there is room for another request. */
  spent(): SpentLimit | undefined {
    const { limits, totals } = this;
    for (const limit of ['requests', 'toolCalls', 'inputTokens', 'outputTokens'] as const) {
      const max = limits[limit];
      if (max !== undefined && totals[limit] >= max) return { limit, used: totals[limit], max };
    }
    const seconds = (this.now() - this.#startedAt) / 1000;
    if (limits.wallSeconds !== undefined && seconds >= limits.wallSeconds)
      return { limit: 'wallSeconds', used: Math.round(seconds * 10) / 10, max: limits.wallSeconds };
    return undefined;
  }
}

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

  /** Which limit is spent, in words, or undefined while there is room for another request. */
  spentBecause(): string | undefined {
    const { limits, totals } = this;
    if (limits.requests !== undefined && totals.requests >= limits.requests) return `${totals.requests} requests, the limit is ${limits.requests}`;
    if (limits.toolCalls !== undefined && totals.toolCalls >= limits.toolCalls) return `${totals.toolCalls} tool calls, the limit is ${limits.toolCalls}`;
    if (limits.inputTokens !== undefined && totals.inputTokens >= limits.inputTokens) return `${totals.inputTokens} input tokens, the limit is ${limits.inputTokens}`;
    if (limits.outputTokens !== undefined && totals.outputTokens >= limits.outputTokens) return `${totals.outputTokens} output tokens, the limit is ${limits.outputTokens}`;
    const seconds = (this.now() - this.#startedAt) / 1000;
    if (limits.wallSeconds !== undefined && seconds >= limits.wallSeconds) return `${seconds.toFixed(1)} s of wall time, the limit is ${limits.wallSeconds} s`;
    return undefined;
  }
}

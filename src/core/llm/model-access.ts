import type { LlmProvider } from './provider.ts';
import type { UsageBudget } from './usage-budget.ts';
import type { ModelSettings } from '#core/records/model-settings.ts';

/** The model a run bound, as the tools reach it. */
export type ModelAccess = {
  provider: LlmProvider;
  /** The run's limits: every call draws from them. */
  budget: UsageBudget;
  /** The same first message on every call (who the agent is, its tools), so a prefix cache (llama.cpp's) can reuse it; WebLLM's reuses only a continued conversation. */
  system: string;
  /** Facts a model adds stay at or below this confidence. */
  confidenceCap: number;
  /** The session's model settings: every call samples with them, under what the call itself sets. */
  settings?: ModelSettings;
  signal?: AbortSignal;
};

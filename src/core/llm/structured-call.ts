import { z } from 'zod';
import {
  cancelled,
  type ChatImage,
  type ChatMessage,
  type LlmProvider,
  ProviderError,
  type TokenUsage,
} from './provider.ts';
import { fitToContext } from './context-fit.ts';
import { mergeModelSettings } from './model-settings.ts';
import type { ModelSettings } from '#core/records/model-settings.ts';
import { decodingSchemaOf } from './decoding-schema.ts';
import { describeSpentLimit, type SpentLimit, type UsageBudget } from './usage-budget.ts';
import type { Bottleneck } from '#core/records/model-use.ts';

/** What one attempt sent and got back, for the log: the text, its tokens, and why it was refused. */
export type Attempt = { text: string; usage: TokenUsage; problems?: string[] };

export type CallOutcome<T> = ({ ok: true; value: T } | { ok: false; bottleneck: Bottleneck }) & {
  attempts: Attempt[];
  usage: TokenUsage;
};

export type CallOptions = {
  /** The schema's name, as the provider is told it (letters, digits, _ and -). */
  name: string;
  system?: string;
  /** What was asked and answered before, between the system prompt and this prompt (a conversation this call continues). */
  history?: readonly ChatMessage[];
  prompt: string;
  /** Images shown with the prompt: only to a provider that sees images (see LlmProvider.seesImages). */
  images?: readonly ChatImage[];
  /** Re-asks after invalid output, with the problems fed back (default 2). */
  retries?: number;
  signal?: AbortSignal;
  budget?: UsageBudget;
  /** This call's own longest answer, below the session's setting. */
  maxTokens?: number;
  /** The session's model settings. */
  settings?: ModelSettings;
  /** What this call sets over the session's settings (a posture's). */
  override?: ModelSettings;
};

const DEFAULT_RETRIES = 2;

/** The longest delay a timer takes (2^31 - 1 ms); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How much of an invalid answer is sent back with its problems. */
const MAX_ECHOED_CHARS = 400;

/**
 * Asks the provider for a value of the schema: the schema goes to the provider as JSON Schema
 * (constrained decoding where it can; without the limits that make a decoder's grammar costly,
 * see `decodingSchemaOf`), and what comes back is parsed and validated with zod.
 * Invalid output is sent back with its problems, up to `retries` times; then the outcome is an
 * `invalid_output` bottleneck. A provider that cannot answer is `dependency_unavailable`, a spent
 * budget `budget_exhausted`. Where the provider counts tokens, the prompt is fitted to the model's
 * context window first (see `fitToContext`: the oldest steps of a long conversation are left
 * out); a question that cannot fit is `budget_exhausted` too. A cancelled call throws the
 * signal's reason (an AbortError).
 */
export async function structuredCall<T>(
  provider: LlmProvider,
  schema: z.ZodType<T>,
  options: CallOptions,
): Promise<CallOutcome<T>> {
  const retries = options.retries ?? DEFAULT_RETRIES;
  const jsonSchema = decodingSchemaOf(schema);
  const system: ChatMessage[] = options.system ? [{ role: 'system', content: options.system }] : [];
  const messages: ChatMessage[] = [
    ...(options.history ?? []),
    { role: 'user', content: options.prompt, ...(options.images?.length ? { images: options.images } : {}) },
  ];
  const attempts: Attempt[] = [];
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  const settings = mergeModelSettings(
    options.override,
    options.settings,
    options.maxTokens ? { maxTokens: options.maxTokens } : undefined,
  );
  const stop = (bottleneck: Bottleneck): CallOutcome<T> => ({ ok: false, bottleneck, attempts, usage });
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (options.signal?.aborted) throw cancelled(options.signal);
    const spent = options.budget?.spent();
    if (spent) return stop(budgetExhausted(spent));
    // A request may take only the wall time the run has left: an endpoint that never answers cannot hold the run past its limit.
    // (Timers take at most 2^31 - 1 ms, about 24 days: a longer limit cannot end during one request.)
    const wallMsLeft = options.budget?.wallMsLeft();
    const wall = wallMsLeft === undefined || wallMsLeft > MAX_TIMER_MS ? undefined : AbortSignal.timeout(wallMsLeft);
    const signal = wall && options.signal ? AbortSignal.any([options.signal, wall]) : (wall ?? options.signal);
    let sent = [...system, ...messages];
    if (provider.context) {
      const fitted = await fitToContext(provider.context, sent, settings.maxTokens);
      if (!fitted.ok)
        return stop(
          contextExhausted(
            provider,
            `the question needs ${fitted.needed} tokens with room for the answer, and the model's context window holds ${fitted.window}`,
          ),
        );
      sent = fitted.messages;
    }
    let completion;
    try {
      completion = await provider.complete({
        messages: sent,
        jsonSchema: { name: options.name, schema: jsonSchema },
        signal,
        settings,
      });
    } catch (error) {
      if (options.signal?.aborted) throw cancelled(options.signal);
      if (wall?.aborted) {
        const wallSeconds = options.budget!.limits.wallSeconds!;
        return stop(
          budgetExhausted(options.budget!.spent() ?? { limit: 'wallSeconds', used: wallSeconds, max: wallSeconds }),
        );
      }
      if (error instanceof ProviderError && error.kind === 'context-overflow')
        return stop(
          contextExhausted(provider, `the prompt is longer than the model's context window (${error.message})`),
        );
      if (error instanceof ProviderError)
        return stop({
          kind: 'dependency_unavailable',
          detail: `${provider.name} (${provider.model}): ${error.message}`,
        });
      throw error;
    }
    usage.promptTokens += completion.usage.promptTokens;
    usage.completionTokens += completion.usage.completionTokens;
    options.budget?.chargeRequest(completion.usage);
    const problems = problemsOf(schema, completion.text);
    attempts.push({
      text: completion.text,
      usage: completion.usage,
      ...(problems.ok ? {} : { problems: problems.error }),
    });
    if (problems.ok) return { ok: true, value: problems.value, attempts, usage };
    // Shortened: the problems say what is wrong, and a long invalid answer would crowd a small model's context.
    messages.push({
      role: 'assistant',
      content:
        completion.text.length > MAX_ECHOED_CHARS ? `${completion.text.slice(0, MAX_ECHOED_CHARS)}…` : completion.text,
    });
    messages.push({
      role: 'user',
      content: `That answer is not valid:\n${problems.error.map((problem) => `- ${problem}`).join('\n')}\nAnswer again with only JSON that matches the schema.`,
    });
  }
  const last = attempts.at(-1)?.problems ?? [];
  return stop({
    kind: 'invalid_output',
    detail: `${attempts.length} answers, none valid; the last: ${last.join('; ')}`,
  });
}

/**
 * A question longer than the model's context window, as the bottleneck that ends the call: a
 * budget spent (of context), not a model gone, so the run keeps its model for other questions.
 */
function contextExhausted(provider: LlmProvider, why: string): Bottleneck {
  return { kind: 'budget_exhausted', detail: `${provider.name} (${provider.model}): ${why}` };
}

/** A spent budget, as the bottleneck that ends a call. */
export function budgetExhausted(spent: SpentLimit): Bottleneck {
  return { kind: 'budget_exhausted', detail: `the run's budget is spent: ${describeSpentLimit(spent)}` };
}

/** The value in a model's text, or what is wrong with it, each problem naming its place. */
function problemsOf<T>(schema: z.ZodType<T>, text: string): { ok: true; value: T } | { ok: false; error: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: [`not JSON: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    error: parsed.error.issues.map(
      (issue) => `${issue.path.length > 0 ? `at ${issue.path.join('.')}: ` : ''}${issue.message}`,
    ),
  };
}

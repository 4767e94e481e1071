import { z } from 'zod';
import type { ChatMessage } from '#core/llm/provider.ts';
import { type Attempt, budgetExhausted, structuredCall } from '#core/llm/structured-call.ts';
import { mergeModelSettings, overrideWithinSession } from '#core/llm/model-settings.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import { type Bottleneck, bottleneckSchema } from '#core/records/model-use.ts';
import type { ChildRun } from '#core/records/child-run.ts';
import {
  callConsultedTool,
  MAX_MODEL_TOOL_CALLS,
  resultText,
  toolCallSchema,
  toolGuide,
} from '#core/tools/model-steps.ts';
import type { ToolState } from '#core/tools/tool.ts';
import type { ChildTask, Posture } from './postures.ts';

/** A child's typed result, or the bottleneck it stopped at; either way the record the cycle log keeps of it. */
export type ChildOutcome<T> = ({ ok: true; value: T } | { ok: false; bottleneck: Bottleneck }) & { run: ChildRun };

const MAX_PURPOSE_CHARS = 300;
const MAX_SUMMARY_CHARS = 1000;

/**
 * Runs a sub-task as a child of the parent's run, in a posture: its own context (the posture's
 * system prompt, not the parent's conversation), output schema, tool grants and model settings,
 * over the parent's model. Every request and tool call draws from the parent's budget, so one
 * limit holds across both: a child that reaches it stops with a budget_exhausted bottleneck, and
 * the parent finds the same limit spent at its next request or cycle. Invalid output is sent back
 * and asked again (the posture's retries), then it is an invalid_output bottleneck. Granted tools
 * are offered only where the parent gives the state they read (`state`); each passes the shadow.
 */
export async function runChild<T>(
  parent: ModelAccess,
  posture: Posture<T>,
  task: ChildTask,
  state?: ToolState,
): Promise<ChildOutcome<T>> {
  const { budget, provider } = parent;
  const startedAt = budget.now();
  const toolCallsBefore = budget.totals.toolCalls;
  const attempts: Attempt[] = [];
  const tools = state ? posture.tools : [];
  const override = overrideWithinSession(posture.settings, parent.settings);
  const settings = mergeModelSettings(override, parent.settings);
  const finish = (outcome: { ok: true; value: T } | { ok: false; bottleneck: Bottleneck }): ChildOutcome<T> => {
    const summary = outcome.ok
      ? posture.summarize(outcome.value)
      : `stopped: ${outcome.bottleneck.kind.replace(/_/g, ' ')} (${outcome.bottleneck.detail})`;
    const run: ChildRun = {
      posture: posture.name,
      purpose: cut(task.purpose, MAX_PURPOSE_CHARS),
      provider: provider.name,
      model: provider.model,
      settings,
      usage: {
        requests: attempts.length,
        promptTokens: attempts.reduce((sum, attempt) => sum + attempt.usage.promptTokens, 0),
        completionTokens: attempts.reduce((sum, attempt) => sum + attempt.usage.completionTokens, 0),
        toolCalls: budget.totals.toolCalls - toolCallsBefore,
        wallMs: Math.max(0, budget.now() - startedAt),
      },
      summary: cut(summary, MAX_SUMMARY_CHARS),
      ...(outcome.ok ? { result: outcome.value } : { bottleneck: outcome.bottleneck }),
    };
    return { ...outcome, run };
  };

  const refused = posture.refuses?.(task);
  if (refused) return finish({ ok: false, bottleneck: { kind: 'missing_input', detail: refused } });
  const checked = posture.check
    ? posture.schema.superRefine((value, context) => {
        for (const problem of posture.check!(value, task)) context.addIssue({ code: 'custom', message: problem });
      })
    : posture.schema;
  const answers = [
    z.object({ kind: z.literal('result'), result: checked }),
    z.object({ kind: z.literal('bottleneck'), bottleneck: bottleneckSchema }),
  ] as const;
  const envelope =
    tools.length > 0
      ? z.discriminatedUnion('kind', [...answers, toolCallSchema(tools)])
      : z.discriminatedUnion('kind', answers);
  let conversation: ChatMessage[] = [];
  let prompt = [
    ...(tools.length > 0 ? [toolGuide(tools)] : []),
    task.prompt,
    ...(task.traces && task.traces.length > 0
      ? [`Failure traces:\n${task.traces.map((trace, index) => `${index + 1}. ${trace}`).join('\n')}`]
      : []),
    'Answer with {"kind": "result", "result": ...}, or {"kind": "bottleneck", ...} when what you are given does not let you.',
  ].join('\n\n');
  for (let calls = 0; ; calls++) {
    const outcome = await structuredCall(provider, envelope, {
      name: posture.name.replace('-', '_'),
      system: posture.system,
      history: conversation,
      prompt,
      retries: posture.retries,
      budget,
      override,
      ...(parent.settings ? { settings: parent.settings } : {}),
      ...(parent.signal ? { signal: parent.signal } : {}),
    });
    attempts.push(...outcome.attempts);
    if (!outcome.ok) return finish({ ok: false, bottleneck: outcome.bottleneck });
    const answer = outcome.value;
    if (answer.kind === 'result') return finish({ ok: true, value: answer.result as T });
    if (answer.kind === 'bottleneck') return finish({ ok: false, bottleneck: answer.bottleneck });
    if (calls >= MAX_MODEL_TOOL_CALLS)
      return finish({
        ok: false,
        bottleneck: { kind: 'missing_input', detail: `no result after ${MAX_MODEL_TOOL_CALLS} tool calls` },
      });
    const spent = budget.spent();
    if (spent) return finish({ ok: false, bottleneck: budgetExhausted(spent) });
    const tool = tools.find((candidate) => candidate.name === answer.tool)!;
    const result = await callConsultedTool({ ...state!, model: parent }, tool, answer.input);
    conversation = [
      ...conversation,
      { role: 'user', content: prompt },
      { role: 'assistant', content: outcome.attempts.at(-1)!.text },
    ];
    prompt = resultText(answer, result);
  }
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

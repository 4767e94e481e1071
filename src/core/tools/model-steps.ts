import { z } from 'zod';
import { decisiveVeto, describeAction, judgeAction } from '#core/psyche/shadow.ts';
import type { ChatImage, ChatMessage } from '#core/llm/provider.ts';
import { RASTER_IMAGE_TYPES } from '#core/records/artifact.ts';
import { type Attempt, budgetExhausted, structuredCall } from '#core/llm/structured-call.ts';
import { bottleneckSchema } from '#core/records/model-use.ts';
import { type Rejection, rejectionOf } from '#core/records/rejection.ts';
import { kgQuery } from './kg-query.ts';
import { memoryRecall } from './memory-recall.ts';
import { type FactsAnswer, factsAnswerSchema, modelUseOf } from './model-facts.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import {
  type AgentTool,
  defineTool,
  type HeldAction,
  type ServerCallRecord,
  shadowViewOf,
  type ToolOutcome,
  type ToolState,
} from './tool.ts';
import { NOT_READ_ONLY, WAITS_BY_DEFAULT } from './server-tool.ts';

/**
 * The tools a model may call while it reasons (DESIGN section 10: one envelope per step, tool
 * call | final | bottleneck). Only tools that read: a model's call changes nothing, and whatever
 * it learns reaches the graph only through its final answer's facts (at the capped confidence).
 */
export const CONSULTED_TOOLS: readonly AgentTool[] = [defineTool(kgQuery), defineTool(memoryRecall)];

/** A model answers after at most this many tool calls; then it is a bottleneck. */
export const MAX_MODEL_TOOL_CALLS = 4;

/** What the model reads of one result, at most: every step repeats the ones before, and a small model's context is 4,096 tokens. */
const MAX_RESULT_CHARS = 300;

/**
 * What a consulted tool's call gives back (DESIGN section 10): the value the model reads, what
 * the app keeps of it, and, when refused, why and whether asking again could help.
 */
export type ToolResult = {
  ok: boolean;
  value: string;
  /** The images among the tool's artifacts, shown to a model that sees images with the value (none to others). */
  images: ChatImage[];
  metadata: { tool: string; input: unknown; facts: number };
  rejection?: Rejection;
  retryable: boolean;
  /** The tool server calls it made, for provenance. */
  serverCalls?: ServerCallRecord[];
  /** The call waits for the user's approval: it did not run. */
  held?: HeldAction;
};

/**
 * The envelope of one step: a tool call whose input the named tool takes (a call it would refuse
 * is invalid output, sent back with its problems and asked again, within the call's retries), a
 * final answer, or a bottleneck.
 */
function envelopeSchema(tools: readonly AgentTool[]) {
  return z.discriminatedUnion('kind', [toolCallSchema(tools), ...factsAnswerSchema.options]);
}

/** A step's call of one of these tools, with an input the named tool takes (problems name the input's place). */
export function toolCallSchema(tools: readonly AgentTool[]) {
  const names = tools.map((tool) => tool.name) as [string, ...string[]];
  return z
    .object({ kind: z.literal('tool_call'), tool: z.enum(names), input: z.record(z.string(), z.unknown()) })
    .superRefine((call, context) => {
      const tool = tools.find((candidate) => candidate.name === call.tool);
      for (const problem of tool?.inputProblems(call.input) ?? [])
        context.addIssue({
          code: 'custom',
          path: ['input', ...(problem.path ? problem.path.split('.') : [])],
          message: `${call.tool} does not take this input: ${problem.message}`,
        });
    });
}

/** The envelope of every step of a question. */
export const STEP_ENVELOPE = envelopeSchema(CONSULTED_TOOLS);

/** The consulted tools and how to call them, for the prompt. */
export function toolGuide(tools: readonly AgentTool[]): string {
  const inputs: Record<string, string> = {
    kg_query: '{"pattern": "?x is-a mammal"} (triple patterns joined by " . ", variables start with ?)',
    memory_recall: '{"text": "what to recall", "symbols": [], "k": 3}',
  };
  return [
    'Before answering you may call one of these tools per step, with {"kind": "tool_call", "tool": NAME, "input": INPUT}:',
    ...tools.map(
      (tool) =>
        `- ${tool.name}: ${tool.description}; input ${inputs[tool.name] ?? tool.inputGuide ?? 'as its schema says'}`,
    ),
    `At most ${MAX_MODEL_TOOL_CALLS} calls; then give the final answer or a bottleneck.`,
  ].join('\n');
}

/** What a tool's result reads like to the model. */
export function resultText(call: { tool: string; input: unknown }, result: ToolResult): string {
  const refused = result.rejection
    ? ` (refused: ${result.rejection.class.replace(/_/g, ' ')}${result.retryable ? '' : ', do not call it again'})`
    : '';
  const value = result.value.length > MAX_RESULT_CHARS ? `${result.value.slice(0, MAX_RESULT_CHARS)}…` : result.value;
  const images =
    result.images.length === 0
      ? ''
      : ` (${result.images.length} image${result.images.length === 1 ? '' : 's'} attached)`;
  return `You called ${describeAction(call)}${refused}: ${value}${images}`;
}

/**
 * Asks the bound model, letting it call the consulted tools first: each step is one structured
 * call that continues the conversation of the step before (its tool call, then the result), so
 * an engine keeps its cache: WebLLM its KV cache, which it reuses only for a continued
 * conversation, and prefix caches (llama.cpp) the unchanged start. A call the shadow vetoes is
 * refused as a policy block, not retried, and the same call again ends in a policy_block
 * bottleneck. Every request and tool call draws from the run's budget.
 */
export async function askWithTools(
  state: ToolState & { model: ModelAccess },
  task: { name: string; prompt: string },
): Promise<FactsAnswer & { calls: ToolResult[] }> {
  const { model } = state;
  const attempts: Attempt[] = [];
  const calls: ToolResult[] = [];
  let conversation: ChatMessage[] = [];
  // The guide first: with the system prompt it is the part every cycle's first step repeats.
  // The tools of the servers the user granted join the consulted ones.
  const offered = [...CONSULTED_TOOLS, ...(state.serverTools ?? [])];
  const stepEnvelope = offered.length === CONSULTED_TOOLS.length ? STEP_ENVELOPE : envelopeSchema(offered);
  let prompt = [toolGuide(offered), task.prompt].join('\n\n');
  let images: ChatImage[] = [];
  const blocked = new Set<string>();
  const stop = (bottleneck: z.infer<typeof bottleneckSchema>) => ({
    ok: false as const,
    bottleneck,
    use: { ...modelUseOf(model.provider, attempts), bottleneck },
    calls,
  });
  for (;;) {
    const outcome = await structuredCall(model.provider, stepEnvelope, {
      name: task.name,
      system: model.system,
      history: conversation,
      prompt,
      images,
      budget: model.budget,
      maxTokens: 1024,
      ...(model.settings ? { settings: model.settings } : {}),
      ...(model.signal ? { signal: model.signal } : {}),
    });
    attempts.push(...outcome.attempts);
    if (!outcome.ok) return stop(outcome.bottleneck);
    // The next step continues from the prompt and the valid answer, word for word; a retry's turns
    // are left out (they would crowd a small model's context), which costs WebLLM one cache reset.
    conversation = [
      ...conversation,
      { role: 'user', content: prompt, ...(images.length > 0 ? { images } : {}) },
      { role: 'assistant', content: outcome.attempts.at(-1)!.text },
    ];
    const envelope = outcome.value;
    if (envelope.kind === 'bottleneck') return stop(envelope.bottleneck);
    if (envelope.kind === 'final')
      return {
        ok: true,
        answer: envelope.answer,
        triples: envelope.triples,
        use: modelUseOf(model.provider, attempts),
        calls,
      };
    const action = describeAction({ tool: envelope.tool, input: envelope.input });
    if (blocked.has(action))
      return stop({ kind: 'policy_block', detail: `the model asked again for ${action}, which the shadow blocks` });
    if (calls.length >= MAX_MODEL_TOOL_CALLS)
      return stop({ kind: 'missing_input', detail: `no answer after ${MAX_MODEL_TOOL_CALLS} tool calls` });
    const spent = model.budget.spent();
    if (spent) return stop(budgetExhausted(spent));
    const tool = offered.find((candidate) => candidate.name === envelope.tool)!;
    const result = await callConsultedTool(state, tool, envelope.input);
    if (result.rejection?.class === 'policy_block') blocked.add(action);
    calls.push(result);
    prompt = resultText(envelope, result);
    images = result.images;
  }
}

/**
 * Runs one consulted tool's call, after the shadow's judgement; its budget is the run's. A hard
 * veto refuses it; for a tool server's tool, a veto that asks, or a tool not marked read-only,
 * holds it for the user: the call does not run, and the cycle stores it as an approval its goal
 * waits for. A grant of a read-only server tool answers a veto that only asks.
 */
export async function callConsultedTool(
  state: ToolState & { model: ModelAccess },
  tool: AgentTool,
  input: unknown,
): Promise<ToolResult> {
  const { name } = tool;
  const metadata = { tool: name, input, facts: 0 };
  const veto = state.psyche ? decisiveVeto(judgeAction(state.psyche, shadowViewOf(tool, input))) : undefined;
  // The built-in consulted tools only read: any veto refuses them, as it always has.
  if (veto && (!veto.pattern.requireApproval || !tool.isForModelOnly))
    return {
      ok: false,
      value: `the agent's shadow blocks this (${veto.pattern.name}: ${veto.because})`,
      images: [],
      metadata,
      rejection: rejectionOf(
        'policy_block',
        'an action the shadow allows',
        `${veto.pattern.name} vetoes ${describeAction({ tool: name, input })}: ${veto.because}`,
      ),
      retryable: false,
    };
  const hold: HeldAction | undefined =
    tool.isForModelOnly && tool.waitsForApprovalBecause !== undefined
      ? {
          tool: name,
          input,
          pattern: NOT_READ_ONLY,
          because: tool.waitsForApprovalBecause,
          explanation: WAITS_BY_DEFAULT,
        }
      : veto && !tool.isPreApproved(input, state)
        ? {
            tool: name,
            input,
            pattern: veto.pattern.name,
            because: veto.because,
            explanation: veto.pattern.explanation,
          }
        : undefined;
  if (hold)
    return {
      ok: false,
      value: `held for the user's approval (${hold.because}); it has not run, and the goal waits for the answer`,
      metadata,
      rejection: rejectionOf(
        'policy_block',
        "the user's approval",
        `${describeAction({ tool: name, input })} waits: ${hold.because}`,
      ),
      images: [],
      retryable: false,
      held: hold,
    };
  state.model.budget.chargeToolCall();
  const outcome = await tool.run(input, state);
  return {
    ok: outcome.ok,
    value: outcome.value ?? outcome.summary,
    images: state.model.provider.seesImages ? imagesOf(outcome) : [],
    metadata: { ...metadata, facts: outcome.facts.length },
    ...(outcome.rejection ? { rejection: outcome.rejection } : {}),
    ...(outcome.serverCalls ? { serverCalls: outcome.serverCalls } : {}),
    retryable: outcome.rejection?.retryable ?? true,
  };
}

/** The raster images among an outcome's artifacts, as a model is shown them (an SVG is a document, never shown). */
function imagesOf(outcome: ToolOutcome): ChatImage[] {
  return (outcome.artifacts ?? [])
    .filter((artifact) => artifact.kind === 'image' && RASTER_IMAGE_TYPES.includes(artifact.mediaType))
    .map(({ mediaType, bytes }) => ({ mediaType, bytes }));
}

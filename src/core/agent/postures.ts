import { z } from 'zod';
import type { ModelSettings } from '#core/records/model-settings.ts';
import { breachPathSchema, type PostureName } from '#core/records/child-run.ts';
import type { AgentTool } from '#core/tools/tool.ts';
import { CONSULTED_TOOLS } from '#core/tools/model-steps.ts';

/** What a parent hands a child: a line for the log, the prompt, and (for a repair) the failure traces it must work from. */
export type ChildTask = { purpose: string; prompt: string; traces?: readonly string[] };

/**
 * A posture (seed 004): a child run's own system prompt, output schema, tool grants and model
 * settings. Each schema is strict, so a field the posture has no business giving (a rank from an
 * expander, a replacement from a reviewer) is invalid output, sent back and asked again.
 */
export type Posture<T> = {
  name: PostureName;
  system: string;
  schema: z.ZodType<T>;
  /** What the task must hold for the result to count, beyond the schema (a repair names one of its traces). */
  check?: (value: T, task: ChildTask) => string[];
  /** Why a task cannot be given to this posture at all (a repair without traces), before any model is asked. */
  refuses?: (task: ChildTask) => string | undefined;
  /** The tools the child may call before it answers: read-only, each through the shadow and the shared budget. */
  tools: readonly AgentTool[];
  /** Set over the session's settings for this child's every call. */
  settings: ModelSettings;
  retries: number;
  /** The result in words, for the cycle log. */
  summarize(value: T): string;
};

const text = (max: number) => z.string().trim().min(1).max(max);
const granted = (...names: string[]) => CONSULTED_TOOLS.filter((tool) => names.includes(tool.name));

export const expanderResultSchema = z
  .object({
    options: z
      .array(z.object({ option: text(300), why: text(300) }).strict())
      .min(2)
      .max(8)
      .refine(
        (options) => new Set(options.map((entry) => entry.option.toLowerCase())).size === options.length,
        'each option is given once',
      ),
  })
  .strict();

/** Opens options for a sub-task, each with why it might serve, and does not rank them. */
export const EXPANDER: Posture<z.infer<typeof expanderResultSchema>> = {
  name: 'expander',
  system: [
    'You are an expander: you open options for a task, and you do not rank, score or choose among them.',
    'Give between 2 and 8 distinct options, each with a short reason it might serve. Order carries no meaning.',
    'Answer only with JSON that matches the schema you are given.',
  ].join('\n'),
  schema: expanderResultSchema,
  tools: [],
  settings: { temperature: 0.9, topP: 0.95, maxTokens: 512 },
  retries: 2,
  summarize: (value) => `${value.options.length} options: ${value.options.map((entry) => entry.option).join('; ')}`,
};

export const reviewerResultSchema = z
  .object({ verdict: z.enum(['accept', 'reject']), problems: z.array(text(300)).max(8) })
  .strict()
  .refine((value) => value.verdict === 'accept' || value.problems.length > 0, {
    message: 'a rejection names at least one problem',
    path: ['problems'],
  });

/** Evaluates what it is shown against what it is given, and invents nothing: a verdict and the problems found. */
export const REVIEWER: Posture<z.infer<typeof reviewerResultSchema>> = {
  name: 'reviewer',
  system: [
    'You are a reviewer: you evaluate what you are shown against the evidence you are given, and you invent nothing.',
    'Accept it when the evidence supports it; reject it and name each problem when it does not. Never propose a replacement.',
    'Answer only with JSON that matches the schema you are given.',
  ].join('\n'),
  schema: reviewerResultSchema,
  tools: granted('kg_query'),
  settings: { temperature: 0, maxTokens: 384 },
  retries: 2,
  summarize: (value) => (value.verdict === 'accept' ? 'accepted' : `rejected: ${value.problems.join('; ')}`),
};

export const repairResultSchema = z
  .object({
    trace: z.number().int().min(1),
    cause: text(400),
    fix: text(600),
    /** The corrected input, where the fix is to call the tool otherwise: checked by the tool before it is used. */
    input: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** Fixes from measured failure traces: names the trace it answers, its cause, and the fix. */
export const REPAIR: Posture<z.infer<typeof repairResultSchema>> = {
  name: 'repair',
  system: [
    'You are a repair: you fix a failure from the measured traces you are given, numbered from 1, and from nothing else.',
    'Name the trace your fix answers, its cause as the trace shows it, and the fix; where the fix is to call the tool with another input, give that input too.',
    'Answer only with JSON that matches the schema you are given.',
  ].join('\n'),
  schema: repairResultSchema,
  refuses: (task) =>
    (task.traces ?? []).length === 0 ? 'a repair needs at least one measured failure trace' : undefined,
  check: (value, task) =>
    value.trace > (task.traces ?? []).length
      ? [`trace ${value.trace} is not one of the ${(task.traces ?? []).length} traces given`]
      : [],
  tools: granted('memory_recall'),
  settings: { temperature: 0.2, maxTokens: 512 },
  retries: 2,
  summarize: (value) => `trace ${value.trace}: ${value.cause}; fix: ${value.fix}`,
};

export const redTeamResultSchema = z.object({ breachPaths: z.array(breachPathSchema).max(5) }).strict();
export type RedTeamResult = z.infer<typeof redTeamResultSchema>;

/** Looks for the ways an action could do harm its user did not intend: breach paths, each with a severity, or none. */
export const RED_TEAM: Posture<RedTeamResult> = {
  name: 'red-team',
  system: [
    'You are a red team: before an action runs, you look for the ways it could breach what its user intends (leak data, harm, reach further than asked).',
    'List each breach path you find with its severity (low, medium, high), at most 5; an empty list when you find none. Do not judge the action otherwise.',
    'Answer only with JSON that matches the schema you are given.',
  ].join('\n'),
  schema: redTeamResultSchema,
  tools: granted('kg_query'),
  settings: { temperature: 0.7, topP: 0.9, maxTokens: 512 },
  retries: 2,
  summarize: (value) =>
    value.breachPaths.length === 0
      ? 'no breach path found'
      : value.breachPaths.map((breach) => `${breach.severity}: ${breach.path}`).join('; '),
};

export const POSTURES = { expander: EXPANDER, reviewer: REVIEWER, repair: REPAIR, 'red-team': RED_TEAM } as const;

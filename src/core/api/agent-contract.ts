import { z } from 'zod';
import { cycleRecordSchema } from '#core/records/cycle.ts';
import { goalStatusSchema, symbolChoiceSchema } from '#core/records/goal.ts';
import { memoryKindSchema } from '#core/records/memory-entry.ts';
import { planSchema } from '#core/records/plan.ts';
import { reflectionSchema } from '#core/records/reflection.ts';
import { agentSettingsSchema } from '#core/records/agent-settings.ts';
import { inferenceSettingsSchema } from '#core/llm/inference-settings.ts';
import { modelUnavailableSchema } from '#core/llm/provider.ts';
import { answerViewSchema } from '#core/questions/answer-schema.ts';
import { spentLimitSchema } from '#core/llm/usage-budget.ts';
import { problemSchema } from '#core/result.ts';
import { MAX_GOAL_TEXT_CHARS, goalTextSchema, sessionIdSchema } from '#core/names.ts';
import { operationIdSchema } from './operation.ts';
import { factSchema, symbolRefSchema } from './kg-contract.ts';
import { provenanceKindSchema } from '#core/kg/provenance.ts';

/** What a run used of its limits, and the model it bound (none: the symbolic engine alone, and why, when one was chosen). */
export const runUsageSchema = z.object({
  provider: z.string(),
  model: z.string().optional(),
  /** Why the run went on without the chosen model (it could not be loaded, or stopped answering). */
  fellBack: modelUnavailableSchema.optional(),
  /** Why the model was loaded again before the run (the GPU had lost it since it was last used). */
  reloaded: z.string().optional(),
  requests: z.number().int(),
  toolCalls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
});
export type RunUsage = z.infer<typeof runUsageSchema>;

/** A goal as the UI and CLI show it: its findings as facts with labels. */
export const goalViewSchema = z.object({
  id: z.number().int(),
  description: z.string(),
  successCriteria: z.string(),
  priority: z.number().int(),
  status: goalStatusSchema,
  statusReason: z.string().optional(),
  parentId: z.number().int().optional(),
  cyclesWorked: z.number().int(),
  findings: z.array(factSchema),
  findingsTotal: z.number().int(),
  /** A goal that asks a question: the graph's answer (every entity, yes or no with its proof, the number, or none and why). */
  answer: answerViewSchema.optional(),
  /** The symbols the user chose for ambiguous words of its question. */
  chosenSymbols: z
    .array(z.object({ words: z.string(), symbol: z.number().int(), label: z.string(), iri: z.string().optional() }))
    .optional(),
});
export type GoalView = z.infer<typeof goalViewSchema>;

/** A goal's finding with where it came from (its provenance's kind), when that is known. */
export const findingSchema = factSchema.extend({ source: provenanceKindSchema.optional() });
export type Finding = z.infer<typeof findingSchema>;

/** How a goal's findings can be ordered: as found, by name (subject), kind (relation and object), confidence or source. */
export const FINDINGS_SORTS = ['found', 'name', 'kind', 'confidence', 'source'] as const;
export type FindingsSort = (typeof FINDINGS_SORTS)[number];
export { cycleRecordSchema };
export type { CycleRecord } from '#core/records/cycle.ts';

/** The agent: goals, runs and their cycles, memory, background jobs, plans, reflection and settings. */
export const agentRunContract = {
  /** Gives the agent a goal; criteria are keywords or a pattern with a minimum count (`?x is-a mammal, at least 5`). */
  goalAdd: {
    args: z.object({
      sessionId: sessionIdSchema,
      description: goalTextSchema,
      criteria: goalTextSchema.default(''),
      priority: z.number().int().min(0).max(255).default(128),
      /** For a goal that asks a question: the symbols chosen for its ambiguous words (checked, then kept with the goal). */
      chosenSymbols: z.array(symbolChoiceSchema).max(1_000).default([]),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), goal: goalViewSchema }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  goalList: {
    args: z.object({ sessionId: sessionIdSchema, findingsLimit: z.number().int().min(0).max(100_000).default(200) }),
    result: z.object({ goals: z.array(goalViewSchema) }),
  },
  /**
   * A page of one goal's findings, filtered (every word of `filter` in a finding's names or its
   * source, case aside) and sorted; `matching` counts those the filter keeps, `total` all of them.
   */
  goalFindings: {
    args: z.object({
      sessionId: sessionIdSchema,
      goalId: z.number().int(),
      sort: z.enum(FINDINGS_SORTS).default('found'),
      filter: z.string().max(200).default(''),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(100_000).default(200),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        findings: z.array(findingSchema),
        matching: z.number().int(),
        total: z.number().int(),
      }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** Changes a goal's priority, or suspends, resumes (active) or cancels (failed) it. */
  goalUpdate: {
    args: z.object({
      sessionId: sessionIdSchema,
      goalId: z.number().int(),
      priority: z.number().int().min(0).max(255).optional(),
      status: z.enum(['active', 'suspended', 'failed']).optional(),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), goal: goalViewSchema }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** Runs cycles: up to maxCycles, or until no goal is active; each cycle is reported as it commits. */
  agentRun: {
    args: z.object({
      sessionId: sessionIdSchema,
      operationId: operationIdSchema,
      maxCycles: z.number().int().min(1).max(100_000).default(1),
      /** The model to bind for this run only (the CLI's --provider); absent: the device's inference settings. */
      inference: inferenceSettingsSchema.optional(),
      /** The SPARQL endpoints of the session this run may ask, without asking the user (the CLI's --endpoint), each with a key for this run; absent: all of them, as their settings say. */
      endpoints: z
        .array(z.object({ name: z.string().min(1).max(200), key: z.string().max(4000).optional() }))
        .max(20)
        .optional(),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        cyclesRun: z.number().int(),
        lastCycle: z.number().int(),
        /** 'storage-full': a cycle could not be stored, and was not kept; `lastCycle` is the last one stored. */
        stoppedBecause: z.enum(['max-cycles', 'no-active-goal', 'cancelled', 'budget', 'storage-full']),
        /** Which limit was spent, when the budget stopped the run. */
        budgetSpent: spentLimitSchema.optional(),
        usage: runUsageSchema,
      }),
      z.object({ ok: z.literal(false), reason: z.literal('read-only'), problems: z.array(problemSchema) }),
    ]),
    progress: cycleRecordSchema,
  },
  /** The latest cycles of the log, newest first. */
  cycleList: {
    args: z.object({ sessionId: sessionIdSchema, limit: z.number().int().min(1).max(1000).default(50) }),
    result: z.object({ cycles: z.array(cycleRecordSchema) }),
  },
  /** Consolidates working memory into episodes now (it also happens by itself above 0.8 pressure). */
  memoryConsolidate: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), episodesAdded: z.number().int(), entriesLeft: z.number().int() }),
      z.object({ ok: z.literal(false), reason: z.literal('read-only'), problems: z.array(problemSchema) }),
    ]),
  },
  /** Working memory (newest first) and the episodes (newest first), for the Memory screen. */
  memoryList: {
    args: z.object({ sessionId: sessionIdSchema, episodeLimit: z.number().int().min(1).max(1000).default(100) }),
    result: z.object({
      capacity: z.number().int(),
      pressure: z.number(),
      entries: z.array(
        z.object({
          id: z.number().int(),
          kind: memoryKindSchema,
          content: z.string(),
          symbols: z.array(symbolRefSchema),
          relevance: z.number(),
          sourceCycle: z.number().int(),
          goalId: z.number().int().optional(),
          tool: z.string().optional(),
        }),
      ),
      episodes: z.array(
        z.object({
          id: z.number().int(),
          goalId: z.number().int().optional(),
          summary: z.string(),
          learnings: z.array(symbolRefSchema),
          tools: z.array(z.string()),
          cycle: z.number().int(),
        }),
      ),
      episodeTotal: z.number().int(),
    }),
  },
  /** Recalls episodes by text and/or symbols, best first. */
  memoryRecall: {
    args: z.object({
      sessionId: sessionIdSchema,
      text: z.string().max(1000).optional(),
      symbolIds: z.array(z.number().int()).max(100).optional(),
      k: z.number().int().min(1).max(50).default(5),
    }),
    result: z.object({
      episodes: z.array(
        z.object({
          id: z.number().int(),
          goalId: z.number().int().optional(),
          summary: z.string(),
          learnings: z.array(symbolRefSchema),
          tools: z.array(z.string()),
          score: z.number(),
          cycle: z.number().int(),
        }),
      ),
    }),
  },
  /** The plan the agent would make for a goal (not stored): what it needs, the strategy of the attempt, the steps with their inputs and why. */
  planPreview: {
    args: z.object({
      sessionId: sessionIdSchema,
      description: z.string().trim().min(1).max(MAX_GOAL_TEXT_CHARS),
      criteria: goalTextSchema.default(''),
      attempt: z.number().int().min(0).max(100).default(0),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        plan: planSchema.pick({ attempt: true, needs: true, strategy: true, steps: true }),
      }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** A session's plans, oldest first (a goal's active plan is its last): each with its steps, their status and results. */
  planList: {
    args: z.object({ sessionId: sessionIdSchema, goalId: z.number().int().optional() }),
    result: z.object({ plans: z.array(planSchema.extend({ id: z.number().int() })) }),
  },
  /** Reflects now, on the cycles since the last reflection: adjustments applied and logged, then the psyche evolves. */
  reflect: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), reflection: reflectionSchema.extend({ id: z.number().int() }) }),
      z.object({ ok: z.literal(false), reason: z.literal('read-only'), problems: z.array(problemSchema) }),
    ]),
  },
  /** The session's reflections, newest first. */
  reflectionList: {
    args: z.object({ sessionId: sessionIdSchema, limit: z.number().int().min(1).max(1000).default(50) }),
    result: z.object({ reflections: z.array(reflectionSchema.extend({ id: z.number().int() })) }),
  },
  /** How the session's agent plans and reflects. */
  agentSettingsGet: { args: z.object({ sessionId: sessionIdSchema }), result: agentSettingsSchema },
  /** Changes them (each field checked). */
  agentSettingsSet: {
    args: z.object({ sessionId: sessionIdSchema, settings: z.unknown() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), settings: agentSettingsSchema }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
} as const;

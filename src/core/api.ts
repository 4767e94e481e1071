import { z } from 'zod';
import { KG_IMPORT_FORMATS } from '#core/kg/import/statement.ts';
import { cycleRecordSchema } from '#core/records/cycle.ts';
import { goalStatusSchema } from '#core/records/goal.ts';
import { memoryKindSchema } from '#core/records/memory-entry.ts';
import { symbolSchema } from '#core/kg/symbol.ts';
import { provenanceRecordSchema } from '#core/kg/provenance.ts';
import { psycheSchema } from '#core/records/psyche.ts';
import { approvalStatusSchema } from '#core/records/approval.ts';
import { questionStatusSchema } from '#core/records/question.ts';
import { scratchNoteSchema } from '#core/records/scratch-note.ts';
import { planSchema } from '#core/records/plan.ts';
import { reflectionSchema } from '#core/records/reflection.ts';
import { agentSettingsSchema } from '#core/records/agent-settings.ts';
import { inferenceSettingsSchema, inferenceViewSchema } from '#core/llm/inference-settings.ts';
import { modelSettingsSchema } from '#core/llm/model-settings.ts';
import { bottleneckSchema } from '#core/records/model-use.ts';
import { modelUnavailableSchema } from '#core/llm/provider.ts';
import { gpuReportSchema } from '#core/llm/webllm-models.ts';
export { WEBLLM_VERSION } from '#core/llm/webllm-models.ts';
import { answerViewSchema } from '#core/questions/answer-schema.ts';
import type { Reading } from '#core/questions/reading-schema.ts';
// The UI reads numbers and text files by the same rules as the core.
export { parseDecimal } from './decimal-text.ts';
export { diffPsyche, type PsycheDiff } from './psyche/psyche-diff.ts';
export { factsAsCsv, factsAsNTriples } from './kg/export-ntriples.ts';
export { decodeUtf8Text } from './text-bytes.ts';
export { readJson } from './safe-json.ts';
export { MAX_NAME_CHARS } from './names.ts';
export { countText, numberText } from './count-text.ts';
export { iriOf } from '#core/kg/symbol.ts';
export { looksLikeQuestion } from '#core/questions/question-form.ts';
export type { AnswerView } from '#core/questions/answer-schema.ts';
export type { Reading } from '#core/questions/reading-schema.ts';
export { DEFAULT_ENDPOINT } from '#core/sparql/endpoint.ts';
export type { SparqlEndpointView } from '#core/sparql/endpoint.ts';
import { spentLimitSchema } from '#core/llm/usage-budget.ts';
import { ggufModelRecordSchema } from '#core/records/gguf-model.ts';
import { personaContract } from '#core/personas/persona-contract.ts';
import { sessionContract } from '#core/sessions/session-contract.ts';
export type { SessionImportPreview, SessionView } from '#core/sessions/session-contract.ts';
export { SNAPSHOT_VERSION } from '#core/sessions/snapshot-format.ts';
import { endpointContract } from '#core/sparql/endpoint-contract.ts';
import { sessionWatchContract } from './session-watch-contract.ts';
export type { SessionEvent } from './session-watch-contract.ts';
export type {
  ArcView,
  AssembledPersonaView,
  GuardrailView,
  PartView,
  PersonaDefinitionView,
  PersonaImportPreview,
  PersonaManifest,
  PersonaSummary,
  SkillView,
  TraitView,
} from '#core/personas/persona-contract.ts';
export { PART_TYPE_TITLES, PART_TYPES, TRAIT_TYPES } from '#core/records/persona-catalog.ts';
export type { PartType, TraitType } from '#core/records/persona-catalog.ts';
import { modelUseSchema } from '#core/records/model-use.ts';

/**
 * The contract of the AgentService: every method's arguments, result and (for long operations)
 * progress, as zod schemas. The worker validates arguments and results against it; the client
 * validates results and progress. Only plain data crosses.
 */

import { problemSchema } from './result.ts';
import { goalTextSchema, MAX_GOAL_TEXT_CHARS, sessionIdSchema } from './names.ts';
import { isQuotaExceeded, STORAGE_FULL_MESSAGE } from '#core/store/quota.ts';
import { errorSentence, isDefect } from './error-sentence.ts';
export { problemSchema };


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

/** A WebLLM model as the Models screen lists it: its needs, whether it is downloaded (fully or in part), recommended, or cannot run here (and why). */
export const modelViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  vramMB: z.number(),
  contextTokens: z.number().int(),
  needsShaderF16: z.boolean(),
  /** Fully downloaded: it loads offline. */
  cached: z.boolean(),
  /** Not fully downloaded, but some of its files are stored (a download stopped): a new download goes on from them, a repair deletes them. */
  partial: z.boolean(),
  recommended: z.boolean(),
  notRunnableBecause: z.string().optional(),
  /** A model the user added (not of WebLLM's prebuilt list): where its weights and library are fetched from. */
  custom: z.object({ modelUrl: z.string(), modelLibUrl: z.string() }).optional(),
});
export type ModelView = z.infer<typeof modelViewSchema>;

/** The outcome of a one-call check of the bound model: its answer, or the bottleneck; attempts and tokens. */
export const inferenceCheckSchema = z.object({
  provider: z.string(),
  model: z.string(),
  answer: z.string().optional(),
  bottleneck: bottleneckSchema.optional(),
  attempts: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
});
const operationIdSchema = z.string().min(1).max(100);

/** A GGUF model as the Models screen lists it: its record and about how much memory it takes loaded. */
export const ggufModelViewSchema = ggufModelRecordSchema.extend({ memoryBytes: z.number() });
export type GgufModelView = z.infer<typeof ggufModelViewSchema>;

/** A symbol as lists show it. */
export const symbolRefSchema = symbolSchema.pick({ id: true, label: true, kind: true, iri: true });
export type SymbolRef = z.infer<typeof symbolRefSchema>;

export const graphStatsSchema = z.object({
  symbols: z.number().int(),
  entities: z.number().int(),
  relations: z.number().int(),
  literals: z.number().int(),
  triples: z.number().int(),
});
export type GraphStats = z.infer<typeof graphStatsSchema>;

/** A triple with its symbols resolved, as the UI shows it. */
export const factSchema = z.object({
  subject: symbolRefSchema,
  predicate: symbolRefSchema,
  object: symbolRefSchema,
  confidence: z.number(),
  provenanceId: z.number().int().optional(),
});
export type Fact = z.infer<typeof factSchema>;

/** A fact a rule derived, with the rule and the facts it was derived from. */
export const derivedFactSchema = z.object({
  fact: factSchema,
  rule: z.string(),
  premises: z.array(factSchema),
  /** True for a fact the graph did not hold; false for one it held with a lower confidence. */
  isNew: z.boolean(),
});
export type DerivedFact = z.infer<typeof derivedFactSchema>;

export const importProgressSchema = z.object({
  phase: z.enum(['reading', 'writing']),
  bytesRead: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
  statements: z.number().int().nonnegative(),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

/**
 * What an imported file shares with the graph: its relations that join known ones (by IRI,
 * `rdf:type` joins is-a, or by name, `http://other.example/is-a` joins is-a), and its things named
 * as things the graph has (linked as the same thing, owl:sameAs, only when the import asked).
 */
export const importSharedSchema = z.object({
  relations: z.object({ count: z.number().int(), examples: z.array(z.object({ relation: z.string(), joins: z.string() })) }),
  sameNames: z.object({ count: z.number().int(), linked: z.number().int(), examples: z.array(z.object({ symbol: z.string(), existing: z.string() })) }),
});
export type ImportShared = z.infer<typeof importSharedSchema>;

export const importOutcomeSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    statements: z.number().int(),
    added: z.number().int(),
    updated: z.number().int(),
    symbolsAdded: z.number().int(),
    stats: graphStatsSchema,
    /** What the file shares with the graph (see importSharedSchema); absent for CSV and the starter graph's first load. */
    shared: importSharedSchema.optional(),
  }),
  z.object({
    ok: z.literal(false),
    reason: z.enum(['invalid', 'cancelled', 'unknown-format', 'read-only', 'storage-full']),
    problems: z.array(problemSchema),
  }),
]);
export type ImportOutcome = z.infer<typeof importOutcomeSchema>;

export const kgImportFormatSchema = z.enum(KG_IMPORT_FORMATS);

/** While a session opens: its stored graph loading (in chunks), or, on first start, the starter graph importing. */
export const openProgressSchema = z.union([
  z.object({ phase: z.literal('loading-graph'), chunksRead: z.number().int().nonnegative(), totalChunks: z.number().int().nonnegative() }),
  importProgressSchema,
]);
export type OpenProgress = z.infer<typeof openProgressSchema>;

/** A reading as the API carries it: its plain words checked, the rest typed (see questionRead). */
const readingShape = z.custom<Reading>((value) => typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string');

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
});
export type GoalView = z.infer<typeof goalViewSchema>;
export { cycleRecordSchema };
export type { CycleRecord } from '#core/records/cycle.ts';

/** A stored psyche version, whole. */
export const psycheVersionViewSchema = z.object({ version: z.number().int().nonnegative(), psyche: psycheSchema, cycle: z.number().int(), reason: z.string(), createdAt: z.number() });
export type PsycheVersionView = z.infer<typeof psycheVersionViewSchema>;
export { psycheSchema };
export type { Psyche } from '#core/records/psyche.ts';

/** A version in the psyche's history: what the chart and the list show. */
export const psycheHistoryEntrySchema = z.object({
  /** 0 for the default psyche of a session that never stored one. */
  version: z.number().int().nonnegative(),
  cycle: z.number().int(),
  reason: z.string(),
  createdAt: z.number(),
  archetypes: psycheSchema.shape.archetypes,
  individuationLevel: z.number(),
  shadowEncounters: z.number().int(),
  dominantArchetype: z.string(),
});
export type PsycheHistoryEntry = z.infer<typeof psycheHistoryEntrySchema>;

/** What reading a psyche.toml found: the psyche it would give, or the problems; warnings either way. */
const psycheCheckSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), psyche: psycheSchema, warnings: z.array(problemSchema) }),
  z.object({ ok: z.literal(false), problems: z.array(problemSchema), warnings: z.array(problemSchema) }),
]);

const psycheChangeSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), current: psycheVersionViewSchema, warnings: z.array(problemSchema) }),
  z.object({ ok: z.literal(false), reason: z.enum(['invalid', 'read-only', 'not-found']), problems: z.array(problemSchema), warnings: z.array(problemSchema) }),
]);

/** An action waiting for (or decided by) the user, as the Approvals screen shows it. */
export const approvalViewSchema = z.object({
  id: z.number().int(),
  goalId: z.number().int(),
  goalDescription: z.string(),
  cycle: z.number().int(),
  tool: z.string(),
  /** The action as the shadow read it: `tool=... input=...`. */
  action: z.string(),
  /** The action's input, for editing before approval. */
  input: z.unknown(),
  /** The user approved an edited input (`action` and `input` are the edit). */
  isEdited: z.boolean(),
  pattern: z.string(),
  because: z.string(),
  explanation: z.string(),
  status: approvalStatusSchema,
  reason: z.string().optional(),
  createdAt: z.number(),
  decidedAt: z.number().optional(),
  doneInCycle: z.number().int().optional(),
});
export type ApprovalView = z.infer<typeof approvalViewSchema>;

/** A question of the agent, as the Approvals screen shows it. */
export const questionViewSchema = z.object({
  id: z.number().int(),
  goalId: z.number().int(),
  goalDescription: z.string(),
  cycle: z.number().int(),
  question: z.string(),
  status: questionStatusSchema,
  answer: z.string().optional(),
  factsAdded: z.number().int().optional(),
  reason: z.string().optional(),
  createdAt: z.number(),
  answeredAt: z.number().optional(),
});
export type QuestionView = z.infer<typeof questionViewSchema>;

export { MAX_DOCUMENT_BYTES } from '#core/kg/document.ts';
/** A goal keeps at most this many findings: a count that reaches it is a cap ("at least"). */
export { MAX_FINDINGS } from '#core/agent/cycle.ts';
import { webAccessSchema } from '#core/tools/web-access.ts';
export { webAccessSchema };
export type { WebAccess } from '#core/tools/web-access.ts';

/** A document as the Knowledge screen lists it. */
export const documentViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Its size in characters. */
  size: z.number().int(),
  createdAt: z.number(),
  /** The first few hundred characters, as plain text. */
  preview: z.string(),
  ingestedAt: z.number().optional(),
  factsExtracted: z.number().int().optional(),
});
export type DocumentView = z.infer<typeof documentViewSchema>;

/** A note of the agent's scratch area as the Goals screen shows it (text, for reading and download). */
export const scratchNoteViewSchema = scratchNoteSchema.omit({ sessionId: true }).extend({ id: z.number().int() });
export type ScratchNoteView = z.infer<typeof scratchNoteViewSchema>;

/** The grammars synthesis can use: the built-in ones and the psyche's custom grammar. */
export const grammarChoiceSchema = z.string().min(1).max(200);

const sessionSummarySchema = z.object({ id: sessionIdSchema, name: z.string() });

/** Every method of the AgentService. */
export const agentContract = {
  /** Opens the database and the active session; on first start, creates it and loads the starter graph. */
  open: {
    args: z.object({}),
    result: z.object({
      session: sessionSummarySchema,
      stats: graphStatsSchema,
      hasLoadedStarterGraph: z.boolean(),
      /** False while another tab holds the session (this one shows it read-only). */
      canWrite: z.boolean(),
    }),
    progress: openProgressSchema,
  },
  kgStats: { args: z.object({ sessionId: sessionIdSchema }), result: graphStatsSchema },
  /** The prefixes queries read prefixed names with: the well-known ones and those the session's Turtle files declared (which win). */
  kgPrefixes: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.object({ prefixes: z.array(z.object({ prefix: z.string(), namespace: z.string(), isDeclared: z.boolean() })) }),
  },
  /** Entities and relations whose label or rdfs:label contains the text. */
  kgSearch: {
    args: z.object({ sessionId: sessionIdSchema, text: z.string().max(500), limit: z.number().int().min(1).max(1000).default(50) }),
    result: z.object({
      hits: z.array(z.object({ symbol: symbolRefSchema, matchedText: z.string(), isLabelLiteral: z.boolean() })),
      total: z.number().int(),
    }),
  },
  /** A symbol with its outgoing and incoming triples. */
  kgSymbol: {
    args: z.object({ sessionId: sessionIdSchema, symbolId: z.number().int().nonnegative(), limit: z.number().int().min(1).max(5000).default(200) }),
    result: z.discriminatedUnion('isFound', [
      z.object({
        isFound: z.literal(true),
        symbol: symbolRefSchema,
        outgoing: z.array(factSchema),
        incoming: z.array(factSchema),
        outgoingTotal: z.number().int(),
        incomingTotal: z.number().int(),
      }),
      z.object({ isFound: z.literal(false) }),
    ]),
  },
  /** Imports N-Triples, Turtle or CSV; all or nothing; cancellable with `cancel(operationId)`. */
  kgImport: {
    args: z.object({
      sessionId: sessionIdSchema,
      operationId: operationIdSchema,
      fileName: z.string().min(1).max(500),
      format: kgImportFormatSchema.optional(),
      data: z.union([z.string(), z.instanceof(Blob)]),
      /** Link each new thing named as an existing one to it (owl:sameAs); off unless asked. */
      linkSameLabels: z.boolean().optional(),
      /** The reader's language (a BCP 47 tag, e.g. fr-FR): names in it are preferred. */
      language: z.string().max(35).optional(),
    }),
    result: importOutcomeSchema,
    progress: importProgressSchema,
  },
  kgExport: {
    args: z.object({ sessionId: sessionIdSchema, format: z.literal('n-triples') }),
    result: z.object({ fileName: z.string(), mediaType: z.string(), text: z.string(), tripleCount: z.number().int() }),
  },
  /** Pattern query: `?x is-a mammal . ?x lives-in ?where`. */
  kgQuery: {
    args: z.object({ sessionId: sessionIdSchema, query: z.string().max(5000), limit: z.number().int().min(1).max(10000).default(100) }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        variables: z.array(z.string()),
        rows: z.array(z.record(z.string(), symbolRefSchema)),
        isTruncated: z.boolean(),
        unknownTerms: z.array(z.string()),
      }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** Runs the built-in rules over the graph and stores what they derive, each fact with its own provenance. */
  kgInfer: {
    args: z.object({
      sessionId: sessionIdSchema,
      minConfidence: z.number().min(0).max(1).default(0.1),
      maxIterations: z.number().int().min(1).max(100).default(10),
      maxDerived: z.number().int().min(1).max(5_000_000).default(200_000),
      /** How many of the derived facts to return (all are stored). */
      limit: z.number().int().min(0).max(5000).default(200),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        derived: z.number().int(),
        raised: z.number().int(),
        iterations: z.number().int(),
        hasConverged: z.boolean(),
        isTruncated: z.boolean(),
        stats: graphStatsSchema,
        facts: z.array(derivedFactSchema),
      }),
      z.object({ ok: z.literal(false), reason: z.literal('read-only'), problems: z.array(problemSchema) }),
    ]),
  },
  /** The shortest chain of triples (either direction) between two symbols. */
  kgPath: {
    args: z.object({
      sessionId: sessionIdSchema,
      from: z.number().int().nonnegative(),
      to: z.number().int().nonnegative(),
      maxLength: z.number().int().min(1).max(20).default(8),
    }),
    result: z.discriminatedUnion('isFound', [
      z.object({ isFound: z.literal(true), steps: z.array(z.object({ fact: factSchema, isForward: z.boolean() })) }),
      z.object({ isFound: z.literal(false) }),
    ]),
  },
  /** The symbols most similar to a symbol (by the meaning of its neighbourhood), or to a text (by label words). */
  kgSimilar: {
    args: z
      .object({
        sessionId: sessionIdSchema,
        symbolId: z.number().int().nonnegative().optional(),
        text: z.string().min(1).max(500).optional(),
        k: z.number().int().min(1).max(100).default(10),
      })
      .refine((args) => (args.symbolId === undefined) !== (args.text === undefined), { message: 'give either symbolId or text' }),
    result: z.object({ hits: z.array(z.object({ symbol: symbolRefSchema, similarity: z.number().min(0).max(1) })) }),
  },
  /** Why a fact is in the graph: the provenance record a triple points to. */
  kgProvenance: {
    args: z.object({ sessionId: sessionIdSchema, provenanceId: z.number().int().nonnegative() }),
    result: z.discriminatedUnion('isFound', [
      z.object({ isFound: z.literal(true), record: provenanceRecordSchema.extend({ id: z.number().int() }) }),
      z.object({ isFound: z.literal(false) }),
    ]),
  },
  /** Gives the agent a goal; criteria are keywords or a pattern with a minimum count (`?x is-a mammal, at least 5`). */
  goalAdd: {
    args: z.object({
      sessionId: sessionIdSchema,
      description: goalTextSchema,
      criteria: goalTextSchema.default(''),
      priority: z.number().int().min(0).max(255).default(128),
    }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), goal: goalViewSchema }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  goalList: {
    args: z.object({ sessionId: sessionIdSchema, findingsLimit: z.number().int().min(0).max(100_000).default(200) }),
    result: z.object({ goals: z.array(goalViewSchema) }),
  },
  /** Changes a goal's priority, or suspends, resumes (active) or cancels (failed) it. */
  goalUpdate: {
    args: z.object({ sessionId: sessionIdSchema, goalId: z.number().int(), priority: z.number().int().min(0).max(255).optional(), status: z.enum(['active', 'suspended', 'failed']).optional() }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), goal: goalViewSchema }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
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
      endpoints: z.array(z.object({ name: z.string().min(1).max(200), key: z.string().max(4000).optional() })).max(20).optional(),
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
        z.object({ id: z.number().int(), kind: memoryKindSchema, content: z.string(), symbols: z.array(symbolRefSchema), relevance: z.number(), sourceCycle: z.number().int(), goalId: z.number().int().optional(), tool: z.string().optional() }),
      ),
      episodes: z.array(z.object({ id: z.number().int(), goalId: z.number().int().optional(), summary: z.string(), learnings: z.array(symbolRefSchema), tools: z.array(z.string()), cycle: z.number().int() })),
      episodeTotal: z.number().int(),
    }),
  },
  /** Recalls episodes by text and/or symbols, best first. */
  memoryRecall: {
    args: z.object({ sessionId: sessionIdSchema, text: z.string().max(1000).optional(), symbolIds: z.array(z.number().int()).max(100).optional(), k: z.number().int().min(1).max(50).default(5) }),
    result: z.object({
      episodes: z.array(
        z.object({ id: z.number().int(), goalId: z.number().int().optional(), summary: z.string(), learnings: z.array(symbolRefSchema), tools: z.array(z.string()), score: z.number(), cycle: z.number().int() }),
      ),
    }),
  },
  /** The session's current psyche (the default one until something changed it). */
  psycheGet: { args: z.object({ sessionId: sessionIdSchema }), result: psycheVersionViewSchema },
  /** Every stored version, oldest first, for the history chart and list. */
  psycheHistory: { args: z.object({ sessionId: sessionIdSchema }), result: z.object({ versions: z.array(psycheHistoryEntrySchema) }) },
  /** Validates a psyche.toml without changing anything (sections it lacks come from the current psyche). */
  psycheCheck: { args: z.object({ sessionId: sessionIdSchema, toml: z.string().max(1_000_000) }), result: psycheCheckSchema },
  /** Imports a psyche.toml as a new version; all or nothing. */
  psycheImport: { args: z.object({ sessionId: sessionIdSchema, toml: z.string().max(1_000_000), fileName: z.string().max(500).optional() }), result: psycheChangeSchema },
  /** Saves an edited psyche (the form editor) as a new version, after validation. */
  psycheSave: { args: z.object({ sessionId: sessionIdSchema, psyche: z.unknown() }), result: psycheChangeSchema },
  /** Makes an earlier version current again, as a new version. */
  psycheRestore: { args: z.object({ sessionId: sessionIdSchema, version: z.number().int().positive() }), result: psycheChangeSchema },
  /** The current psyche as psyche.toml text. */
  psycheExport: { args: z.object({ sessionId: sessionIdSchema }), result: z.object({ fileName: z.string(), mediaType: z.string(), text: z.string() }) },
  /** A goal's findings written in a grammar (the persona's preference when none is named). */
  synthesize: {
    args: z.object({ sessionId: sessionIdSchema, goalId: z.number().int(), grammar: grammarChoiceSchema.optional() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), grammar: z.string(), text: z.string(), grammars: z.array(z.string()) }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** A goal's findings written by the bound model in the worn persona's voice (cancellable); the findings themselves come beneath, numbered as cited. */
  synthesizeInVoice: {
    args: z.object({ sessionId: sessionIdSchema, goalId: z.number().int(), operationId: operationIdSchema }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), persona: z.string(), text: z.string(), findings: z.array(z.string()), cites: z.array(z.number().int()), model: modelUseSchema }),
      z.object({ ok: z.literal(false), reason: z.enum(['not-found', 'no-model', 'unavailable', 'bottleneck', 'cancelled']), problems: z.array(problemSchema), model: modelUseSchema.optional() }),
    ]),
  },
  /** The plan the agent would make for a goal (not stored): what it needs, the strategy of the attempt, the steps with their inputs and why. */
  planPreview: {
    args: z.object({ sessionId: sessionIdSchema, description: z.string().trim().min(1).max(MAX_GOAL_TEXT_CHARS), criteria: goalTextSchema.default(''), attempt: z.number().int().min(0).max(100).default(0) }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), plan: planSchema.pick({ attempt: true, needs: true, strategy: true, steps: true }) }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** How a question would be read on the session's graph, without answering it: the typed query, the symbols matched, the words not placed. */
  // The reading's own schema (reading-schema.ts) loads with the reader, not with the app: here it is checked for its plain words only.
  questionRead: {
    // Longer than a goal may be, so that a long question is told its length in a sentence rather than refused by the contract.
    args: z.object({ sessionId: sessionIdSchema, question: z.string().max(1_000_000) }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), reading: readingShape }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  /** A question read and answered by the session's graph (nothing is stored). */
  questionAsk: {
    args: z.object({ sessionId: sessionIdSchema, question: z.string().max(1_000_000) }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), reading: readingShape, answer: answerViewSchema }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** A session's plans, oldest first (a goal's active plan is its last): each with its steps, their status and results. */
  planList: { args: z.object({ sessionId: sessionIdSchema, goalId: z.number().int().optional() }), result: z.object({ plans: z.array(planSchema.extend({ id: z.number().int() })) }) },
  /** Reflects now, on the cycles since the last reflection: adjustments applied and logged, then the psyche evolves. */
  reflect: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), reflection: reflectionSchema.extend({ id: z.number().int() }) }), z.object({ ok: z.literal(false), reason: z.literal('read-only'), problems: z.array(problemSchema) })]),
  },
  /** The session's reflections, newest first. */
  reflectionList: { args: z.object({ sessionId: sessionIdSchema, limit: z.number().int().min(1).max(1000).default(50) }), result: z.object({ reflections: z.array(reflectionSchema.extend({ id: z.number().int() })) }) },
  /** How the session's agent plans and reflects. */
  agentSettingsGet: { args: z.object({ sessionId: sessionIdSchema }), result: agentSettingsSchema },
  /** Changes them (each field checked). */
  agentSettingsSet: {
    args: z.object({ sessionId: sessionIdSchema, settings: z.unknown() }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), settings: agentSettingsSchema }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  /** The notes the agent wrote in the session's scratch area (file_io, for goals that ask for notes), newest first. */
  noteList: { args: z.object({ sessionId: sessionIdSchema }), result: z.object({ notes: z.array(scratchNoteViewSchema) }) },
  /** Actions waiting for approval first (oldest first), then decided ones (newest first). */
  approvalList: { args: z.object({ sessionId: sessionIdSchema, limit: z.number().int().min(1).max(1000).default(100) }), result: z.object({ approvals: z.array(approvalViewSchema), pendingCount: z.number().int() }) },
  /** Approves (the goal goes on and runs the action next, with the user's edited input if given) or denies (the goal goes on without it) a pending action. */
  approvalDecide: {
    args: z.object({
      sessionId: sessionIdSchema,
      approvalId: z.number().int(),
      decision: z.enum(['approve', 'deny']),
      reason: z.string().max(1000).optional(),
      /** With approve: the input to run instead of the one asked for (checked against the tool and the shadow). */
      input: z.unknown().optional(),
    }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), approval: approvalViewSchema }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  /** Imports a text document (.txt, .md) for the agent to read and turn into facts; refused whole when empty, binary or over 2 MB. */
  documentImport: {
    args: z.object({ sessionId: sessionIdSchema, fileName: z.string().min(1).max(500), text: z.string() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), document: documentViewSchema }),
      z.object({ ok: z.literal(false), reason: z.enum(['invalid', 'read-only', 'storage-full']), problems: z.array(problemSchema) }),
    ]),
  },
  /** The session's documents, newest first. */
  documentList: { args: z.object({ sessionId: sessionIdSchema }), result: z.object({ documents: z.array(documentViewSchema) }) },
  /** Deletes a document; facts already extracted from it stay, with their provenance. */
  documentDelete: {
    args: z.object({ sessionId: sessionIdSchema, documentId: z.number().int() }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true) }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  /** What the user allows the agent on the web (this device's setting): address prefixes, time and size caps. */
  /** Which language model runs bind (a device setting; the API key is never sent back, only whether one is stored). */
  inferenceGet: { args: z.object({}), result: inferenceViewSchema },
  /** Changes it: an endpoint without apiKey keeps the stored key, an empty apiKey removes it. */
  inferenceSet: {
    args: z.object({ settings: z.unknown() }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), settings: inferenceViewSchema }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  /** How the session's model samples, and what the chosen provider cannot promise to honour of it, in words. */
  modelSettingsGet: { args: z.object({ sessionId: sessionIdSchema }), result: z.object({ settings: modelSettingsSchema, notes: z.array(z.string()) }) },
  /** Changes them (each field checked; max tokens within the chosen model's context window, where it is known); a field left out is the engine's default. */
  modelSettingsSet: {
    args: z.object({ sessionId: sessionIdSchema, settings: z.unknown() }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), settings: modelSettingsSchema, notes: z.array(z.string()) }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  /** Makes one structured call through the contract with the chosen model: a user's way to test it. */
  inferenceCheck: {
    args: z.object({ operationId: operationIdSchema }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), check: inferenceCheckSchema }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  /** The GPU as WebGPU sees it, the WebLLM models with their state, and the chosen model. */
  modelList: {
    args: z.object({}),
    result: z.object({ gpu: gpuReportSchema, models: z.array(modelViewSchema), chosen: z.string().optional() }),
  },
  /** Downloads a model and loads it on the GPU, reporting progress; cancel stops it (what was fetched stays cached). */
  modelDownload: {
    args: z.object({ operationId: operationIdSchema, modelId: z.string().min(1).max(200) }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), modelId: z.string() }), z.object({ ok: z.literal(false), cancelled: z.boolean().optional(), problems: z.array(problemSchema) })]),
    progress: z.object({ fraction: z.number(), text: z.string() }),
  },
  /** Deletes a model's files (also what a broken download left). */
  modelDelete: {
    args: z.object({ modelId: z.string().min(1).max(200) }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), modelId: z.string() }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  /** Adds a model that is not in WebLLM's list (MLC weights and their WebGPU library, by address); nothing is fetched until it is downloaded. */
  modelAdd: {
    args: z.object({ model: z.unknown() }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), model: modelViewSchema }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  /** Removes an added model from the list, with its files. */
  modelForget: {
    args: z.object({ modelId: z.string().min(1).max(200) }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), modelId: z.string() }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  /** The CPU engine (llama.cpp in WebAssembly): whether it is here, the GGUF models added, each with its header facts and the memory it needs loaded. */
  ggufList: {
    args: z.object({}),
    result: z.object({ isAvailable: z.boolean(), unavailableBecause: z.string().optional(), models: z.array(ggufModelViewSchema), chosen: z.string().optional() }),
  },
  /** Adds a GGUF model from a file picked here or from an address, kept for offline use; a file that is not a model is refused and nothing is kept; cancellable. */
  ggufAdd: {
    args: z.object({
      operationId: operationIdSchema,
      source: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('file'), file: z.instanceof(Blob), fileName: z.string().min(1).max(500) }),
        z.object({ kind: z.literal('url'), url: z.url({ protocol: /^https?$/, error: 'give an http(s) address' }).max(2000) }),
      ]),
    }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), model: ggufModelViewSchema }), z.object({ ok: z.literal(false), cancelled: z.boolean().optional(), problems: z.array(problemSchema) })]),
    progress: z.object({ phase: z.enum(['storing', 'downloading']), bytesWritten: z.number(), totalBytes: z.number().optional() }),
  },
  /** Deletes a GGUF model's file and record. */
  ggufDelete: {
    args: z.object({ id: z.string().min(1).max(200) }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), id: z.string() }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  webAccessGet: { args: z.object({}), result: webAccessSchema },
  /** Changes it; each prefix must be an http(s) address. */
  webAccessSet: {
    args: z.object({ webAccess: webAccessSchema }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), webAccess: webAccessSchema }), z.object({ ok: z.literal(false), problems: z.array(problemSchema) })]),
  },
  /** The agent's questions waiting for an answer first (oldest first), then answered ones (newest first). */
  questionList: { args: z.object({ sessionId: sessionIdSchema, limit: z.number().int().min(1).max(1000).default(100) }), result: z.object({ questions: z.array(questionViewSchema), pendingCount: z.number().int() }) },
  /** Answers a question with facts ("subject, predicate, object[, confidence]" lines, all or nothing) and/or a note; the goal goes on. */
  questionAnswer: {
    args: z.object({ sessionId: sessionIdSchema, questionId: z.number().int(), facts: z.string().max(100_000).default(''), note: z.string().max(10_000).default('') }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), question: questionViewSchema, factsAdded: z.number().int() }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  ...personaContract,
  ...sessionWatchContract,
  ...sessionContract,
  ...endpointContract,
  /** Cancels a long operation started with this operation id. */
  cancel: { args: z.object({ operationId: operationIdSchema }), result: z.object({ isCancelled: z.boolean() }) },
} as const satisfies Record<string, { args: z.ZodType; result: z.ZodType; progress?: z.ZodType }>;

type Contract = typeof agentContract;
export type AgentMethod = keyof Contract;
type ProgressOf<K extends AgentMethod> = Contract[K] extends { progress: infer P extends z.ZodType } ? (progress: z.output<P>) => void : never;

/** The API as callers see it: arguments before defaults are applied, results after validation. */
export type AgentApi = {
  [K in AgentMethod]: (args: z.input<Contract[K]['args']>, onProgress?: ProgressOf<K>) => Promise<z.output<Contract[K]['result']>>;
};

/** The API as the service implements it: arguments already validated, defaults applied. */
export type AgentServiceImplementation = {
  [K in AgentMethod]: (args: z.output<Contract[K]['args']>, onProgress?: ProgressOf<K>) => Promise<z.input<Contract[K]['result']>>;
};

/** The methods in a stable order, for wrappers. */
export const AGENT_METHODS = Object.keys(agentContract) as AgentMethod[];

/** Thrown when data crossing the boundary breaks the contract: a bug in the caller or the service. */
export class ContractError extends Error {
  override readonly name = 'ContractError';
}

function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ContractError(`${where}: ${parsed.error.issues.slice(0, 5).map((issue) => issueText(issue, value)).join('; ')}`);
  return parsed.data;
}

/**
 * One broken rule of the contract in words: an argument over its limit says the limit and its
 * size (a 10 MB psyche.toml: "toml has 10,485,760 characters, more than the 1,000,000 taken").
 */
function issueText(issue: z.core.$ZodIssue, value: unknown): string {
  const path = issue.path.map(String).join('.');
  const where = path === '' ? 'the value' : path;
  if (issue.code === 'too_big' && (issue.origin === 'string' || issue.origin === 'array')) {
    const given = issue.path.reduce<unknown>((inside, key) => (typeof inside === 'object' && inside !== null ? (inside as Record<PropertyKey, unknown>)[key] : undefined), value);
    const size = typeof given === 'string' || Array.isArray(given) ? given.length : undefined;
    const unit = issue.origin === 'string' ? 'characters' : 'items';
    const limit = Number(issue.maximum).toLocaleString('en');
    return size === undefined ? `${where} has more than the ${limit} ${unit} taken` : `${where} has ${size.toLocaleString('en')} ${unit}, more than the ${limit} taken`;
  }
  return `${where}: ${issue.message}`;
}

/** Wraps the service so every call's arguments and result are checked against the contract (worker side), and a full storage is said in words. */
export function withContractChecks(service: AgentServiceImplementation): AgentApi {
  const checked: Partial<Record<AgentMethod, unknown>> = {};
  for (const method of AGENT_METHODS) {
    const contract: { args: z.ZodType; result: z.ZodType } = agentContract[method];
    checked[method] = async (args: unknown, onProgress?: (progress: never) => void) => {
      const parsedArgs = parseOrThrow(contract.args, args, `${method} arguments`);
      let result: unknown;
      try {
        result = await (service[method] as (args: unknown, onProgress?: unknown) => Promise<unknown>)(parsedArgs, onProgress);
      } catch (error) {
        // A write that did not fit was rolled back whole; every method that has no refusal of its own for it says so in words.
        if (isQuotaExceeded(error)) throw new Error(STORAGE_FULL_MESSAGE);
        // A defect (a stack overflow, a TypeError) reaches the UI as a sentence; the original stays as the cause.
        throw isDefect(error) ? new Error(`${method}: ${errorSentence(error)}`, { cause: error }) : error;
      }
      return parseOrThrow(contract.result, result, `${method} result`);
    };
  }
  return checked as AgentApi;
}

/** Checks a result that arrived from the worker (client side). */
export function checkResult<K extends AgentMethod>(method: K, result: unknown): z.output<Contract[K]['result']> {
  return parseOrThrow(agentContract[method].result, result, `${method} result`) as z.output<Contract[K]['result']>;
}

/** Checks a progress report that arrived from the worker (client side). */
export function checkProgress(method: AgentMethod, progress: unknown): unknown {
  const schema: z.ZodType | undefined = 'progress' in agentContract[method] ? (agentContract[method] as { progress: z.ZodType }).progress : undefined;
  return schema ? parseOrThrow(schema, progress, `${method} progress`) : progress;
}

import { z } from 'zod';
import { isQuotaExceeded, STORAGE_FULL_MESSAGE } from '#core/store/quota.ts';
import { errorSentence, isDefect } from './error-sentence.ts';
import { sessionIdSchema } from './names.ts';
import { agentRunContract } from '#core/api/agent-contract.ts';
import { approvalContract } from '#core/api/approval-contract.ts';
import { graphStatsSchema, kgContract, openProgressSchema } from '#core/api/kg-contract.ts';
import { modelContract } from '#core/api/model-contract.ts';
import { operationIdSchema } from '#core/api/operation.ts';
import { personaContract } from '#core/api/persona-contract.ts';
import { psycheContract } from '#core/api/psyche-contract.ts';
import { questionContract } from '#core/api/question-contract.ts';
import { sessionContract } from '#core/api/session-contract.ts';
import { sessionWatchContract } from '#core/api/session-watch-contract.ts';
import { webAccessContract } from '#core/api/web-access-contract.ts';
import { endpointContract } from '#core/sparql/endpoint-contract.ts';
import { toolServerContract } from '#core/api/tool-server-contract.ts';
import { writeUpContract } from '#core/api/write-up-contract.ts';
import { jobContract } from '#core/api/job-contract.ts';

/**
 * The contract of the AgentService: every method's arguments, result and (for long operations)
 * progress, as zod schemas. The worker validates arguments and results against it; the client
 * validates results and progress. Only plain data crosses. Each area declares its slice in
 * api/<area>-contract.ts; this file joins them and is the one door the UI, the worker and the CLI
 * use (the UI imports the core only through here and result.ts).
 */

export * from '#core/api/agent-contract.ts';
export * from '#core/api/approval-contract.ts';
export * from '#core/api/kg-contract.ts';
export * from '#core/api/model-contract.ts';
export * from '#core/api/persona-contract.ts';
export * from '#core/api/psyche-contract.ts';
export * from '#core/api/question-contract.ts';
export * from '#core/api/session-contract.ts';
export * from '#core/api/session-watch-contract.ts';
export * from '#core/api/web-access-contract.ts';
export * from '#core/api/tool-server-contract.ts';
export * from '#core/api/write-up-contract.ts';
export * from '#core/api/job-contract.ts';
export { problemSchema } from './result.ts';
export { WEBLLM_VERSION } from '#core/llm/webllm-models.ts';
export {
  GGUF_RECOMMENDATIONS,
  type GgufRecommendation,
  ggufRecommendationMemoryBytes,
  ggufRecommendationUrl,
  type SpeedClass,
  speedClassOf,
  WEBLLM_MODEL_NOTES,
  type WebLlmModelNote,
} from '#core/llm/recommended-models.ts';
export { WEBLLM_EMBEDDING_MODELS } from '#core/llm/webllm-embeddings.ts';
export { parseDecimal } from './decimal-text.ts';
export { diffPsyche, type PsycheDiff } from '#core/psyche/psyche-diff.ts';
export { factsAsCsv, factsAsNTriples } from '#core/kg/export-ntriples.ts';
export { decodeUtf8Text } from './text-bytes.ts';
export { readJson } from './safe-json.ts';
export { MAX_NAME_CHARS } from './names.ts';
export { RASTER_IMAGE_TYPES } from '#core/records/artifact.ts';
export { countText, numberText } from './count-text.ts';
export { iriOf } from '#core/kg/symbol.ts';
export { looksLikeQuestion } from '#core/questions/question-form.ts';
export type { AnswerView } from '#core/questions/answer-schema.ts';
export type { Reading } from '#core/questions/reading-schema.ts';
export { DEFAULT_ENDPOINT } from '#core/records/sparql-endpoint.ts';
export type { SparqlEndpointView } from '#core/records/sparql-endpoint.ts';
export type { ToolServerView } from '#core/records/tool-server.ts';
export { SNAPSHOT_VERSION } from '#core/sessions/snapshot-format.ts';
export { PROVENANCE_KIND_WORDS } from '#core/kg/provenance.ts';
export { TOOL_WORDS, toolAction } from '#core/tools/tool-words.ts';
export { choiceInWords, scoreInWords } from '#core/agent/score-words.ts';
export { FILE_KIND_TEXT, fileKindOf, type FileKind } from '#core/sessions/file-kind.ts';
export { PART_TYPE_TITLES, PART_TYPES, TRAIT_TYPES } from '#core/records/persona-catalog.ts';
export type { PartType, TraitType } from '#core/records/persona-catalog.ts';

/** The active session as it opens: its id and name. */
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
  ...sessionContract,
  ...kgContract,
  ...agentRunContract,
  ...writeUpContract,
  ...approvalContract,
  ...psycheContract,
  ...questionContract,
  ...modelContract,
  ...webAccessContract,
  ...personaContract,
  ...sessionWatchContract,
  ...endpointContract,
  ...toolServerContract,
  ...jobContract,
  /** Cancels a long operation started with this operation id. */
  cancel: { args: z.object({ operationId: operationIdSchema }), result: z.object({ isCancelled: z.boolean() }) },
} as const satisfies Record<string, { args: z.ZodType; result: z.ZodType; progress?: z.ZodType }>;

type Contract = typeof agentContract;
export type AgentMethod = keyof Contract;
type ProgressOf<K extends AgentMethod> = Contract[K] extends { progress: infer P extends z.ZodType }
  ? (progress: z.output<P>) => void
  : never;

/** The API as callers see it: arguments before defaults are applied, results after validation. */
export type AgentApi = {
  [K in AgentMethod]: (
    args: z.input<Contract[K]['args']>,
    onProgress?: ProgressOf<K>,
  ) => Promise<z.output<Contract[K]['result']>>;
};

/** The API as the service implements it: arguments already validated, defaults applied. */
export type AgentServiceImplementation = {
  [K in AgentMethod]: (
    args: z.output<Contract[K]['args']>,
    onProgress?: ProgressOf<K>,
  ) => Promise<z.input<Contract[K]['result']>>;
};

/** The methods in a stable order, for wrappers. */
export const AGENT_METHODS = Object.keys(agentContract) as AgentMethod[];

/** Thrown when data crossing the boundary breaks the contract: a bug in the caller or the service. */
export class ContractError extends Error {
  override readonly name = 'ContractError';
}

function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new ContractError(
      `${where}: ${parsed.error.issues
        .slice(0, 5)
        .map((issue) => issueText(issue, value))
        .join('; ')}`,
    );
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
    const given = issue.path.reduce<unknown>(
      (inside, key) =>
        typeof inside === 'object' && inside !== null ? (inside as Record<PropertyKey, unknown>)[key] : undefined,
      value,
    );
    const size = typeof given === 'string' || Array.isArray(given) ? given.length : undefined;
    const unit = issue.origin === 'string' ? 'characters' : 'items';
    const limit = Number(issue.maximum).toLocaleString('en');
    return size === undefined
      ? `${where} has more than the ${limit} ${unit} taken`
      : `${where} has ${size.toLocaleString('en')} ${unit}, more than the ${limit} taken`;
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
        result = await (service[method] as (args: unknown, onProgress?: unknown) => Promise<unknown>)(
          parsedArgs,
          onProgress,
        );
      } catch (error) {
        // A write that did not fit was rolled back whole; every method that has no refusal of its own for it says so in words.
        if (isQuotaExceeded(error)) throw new Error(STORAGE_FULL_MESSAGE, { cause: error });
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
  const schema: z.ZodType | undefined =
    'progress' in agentContract[method] ? (agentContract[method] as { progress: z.ZodType }).progress : undefined;
  return schema ? parseOrThrow(schema, progress, `${method} progress`) : progress;
}

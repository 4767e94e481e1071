import { z } from 'zod';
import type { Episode } from '#core/records/episode.ts';
import type { ReadableDocument } from '#core/kg/document.ts';
import type { WebAccess } from './web-access.ts';
import type { Criteria } from '#core/goals/goal.ts';
import type { Goal } from '#core/records/goal.ts';
import type { GraphDelta } from '#core/kg/graph-delta.ts';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { SimilarityIndex } from '#core/kg/similarity.ts';
import type { Triple } from '#core/kg/triple.ts';
import type { ChangeProvenance, ProvenanceDraft } from '#core/kg/provenance.ts';
import type { ReachableEndpoint } from '#core/records/sparql-endpoint.ts';
import type { Capability, DangerLevel } from '#core/records/capability.ts';
import type { Archetype, Psyche } from '#core/records/psyche.ts';
import type { ShadowAction } from '#core/psyche/shadow.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import type { EmbeddingAccess } from '#core/llm/embedding-cache.ts';
import type { ModelUse } from '#core/records/model-use.ts';
import { type Rejection, rejectionOf } from '#core/records/rejection.ts';
import { type ArtifactDraft, artifactDraftSchema, type ArtifactProvenance } from '#core/records/artifact.ts';

/** A fact as ids: subject, predicate, object. */
export type FactIds = [number, number, number];

/** What a tool sees when the agent considers it for a goal, and when it runs. */
export type ToolState = {
  sessionId: string;
  cycle: number;
  now: number;
  graph: KnowledgeGraph;
  similarity: SimilarityIndex;
  goal: Goal;
  criteria: Criteria;
  /** The entities the goal is about. */
  goalSymbols: readonly number[];
  /** The graph's triple count when inference last ran around this goal (undefined: never). */
  inferredAtTripleCount: number | undefined;
  /** The session's episodes (long-term memory). */
  episodes: readonly Episode[];
  /** The documents the user imported, whole. */
  documents: readonly ReadableDocument[];
  /** What the user allows on the web, and whether the device is online now. */
  webAccess: WebAccess;
  isOnline: boolean;
  /** The SPARQL endpoints the user added that this run may reach, with their keys. */
  sparqlEndpoints?: readonly ReachableEndpoint[];
  /** The language model the run bound, if any (absent: the symbolic engine alone). */
  model?: ModelAccess;
  /** The embedder the session bound, if any: recall and similarity rank by its vectors (absent: by hypervectors). */
  embeddings?: EmbeddingAccess;
  /** How full working memory is, and above what share it is due for consolidation (absent where no loop runs). */
  memory?: { pressure: number; threshold: number };
  /** The shadow the cycle judges actions by (the worn persona's guardrails included): a model's own tool calls pass it too. */
  psyche?: Pick<Psyche, 'shadow'>;
  /** The tools of MCP servers the user granted this session: a bound model may call them in its steps. */
  serverTools?: readonly AgentTool[];
};

/** A call of a tool server's tool, kept as provenance: the server, the tool, the input's digest and what came back. */
export type ServerCallRecord = {
  server: string;
  url: string;
  tool: string;
  input: unknown;
  /** SHA-256 (hex) of the input as sent. */
  inputDigest: string;
  /** The server answered, and the tool did not say it failed. */
  ok: boolean;
  /** The server answered (false: it could not be reached, or broke off). */
  hasAnswered: boolean;
  /** What the tool said (or why the call failed), redacted. */
  text: string;
  /** Images and audio it returned (base64), and resources it named. */
  media: ({ kind: 'image' | 'audio'; mimeType: string; data: string } | { kind: 'resource'; uri: string })[];
};

/** An action held for the user's approval inside a tool's run (a model's call of a tool that may change something). */
export type HeldAction = { tool: string; input: unknown; pattern: string; because: string; explanation: string };

/** A change of the graph a tool asks for, stored in the cycle's transaction with this provenance. */
export type GraphChange = {
  delta: GraphDelta;
  provenance: Exclude<ChangeProvenance, ProvenanceDraft>;
  inferredAtTripleCount?: number;
};

/**
 * What a tool did: a one-line summary, the domain facts it returned or derived, and changes to
 * store; apart, the value a model reads of it and the artifacts the user gets.
 */
export type ToolOutcome = {
  ok: boolean;
  summary: string;
  /** What a model that called the tool reads of the result, when not the summary. */
  value?: string;
  /** Files for the user (text, JSON, images, any bytes): kept, with provenance, in the cycle's transaction; never shown to a model as they are. */
  artifacts?: ArtifactDraft[];
  /** Where the artifacts came from beyond the tool, goal and cycle the cycle records: an MCP tool's server and a digest of its input. */
  artifactOrigin?: Pick<ArtifactProvenance, 'server' | 'inputDigest'>;
  facts: FactIds[];
  /** Symbols the outcome is about (for working memory). */
  symbols: number[];
  graphChange?: GraphChange;
  /** Sentences of the user's documents the tool read, quoted: a keyword goal's words may hold there as in stored facts (never in a summary). */
  evidence?: string;
  /** A question for the user: the goal waits for the answer. */
  question?: string;
  /** An address http_fetch asked (fetched once per goal, whatever came back). */
  fetchedUrl?: string;
  /** How many of the goal's findings its notes now hold (file_io wrote them, as an artifact). */
  notedFindings?: number;
  /** memory_consolidate asked the cycle to move working memory into episodes. */
  consolidation?: true;
  /** A document text_ingest turned into facts (read once). */
  ingestedDocument?: { id: number; facts: number };
  /** Why the tool refused the action, with what it required and observed (kept on the cycle record). */
  rejection?: Rejection;
  /** What the tool's model calls used (and the bottleneck they ended in). */
  modelUse?: ModelUse;
  /**
   * Work too heavy for a cycle, handed to the background: the goal waits (across reloads) until
   * it is done, then the tool's `resume` gets its result in the goal's next cycle.
   */
  deferred?: DeferredWork;
  /** The tool server calls it made: each is stored as provenance in the cycle's transaction. */
  serverCalls?: ServerCallRecord[];
  /** A call the model asked for that waits for the user: stored as an approval, and the goal waits. */
  heldAction?: HeldAction;
};

/** Background work a tool defers: its kind (one the service runs), what it is given, and what it does, in words. */
export type DeferredWork = { kind: string; work: unknown; what: string };

/** How background work ended: its result, or why it failed. */
export type JobOutcome = { ok: true; result: unknown } | { ok: false; error: string };

/**
 * A tool of the agent (DESIGN section 6): what it is, how dangerous, what it needs, how well it
 * suits the state (`baseScore`, 0..1), what input it would take, and how it runs.
 */
export type Tool<Input = unknown> = {
  name: string;
  description: string;
  archetype: Archetype | undefined;
  /** The most harm the tool can do; {@link dangerOf} may say less for a given input. */
  danger: DangerLevel;
  /** How dangerous this very action is, where that depends on the input (asserting a fact vs retracting one). */
  dangerOf?(input: Input): DangerLevel;
  /** Everything the tool may touch; {@link capabilitiesOf} may say less for a given input. */
  capabilities: readonly Capability[];
  /** What this very action touches, where that depends on the input (reading a document vs writing a note). */
  capabilitiesOf?(input: Input): readonly Capability[];
  input: z.ZodType<Input>;
  /** Why the tool cannot be a candidate now (offline, no model, nothing to work on), or undefined. */
  unavailableBecause(state: ToolState): string | undefined;
  baseScore(state: ToolState): number;
  proposeInput(state: ToolState): Input;
  /** Whether the user's settings let this very action run without asking, where a veto would ask (an endpoint marked so). A hard veto still blocks it. */
  isPreApproved?(input: Input, state: ToolState): boolean;
  /** Symbolic tools answer at once; a tool that reaches outside (the network) answers later. */
  run(input: Input, state: ToolState): ToolOutcome | Promise<ToolOutcome>;
  /** For a tool that defers work: what it makes of the work's outcome, with the input it ran with (it may defer again). */
  resume?(job: JobOutcome, input: Input, state: ToolState): ToolOutcome | Promise<ToolOutcome>;
  /** Only a bound model calls it, in its steps (its input cannot be proposed from a goal): never the cycle's own choice. */
  isForModelOnly?: boolean;
  /** Why its actions wait for the user even when no veto asks (a tool server's tool not marked read-only), or undefined. */
  waitsForApprovalBecause?: string;
  /** How its input looks, for a model's prompt (default: as its schema says). */
  inputGuide?: string;
  /** What an approval binds to, where the input's schema is not zod's own (a server's JSON Schema): default, the JSON Schema of `input`. */
  definitionText?: string;
};

/** The domain triples around a set of symbols (metadata left out), at most `limit`. */
export function domainTriplesAround(graph: KnowledgeGraph, symbols: readonly number[], limit: number): Triple[] {
  const found: Triple[] = [];
  const { predicates } = graph.columns;
  // Positions first, a triple made only for those kept: a goal's symbol can be a hub of 100,000 facts.
  for (const symbol of symbols)
    for (const positions of [graph.positionsFrom(symbol), graph.positionsTo(symbol)])
      for (const position of positions) {
        if (graph.isMetadata({ predicate: predicates[position]! })) continue;
        found.push(graph.tripleAt(position));
        if (found.length >= limit) return found;
      }
  return found;
}

export function factIdsOf(triple: Pick<Triple, 'subject' | 'predicate' | 'object'>): FactIds {
  return [triple.subject, triple.predicate, triple.object];
}

/**
 * A tool as the agent holds it: input is unknown until checked. `run` validates the input
 * against the tool's schema first, and turns a throwing tool into a failed outcome, so neither
 * a bad input nor a bug stops the loop.
 */
export type AgentTool = Omit<
  Tool,
  'input' | 'proposeInput' | 'run' | 'dangerOf' | 'capabilitiesOf' | 'isPreApproved' | 'resume'
> & {
  /** The tool's definition as stable text (what it is, how dangerous, its input's JSON Schema): an approval is bound to it. */
  definition: string;
  /** How dangerous an action with this input is (an input the tool would refuse counts at the tool's worst). */
  dangerOf(input: unknown): DangerLevel;
  /** What an action with this input touches (an input the tool would refuse counts as all it may touch). */
  capabilitiesOf(input: unknown): readonly Capability[];
  proposeInput(state: ToolState): unknown;
  /** Whether the settings let this action run without asking (an input the tool would refuse: never). */
  isPreApproved(input: unknown, state: ToolState): boolean;
  /** Problems with an input the tool would refuse (each `path: message`), none for one it takes: what an edited approval is checked with. */
  inputProblems(input: unknown): { path?: string; message: string }[];
  run(input: unknown, state: ToolState): Promise<ToolOutcome>;
  /** The work's outcome given back to the tool (a failed outcome where the tool cannot resume, or its input no longer reads). */
  resume(job: JobOutcome, input: unknown, state: ToolState): Promise<ToolOutcome>;
};

/** What the shadow judges of a tool's action: its name, and its danger and capabilities for this input, the input. */
export function shadowViewOf(tool: AgentTool, input: unknown): ShadowAction {
  return { tool: tool.name, danger: tool.dangerOf(input), capabilities: tool.capabilitiesOf(input), input };
}

export function defineTool<Input>(tool: Tool<Input>): AgentTool {
  const { name, description, archetype, danger, capabilities } = tool;
  return {
    ...tool,
    definition:
      tool.definitionText ??
      JSON.stringify({
        name,
        description,
        archetype: archetype ?? null,
        danger,
        capabilities,
        input: z.toJSONSchema(tool.input),
      }),
    proposeInput: (state) => tool.proposeInput(state),
    inputProblems(input) {
      const parsed = tool.input.safeParse(input);
      return parsed.success
        ? []
        : parsed.error.issues.map((issue) => ({
            ...(issue.path.length > 0 ? { path: issue.path.map(String).join('.') } : {}),
            message: issue.message,
          }));
    },
    // Decide asks every tool each cycle: one without a rule of its own is what it says, its input unread.
    dangerOf(input) {
      if (!tool.dangerOf) return danger;
      const parsed = tool.input.safeParse(input);
      return parsed.success ? tool.dangerOf(parsed.data) : danger;
    },
    capabilitiesOf(input) {
      if (!tool.capabilitiesOf) return capabilities;
      const parsed = tool.input.safeParse(input);
      return parsed.success ? tool.capabilitiesOf(parsed.data) : capabilities;
    },
    isPreApproved(input, state) {
      const parsed = tool.input.safeParse(input);
      return parsed.success && tool.isPreApproved !== undefined && tool.isPreApproved(parsed.data, state);
    },
    async resume(job, input, state) {
      const parsed = tool.input.safeParse(input);
      const failed = (summary: string): ToolOutcome => ({ ok: false, summary, facts: [], symbols: [] });
      if (!parsed.success || !tool.resume) return failed(`${tool.name} cannot take up its deferred work any more`);
      try {
        return await tool.resume(job, parsed.data, state);
      } catch (error) {
        if (error instanceof Error && error.name === 'AbortError') throw error;
        return failed(`${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    async run(input, state) {
      const parsed = tool.input.safeParse(input);
      if (!parsed.success) {
        const detail = parsed.error.issues
          .map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`)
          .join('; ');
        return {
          ok: false,
          summary: `${tool.name} refused its input (${detail})`,
          facts: [],
          symbols: [],
          rejection: rejectionOf('invalid_arguments', `input that ${tool.name}'s schema takes`, detail),
        };
      }
      try {
        return artifactsChecked(tool.name, await tool.run(parsed.data, state));
      } catch (error) {
        // A cancelled run ends the cycle uncommitted, rather than as a failed action.
        if (error instanceof Error && error.name === 'AbortError') throw error;
        return {
          ok: false,
          summary: `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`,
          facts: [],
          symbols: [],
        };
      }
    },
  };
}

/** A tool's outcome whose artifacts Anima can keep, or a failed one saying which cannot be kept and why (before anything is written). */
function artifactsChecked(tool: string, outcome: ToolOutcome): ToolOutcome {
  for (const [index, artifact] of (outcome.artifacts ?? []).entries()) {
    const checked = artifactDraftSchema.safeParse(artifact);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      return {
        ok: false,
        summary: `${tool} gave an artifact Anima cannot keep (artifacts.${index}${issue.path.map((key) => `.${String(key)}`).join('')}: ${issue.message})`,
        facts: [],
        symbols: [],
      };
    }
  }
  return outcome;
}

import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { SimilarityIndex } from '#core/kg/similarity.ts';
import { spreadActivation } from '#core/kg/traversal.ts';
import type { Psyche } from '#core/records/psyche.ts';
import type { ReadableDocument } from '#core/kg/document.ts';
import type { WebAccess } from '#core/tools/web-access.ts';
import { describeAction, judgeAction } from '#core/psyche/shadow.ts';
import { normaliseForShadow } from '#core/records/trigger-text.ts';
import { type AgentTool, shadowViewOf, type ToolState } from '#core/tools/tool.ts';
import type { ReachableEndpoint } from '#core/records/sparql-endpoint.ts';
import { type Criteria, criteriaOfGoal, goalSymbols } from '#core/goals/goal.ts';
import type { Goal } from '#core/records/goal.ts';
import { type EpisodicEvidence, episodicEvidence, recallEpisodes } from '#core/memory/episodes.ts';
import { describeRecallBasis, type RecallBasis } from '#core/memory/embedded-recall.ts';
import type { EmbeddingAccess } from '#core/llm/embedding-cache.ts';
import type { Episode } from '#core/records/episode.ts';
import { consultedEntries, memoryPressure } from '#core/memory/working-memory.ts';
import { DEFAULT_CONSOLIDATION_THRESHOLD, type MemoryEntry } from '#core/records/memory-entry.ts';
import { formatBreakdown, scoreTool } from './score.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import { makePlan, nextStep, skipBlockedSteps } from './plan.ts';
import type { Plan } from '#core/records/plan.ts';
import type { CycleRecord } from '#core/records/cycle.ts';
import type { QuestionAnswering } from '#core/questions/answer-schema.ts';

/** What a cycle starts from. */
export type CycleContext = {
  sessionId: string;
  cycle: number;
  now: number;
  graph: KnowledgeGraph;
  similarity: SimilarityIndex;
  goals: readonly Goal[];
  memoryEntryCount: number;
  memoryCapacity: number;
  /** Working memory's entries (absent: only counted), the ones about the goal are consulted. */
  memoryEntries?: readonly MemoryEntry[];
  /** Above this share of capacity, working memory is due for consolidation (the session's setting; DESIGN: 0.8). */
  consolidationThreshold?: number;
  episodes: readonly Episode[];
  documents: readonly ReadableDocument[];
  webAccess: WebAccess;
  isOnline: boolean;
  /** The SPARQL endpoints this run may reach, with their keys. */
  sparqlEndpoints?: readonly ReachableEndpoint[];
  tools: readonly AgentTool[];
  /** Its archetype weights bias the choice; its shadow's bias patterns penalise it. */
  psyche: Psyche;
  /** Planning on: the session's active plans; the next step of the goal's plan gets the plan bonus. Absent: planning off. */
  planning?: { activePlans: readonly Plan[] };
  /** The language model the run bound (absent: the symbolic engine alone). */
  model?: ModelAccess;
  /** The embedder the session bound (absent: hypervectors alone). */
  embeddings?: EmbeddingAccess;
  /** How the goal's text was compared with the episodes' (absent: by hypervectors), worked out before deciding. */
  recall?: RecallBasis;
  /** The reader of questions, loaded when a goal asks one (see ../questions/load-question-answering.ts). */
  questions?: QuestionAnswering;
};

/** When no tool can work on the chosen goal: the goal, what the tools saw, and every tool's reason. */
export type NoToolAvailable = {
  goal: Goal;
  criteria: Criteria;
  state: ToolState;
  record: Omit<CycleRecord, 'act' | 'outcome' | 'statusChange' | 'tool' | 'input' | 'shadow'>;
};

/** The plan that steers a cycle: the goal's active plan (new when it has no id), and a plan this cycle ended. */
export type PlanSteering = { plan: Plan; ended?: Plan };

/** The decision of a cycle: the goal, the tool and its input, the plan that steered it, and the record of how it was reached. */
export type Decision = {
  goal: Goal;
  criteria: Criteria;
  /** The reader, for a goal that asks a question (its answer is read again after the tool ran). */
  questions?: QuestionAnswering;
  state: ToolState;
  tool: AgentTool;
  input: unknown;
  plan?: PlanSteering;
  /** The working memory entries and episodes this decision consulted: each use counts on them. */
  consulted?: { entryIds: number[]; episodeIds: number[] };
  record: Omit<CycleRecord, 'act' | 'outcome' | 'statusChange' | 'shadow'>;
};

/** Orders goals for attention: highest priority first, then the oldest (lowest id). */
export function byAttention(a: Goal, b: Goal): number {
  return b.priority - a.priority || (a.id ?? 0) - (b.id ?? 0);
}

/**
 * Observe, orient and decide. Returns undefined when no goal is active. The choice is the
 * highest total score; ties go to the tool whose name sorts first, so runs repeat exactly.
 */
export function decide(context: CycleContext): Decision | NoToolAvailable | undefined {
  const active = context.goals.filter((goal) => goal.status === 'active').sort(byAttention);
  const goal = active[0];
  if (!goal) return undefined;
  const { graph } = context;
  const criteria = criteriaOfGoal(goal, graph);
  const symbols = symbolsOfGoal(graph, goal, criteria, context.questions);
  const label = (id: number) => graph.symbol(id)?.label ?? `#${id}`;
  const pressure = memoryPressure(context.memoryEntryCount, context.memoryCapacity);

  const threshold = context.consolidationThreshold ?? DEFAULT_CONSOLIDATION_THRESHOLD;
  const basis = context.recall ?? { by: 'hypervectors' };
  const recalled = recallEpisodes(
    context.episodes,
    { symbols, text: goal.description },
    3,
    basis.by === 'embeddings' ? basis.scores : undefined,
  );
  // What earlier work on these symbols taught: a tool that worked here is raised, one that failed here lowered.
  const evidence = episodicEvidence(recalled, symbols);
  const consulted = consultedEntries(context.memoryEntries ?? [], goal.id, symbols);
  const observe =
    `${active.length} active goal${active.length === 1 ? '' : 's'}; working on "${goal.description}" (priority ${goal.priority}); working memory ${context.memoryEntryCount}/${context.memoryCapacity}` +
    `${context.memoryEntries ? `, ${consulted.length} entries about it` : ''}; ` +
    `${recalled.length === 0 ? 'no episode recalled' : `recalled ${recalled.map((recall) => `episode ${recall.episode.id ?? '?'} (${recall.score.toFixed(2)})`).join(', ')}`}` +
    (context.episodes.length > 0 ? ` ${describeRecallBasis(basis)}` : '');
  const around = symbols.reduce(
    (sum, symbol) => sum + graph.positionsFrom(symbol).length + graph.positionsTo(symbol).length,
    0,
  );
  // A few neighbours each way are enough to name the five most active: a goal's symbol can be a hub.
  const activated = spreadActivation(graph, symbols, { depth: 2, topK: 5, fanOut: 64 });
  const orient =
    `goal symbols: ${symbols.map(label).join(', ') || 'none known'}; ${around} triples around them; ` +
    `activation reaches ${activated.map((entry) => `${label(entry.symbolId)} ${entry.activation.toFixed(2)}`).join(', ') || 'nothing'}; memory pressure ${pressure.toFixed(2)}`;

  const state: ToolState = {
    sessionId: context.sessionId,
    cycle: context.cycle,
    now: context.now,
    graph,
    similarity: context.similarity,
    goal,
    criteria,
    goalSymbols: symbols,
    inferredAtTripleCount: goal.inferredAtTripleCount,
    episodes: context.episodes,
    documents: context.documents,
    webAccess: context.webAccess,
    isOnline: context.isOnline,
    ...(context.sparqlEndpoints ? { sparqlEndpoints: context.sparqlEndpoints } : {}),
    ...(context.model ? { model: context.model } : {}),
    ...(context.embeddings ? { embeddings: context.embeddings } : {}),
    psyche: context.psyche,
    memory: { pressure, threshold },
    serverTools: context.tools.filter((tool) => tool.isForModelOnly),
  };
  // Every tool is assessed first: the plan skips the steps whose tool cannot run, then the choice is scored.
  type Assessed =
    | { tool: AgentTool; skippedBecause: string }
    | { tool: AgentTool; skippedBecause?: undefined; input: unknown; verdict: ReturnType<typeof judgeAction> };
  const vetoed = new Set((goal.blockedActions ?? []).map(normaliseForShadow));
  const denied = new Set((goal.deniedActions ?? []).map(normaliseForShadow));
  // A tool only a model calls is offered to it in its steps (state.serverTools), never chosen here.
  const assessed = context.tools
    .filter((tool) => !tool.isForModelOnly)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((tool): Assessed => {
      const unavailable = tool.unavailableBecause(state);
      if (unavailable) return { tool, skippedBecause: unavailable };
      const input = tool.proposeInput(state);
      const action = normaliseForShadow(describeAction({ tool: tool.name, input }));
      const verdict = judgeAction(context.psyche, shadowViewOf(tool, input));
      if (denied.has(action)) return { tool, skippedBecause: 'you denied this very action for this goal' };
      // A vetoed action stays out while a hard veto still forbids it: an edited psyche may allow it again.
      const hardVeto = verdict.vetoes.find((match) => !match.pattern.requireApproval);
      if (vetoed.has(action) && hardVeto)
        return { tool, skippedBecause: `this very action was vetoed for this goal (${hardVeto.pattern.name})` };
      return { tool, input, verdict };
    });
  const skipped = new Map(
    assessed.flatMap((entry) =>
      entry.skippedBecause !== undefined ? [[entry.tool.name, entry.skippedBecause] as const] : [],
    ),
  );
  const steering = context.planning
    ? steerPlan(
        context,
        goal,
        state,
        assessed.filter((entry) => entry.skippedBecause === undefined).map((entry) => entry.tool),
        skipped,
      )
    : undefined;
  const planTool = steering && nextStep(steering.plan)?.tool;

  const candidates: CycleRecord['candidates'] = [];
  let best: { tool: AgentTool; total: number; input: unknown } | undefined;
  for (const entry of assessed) {
    const { tool } = entry;
    if (entry.skippedBecause !== undefined) {
      candidates.push({ tool: tool.name, skippedBecause: entry.skippedBecause });
      continue;
    }
    const { biases, biasSeverity } = entry.verdict;
    const score = scoreTool({
      base: tool.baseScore(state),
      recentTools: goal.toolsUsed,
      tool: tool.name,
      isNovel: !goal.toolsUsed.includes(tool.name),
      episodic: evidence.get(tool.name)?.verdict,
      isConsolidation: tool.name === 'memory_consolidate',
      memoryPressure: pressure,
      pressureThreshold: threshold,
      archetypeWeight: tool.archetype ? context.psyche.archetypes[tool.archetype] : 0.5,
      biasSeverity,
      isPlanStep: tool.name === planTool,
      priority: goal.priority,
    });
    const biasedBy =
      biases.length > 0
        ? ` biased by ${biases.map((match) => `${match.pattern.name} (${match.because})`).join(', ')}`
        : '';
    const recalledBy = evidenceText(evidence.get(tool.name), label);
    candidates.push({
      tool: tool.name,
      score: score.total,
      breakdown: `${formatBreakdown(score)}${recalledBy}${biasedBy}`,
    });
    if (!best || score.total > best.total) best = { tool, total: score.total, input: entry.input };
  }
  const planned = steering ? `; ${describeSteering(steering)}` : '';
  const common = {
    sessionId: context.sessionId,
    cycle: context.cycle,
    goalId: goal.id!,
    startedAt: context.now,
    observe: `${observe}${planned}`,
    orient,
    candidates,
  };
  if (!best) return { goal, criteria, state, record: { ...common, decide: 'no tool can work on this goal now' } };
  const { input } = best;
  const decided = `${best.tool.name} ${candidates.find((candidate) => candidate.tool === best.tool.name)!.breakdown}`;
  return {
    goal,
    criteria,
    ...(context.questions ? { questions: context.questions } : {}),
    state,
    tool: best.tool,
    input,
    ...(steering ? { plan: steering } : {}),
    consulted: {
      entryIds: consulted.flatMap((entry) => (entry.id !== undefined ? [entry.id] : [])),
      episodeIds: recalled.flatMap((recall) => (recall.episode.id !== undefined ? [recall.episode.id] : [])),
    },
    record: { ...common, decide: decided, tool: best.tool.name, input },
  };
}

/** Why the episodic term moved a tool's score: " recalled: it worked on Mars before (episode 3)". */
function evidenceText(evidence: EpisodicEvidence | undefined, label: (id: number) => string): string {
  if (!evidence) return '';
  const on = evidence.on.length > 0 ? ` on ${evidence.on.slice(0, 3).map(label).join(', ')}` : '';
  return ` recalled: it ${evidence.verdict === 'worked' ? 'worked' : 'did not work'}${on} before (episode ${evidence.episodeId ?? '?'})`;
}

/**
 * The goal's plan for this cycle: its active plan with the steps it cannot take now skipped; a
 * plan that ran out of steps ends, and a goal without a plan gets a new one (attempt = the plans
 * made for it so far), built only from the tools that can work on it now.
 */
function steerPlan(
  context: CycleContext,
  goal: Goal,
  state: ToolState,
  usable: readonly AgentTool[],
  skipped: ReadonlyMap<string, string>,
): PlanSteering | undefined {
  if (usable.length === 0) return undefined;
  const blockedBecause = (tool: string) =>
    skipped.get(tool) ?? (usable.some((candidate) => candidate.name === tool) ? undefined : `there is no tool ${tool}`);
  const active = context.planning?.activePlans.find((plan) => plan.goalId === goal.id);
  let ended: Plan | undefined;
  if (active) {
    const current = skipBlockedSteps(active, blockedBecause, context.cycle);
    if (nextStep(current)) return { plan: current };
    ended = {
      ...current,
      status: 'completed',
      statusReason: 'it ran all its steps; the goal is not met yet, so a new plan is made',
    };
  }
  const made = makePlan(usable, state, goal.plansMade ?? 0);
  // No tool the plan knows for the goal's needs can run: the plain score chooses, and the ended plan waits to be closed.
  if (made.steps.length === 0) return undefined;
  return { plan: { ...made, cycle: context.cycle, createdAt: context.now }, ...(ended ? { ended } : {}) };
}

/** The plan as the cycle log's observation tells it. */
function describeSteering({ plan, ended }: PlanSteering): string {
  const step = nextStep(plan);
  const position = step
    ? `step ${plan.steps.indexOf(step) + 1} of ${plan.steps.length}, ${step.tool} (${step.rationale})`
    : 'no step left';
  const made =
    plan.id === undefined
      ? `new plan: ${plan.strategy}${ended ? ` (plan ${ended.id ?? '?'} ended: ${ended.statusReason})` : ''}; `
      : `plan ${plan.id} attempt ${plan.attempt}: `;
  return `${made}${position}`;
}

/** The symbols a goal is about: a question's are those its reading placed (none while the reader is not loaded). */
export function symbolsOfGoal(
  graph: KnowledgeGraph,
  goal: Goal,
  criteria: Criteria,
  questions: QuestionAnswering | undefined,
): number[] {
  return criteria.kind === 'question'
    ? (questions?.symbolsOf(graph, criteria.question, criteria.chosen) ?? [])
    : goalSymbols(graph, goal, criteria);
}

import { countText, numberText } from '#core/count-text.ts';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { runQuery, triplesOfAnswer } from '#core/kg/query.ts';
import type { SimilarityIndex } from '#core/kg/similarity.ts';
import { spreadActivation } from '#core/kg/traversal.ts';
import type { Psyche } from '#core/records/psyche.ts';
import type { ReadableDocument } from '#core/kg/document.ts';
import type { WebAccess } from '#core/tools/web-access.ts';
import { describeAction, judgeAction } from '#core/psyche/shadow.ts';
import { normaliseForShadow } from '#core/records/trigger-text.ts';
import { type AgentTool, type FactIds, shadowViewOf, type ToolOutcome, type ToolState } from '#core/tools/tool.ts';
import type { ReachableEndpoint } from '#core/records/sparql-endpoint.ts';
import { type Criteria, criteriaOfGoal, factsText, goalSymbols, matchKeywords } from '#core/goals/goal.ts';
import type { Goal } from '#core/records/goal.ts';
import { type EpisodicEvidence, episodicEvidence, recallEpisodes } from '#core/memory/episodes.ts';
import { describeRecallBasis, type RecallBasis } from '#core/memory/embedded-recall.ts';
import type { EmbeddingAccess } from '#core/llm/embedding-cache.ts';
import type { Episode } from '#core/records/episode.ts';
import { consultedEntries, memoryPressure } from '#core/memory/working-memory.ts';
import { DEFAULT_CONSOLIDATION_THRESHOLD, type MemoryEntry } from '#core/records/memory-entry.ts';
import { formatBreakdown, scoreTool } from './score.ts';
import { describeChange, isChangeMade } from '#core/kg/requested-change.ts';
import { asksForNotes, NOTES_PENDING } from '#core/goals/scratch-note.ts';
import { kgMutateActionOf } from '#core/tools/kg-mutate.ts';
import { noteActionOf } from '#core/tools/file-io.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import { makePlan, nextStep, skipBlockedSteps } from './plan.ts';
import type { Plan } from '#core/records/plan.ts';
import type { CycleOutcome, CycleRecord } from '#core/records/cycle.ts';
import type { Answer } from '#core/records/answer.ts';
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

/** A goal keeps at most this many findings. */
export const MAX_FINDINGS = 2000;

/**
 * Evaluates a goal after its tool ran and the graph took in the tool's changes: records the new
 * domain findings, then decides Completed (criteria met), Advanced (a new fact about the goal's
 * symbols) or NoChange, and updates the goal's counters.
 */
export function evaluateGoal(
  graph: KnowledgeGraph,
  decision: Decision,
  outcome: ToolOutcome,
): { goal: Goal; outcome: CycleOutcome; statusChange?: string } {
  const { goal, criteria } = decision;
  const seen = new Set(goal.findings.map(([subject, predicate, object]) => `${subject} ${predicate} ${object}`));
  const findings = [...goal.findings];
  const addFinding = (fact: FactIds) => {
    const key = fact.join(' ');
    if (seen.has(key) || findings.length >= MAX_FINDINGS || graph.isMetadata({ predicate: fact[1] })) return false;
    seen.add(key);
    findings.push(fact);
    return true;
  };
  // A tool that added to the graph may have brought in a symbol the goal names ("Tux", read from a document).
  const goalSymbolSet = new Set(
    outcome.graphChange ? symbolsOfGoal(graph, goal, criteria, decision.questions) : decision.state.goalSymbols,
  );
  let hasAdvanced = false;
  for (const fact of outcome.facts)
    if (addFinding(fact) && (goalSymbolSet.has(fact[0]) || goalSymbolSet.has(fact[2]))) hasAdvanced = true;

  const toolsUsed = [decision.tool.name, ...goal.toolsUsed].slice(0, 20);
  const base: Goal = { ...goal, findings, toolsUsed, cyclesWorked: goal.cyclesWorked + 1 };
  if (!outcome.ok) return { goal: base, outcome: 'failed' };

  let isMet: boolean;
  let metBecause = '';
  if (criteria.kind === 'pattern') {
    const answer = runQuery(graph, criteria.patterns, MAX_FINDINGS);
    isMet = answer.rows.length >= criteria.minCount;
    if (isMet) {
      // The findings of a met pattern are all its answers the graph supports, found or not yet,
      // and they come first: they are what the goal asked for.
      const answers: FactIds[] = answer.rows.flatMap((row) => triplesOfAnswer(graph, criteria.patterns, row));
      const others = findings.splice(0);
      seen.clear();
      for (const fact of [...answers, ...others]) addFinding(fact);
      // The query stops at the findings cap: a cap is never a count.
      metBecause = `${answer.isTruncated ? 'at least ' : ''}${countText(answer.rows.length, 'answer')} to ${criteria.text}, at least ${numberText(criteria.minCount)} needed`;
    }
  } else if (criteria.kind === 'question') {
    if (!decision.questions) throw new Error('a goal that asks a question is evaluated without the question reader');
    const asked = decision.questions.answerOf(graph, criteria.question);
    if (asked.kind === 'none') {
      // The graph cannot answer it; a tool that just changed the graph gets one more look next cycle.
      if (outcome.graphChange)
        return { goal: { ...base, answer: asked }, outcome: hasAdvanced ? 'advanced' : 'no-change' };
      const reason = `no answer: ${asked.reason}`;
      return {
        goal: { ...base, answer: asked, status: 'failed', statusReason: reason },
        outcome: 'failed',
        statusChange: `failed: ${reason}`,
      };
    }
    // The facts the answer stands on come first among the findings: they are what the goal asked for.
    const answerFacts = (asked.proof ?? []) as FactIds[];
    const others = findings.splice(0);
    seen.clear();
    for (const fact of [...answerFacts, ...others]) addFinding(fact);
    base.answer = asked;
    isMet = true;
    metBecause = `answered ${asked.reading}: ${answerSummary(asked)}`;
  } else if (criteria.kind === 'changes') {
    const pending = criteria.changes.filter((change) => !isChangeMade(graph, change));
    isMet = pending.length === 0;
    if (isMet) metBecause = `the graph is as asked: ${criteria.changes.map(describeChange).join('; ')}`;
    else {
      // Only kg_mutate makes the change: once the user denied it, or a hard veto blocks it, nothing will.
      const refusal = refusalOf(goal, kgMutateActionOf(pending));
      if (refusal) {
        const reason = `${refusal} ${pending.map(describeChange).join('; ')}, and no other tool can make the change`;
        return {
          goal: { ...base, status: 'failed', statusReason: reason },
          outcome: 'failed',
          statusChange: `failed: ${reason}`,
        };
      }
    }
  } else {
    // Keywords hold in facts the graph holds, or in sentences of the user's documents a tool quotes
    // as evidence: a word in a tool's summary or a model's prose proves nothing, nor half the words.
    const held = findings.filter(([subject, predicate, object]) => graph.triple(subject, predicate, object));
    const heldText = factsText(graph, held);
    const evidence = outcome.evidence ?? '';
    const match = matchKeywords(goal, criteria.keywords, `${heldText} ${evidence}`);
    isMet = match.isMet;
    if (isMet) {
      // Done, and honest about how: the answer is the facts (or the sentences) that hold the words, no claim to know more.
      const proof = held.filter(
        (fact) => matchKeywords(goal, match.keywords, factsText(graph, [fact])).matched.length > 0,
      );
      const words = match.keywords.join(' and ');
      if (matchKeywords(goal, criteria.keywords, heldText).isMet) {
        const symbols = [...new Set(proof.flatMap(([subject, , object]) => [subject, object]))].filter(
          (id) => graph.symbol(id)?.kind === 'entity',
        );
        base.answer = {
          kind: 'entities',
          entities: symbols.map((symbol) => ({ symbol, label: graph.symbol(symbol)!.label })),
          reading: `facts that mention ${words}`,
          proof,
        };
        const said = proof.slice(0, 3).map((fact) => fact.map((id) => graph.symbol(id)?.label ?? `#${id}`).join(' '));
        metBecause = `found facts that mention ${words}: ${said.join('; ')}${proof.length > 3 ? ` and ${proof.length - 3} more` : ''}`;
      } else {
        base.answer = {
          kind: 'value',
          entities: [],
          value: evidence.slice(0, 2000),
          reading: `what your documents say of ${words}`,
          ...(proof.length > 0 ? { proof } : {}),
        };
        metBecause = `found ${words} in your documents: "${evidence.slice(0, 200)}${evidence.length > 200 ? '…' : ''}"`;
      }
    }
  }
  const notedFindings = outcome.notedFindings ?? goal.notedFindings ?? 0;
  if (isMet && asksForNotes(goal) && findings.length > notedFindings) {
    // A note the psyche or the user will not let it write is not waited for.
    if (refusalOf(goal, noteActionOf(goal.id!)))
      metBecause = `${metBecause}; its notes could not be written (the action was refused)`;
    else
      return {
        goal: { ...base, status: 'active', statusReason: NOTES_PENDING, lastProgressCycle: base.cyclesWorked },
        outcome: 'advanced',
        statusChange: NOTES_PENDING,
      };
  }
  // Progress is counted in the goal's own cycles, the unit its stall threshold is in.
  if (isMet)
    return {
      goal: { ...base, status: 'completed', statusReason: metBecause, lastProgressCycle: base.cyclesWorked },
      outcome: 'completed',
      statusChange: `completed: ${metBecause}`,
    };
  if (hasAdvanced) return { goal: { ...base, lastProgressCycle: base.cyclesWorked }, outcome: 'advanced' };
  return { goal: base, outcome: 'no-change' };
}

/** The symbols a goal is about: a question's are those its reading placed (none while the reader is not loaded). */
function symbolsOfGoal(
  graph: KnowledgeGraph,
  goal: Goal,
  criteria: Criteria,
  questions: QuestionAnswering | undefined,
): number[] {
  return criteria.kind === 'question'
    ? (questions?.symbolsOf(graph, criteria.question) ?? [])
    : goalSymbols(graph, goal, criteria);
}

/** An answer in a few words, for a status reason. */
function answerSummary(answer: Answer): string {
  if (answer.kind === 'boolean') return answer.value ? 'yes' : 'no';
  if (answer.kind === 'count' || answer.kind === 'value') return String(answer.value);
  return `${answer.entities.length} ${answer.entities.length === 1 ? 'answer' : 'answers'}`;
}

/** Who refused a goal an action for good, if anyone: the user (denied) or the psyche (a hard veto). */
function refusalOf(goal: Goal, action: string): 'you denied' | 'the psyche forbids' | undefined {
  if (goal.deniedActions?.includes(action)) return 'you denied';
  return goal.blockedActions?.includes(action) ? 'the psyche forbids' : undefined;
}

/**
 * A stalled goal (no progress for its stall threshold of cycles) is split: its keyword criteria
 * are cut at commas and "and"; the parent waits (suspended) for its children. Criteria that do
 * not split leave the goal as it is (reflection will demote or abandon it).
 */
export function decomposeIfStalled(goal: Goal, now: number): { parent: Goal; children: Goal[] } | undefined {
  if (goal.status !== 'active' || goal.cyclesWorked - goal.lastProgressCycle < goal.stallThreshold) return undefined;
  if (/\?[\p{L}\p{N}_-]/u.test(goal.successCriteria)) return undefined;
  const parts = goal.successCriteria
    .split(/\s*,\s*|\s+and\s+/i)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.length < 2) return undefined;
  const children = parts.map((part): Goal => ({
    sessionId: goal.sessionId,
    description: `${goal.description}: ${part}`,
    successCriteria: part,
    priority: goal.priority,
    status: 'active',
    parentId: goal.id,
    cyclesWorked: 0,
    lastProgressCycle: 0,
    stallThreshold: goal.stallThreshold,
    findings: [],
    toolsUsed: [],
    createdAt: now,
  }));
  return {
    parent: {
      ...goal,
      status: 'suspended',
      statusReason: `stalled for ${goal.stallThreshold} cycles; split into ${parts.length} sub-goals`,
    },
    children,
  };
}

import { bundle, type Hypervector, similarity, textWords, wordHypervector } from '#core/kg/hypervector.ts';
import { runQuery } from '#core/kg/query.ts';
import { LOOKUP_LIMIT } from '#core/tools/kg-query.ts';
import { type AgentTool, domainTriplesAround, factIdsOf, type ToolState } from '#core/tools/tool.ts';
import { factsText, matchKeywords } from '#core/goals/goal.ts';
import { MAX_PLAN_STEPS, NEEDS, type Need, type Plan, type PlanStep, STRATEGY_KEYWORDS } from '#core/records/plan.ts';

/** The tools that serve each need, in the order a plan tries them. */
const TOOLS_FOR_NEED: Record<Need, readonly string[]> = {
  // text_ingest before file_io: facts serve the rules and the criteria, words only keyword goals.
  knowledge: ['kg_query', 'memory_recall', 'text_ingest', 'file_io'],
  reasoning: ['infer_rules', 'reason', 'gap_analysis'],
  creation: ['kg_mutate', 'synthesize_triple'],
  external: ['http_fetch', 'text_ingest', 'file_io'],
  similarity: ['similarity_search', 'synthesize_triple'],
};

/** Why a plan takes each tool. */
const RATIONALE: Record<string, string> = {
  kg_query: 'look up what the graph holds about the goal',
  memory_recall: 'recall what earlier goals learned',
  file_io: 'read what the imported documents say',
  text_ingest: 'turn documents into facts',
  infer_rules: 'derive the facts the rules imply',
  reason: 'prove answers by chains of facts',
  gap_analysis: 'find what the graph is missing',
  kg_mutate: 'make the change the goal asks for',
  synthesize_triple: 'propose facts by analogy',
  http_fetch: "fetch the addresses of the goal's symbols",
  similarity_search: "find the symbols most like the goal's",
};

/** A word is taken for a strategy's keyword when its vector is this similar to the bundle of the strategy's keywords. */
const MEMBERSHIP = 0.56;

const strategyVectors = new Map<Need, Hypervector>();
function strategyVector(need: Need): Hypervector {
  let vector = strategyVectors.get(need);
  if (!vector)
    strategyVectors.set(need, (vector = bundle(STRATEGY_KEYWORDS[need].map((keyword) => wordHypervector(keyword)))));
  return vector;
}

/** "finding" -> "find", "inferred" -> "infer", "lists" -> "list": a crude stem, tried beside the word itself. */
function stem(word: string): string {
  for (const suffix of ['ing', 'ed', 'es', 's'])
    if (word.length > suffix.length + 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  return word;
}

/**
 * What a goal needs, from its words: each word (and its stem) is compared, as a hypervector, with
 * the bundle of each strategy's keywords (seed 002's interference test), so "Find", "finding"
 * and "finds" all show knowledge. A goal that shows no need is taken to need knowledge.
 */
export function needsOf(text: string): { needs: Need[]; words: Partial<Record<Need, string[]>> } {
  const words: Partial<Record<Need, string[]>> = {};
  for (const word of new Set(textWords(text))) {
    const forms = [word, stem(word)].map((form) => wordHypervector(form));
    for (const need of NEEDS) {
      const isMember = forms.some((form) => similarity(form, strategyVector(need)) >= MEMBERSHIP);
      if (isMember) (words[need] ??= []).push(word);
    }
  }
  const needs = NEEDS.filter((need) => words[need] !== undefined);
  return { needs: needs.length > 0 ? needs : ['knowledge'], words };
}

/**
 * A plan for a goal: on even attempts explore first (knowledge tools, then reasoning), on odd
 * attempts reason first; then the tools of the goal's other needs. Only tools that can work on
 * the goal now are planned, each with the input it would take now and why.
 */
export function makePlan(
  tools: readonly AgentTool[],
  state: ToolState,
  attempt: number,
): Omit<Plan, 'id' | 'cycle' | 'createdAt'> {
  const { needs } = needsOf(`${state.goal.description} ${state.goal.successCriteria}`);
  const explored: Need[] = attempt % 2 === 0 ? ['knowledge', 'reasoning'] : ['reasoning', 'knowledge'];
  // A goal that asks for a change to the graph is met only by making it: that comes first.
  const core: Need[] = state.criteria.kind === 'changes' ? ['creation', ...explored] : explored;
  const order = [...core, ...needs.filter((need) => !core.includes(need))];
  const steps: PlanStep[] = [];
  for (const need of order) {
    for (const name of TOOLS_FOR_NEED[need]) {
      if (steps.length >= MAX_PLAN_STEPS || steps.some((step) => step.tool === name)) continue;
      const tool = tools.find((candidate) => candidate.name === name);
      if (!tool || tool.unavailableBecause(state) !== undefined) continue;
      const step: PlanStep = {
        tool: name,
        input: tool.proposeInput(state),
        rationale: `${need}: ${RATIONALE[name] ?? tool.description}`,
        status: 'pending',
      };
      steps.push(name === 'kg_query' ? lookedUpWhilePlanning(step, state) : step);
    }
  }
  const approach = `${state.criteria.kind === 'changes' ? 'change first, then ' : ''}${attempt % 2 === 0 ? 'explore first' : 'reason first'}`;
  const strategy = `${approach} (attempt ${attempt}); needs ${needs.join(', ')}: ${steps.map((step) => step.tool).join(' -> ') || 'no tool can work on it now'}`;
  return { sessionId: state.sessionId, goalId: state.goal.id!, attempt, needs, strategy, steps, status: 'active' };
}

/**
 * The planner does the goal's lookup itself, to see whether a cycle spent on it would help: a
 * pattern's answers are checked against the graph every cycle anyway, and the triples around a
 * keyword goal's symbol help only when they hold its keywords. A lookup that cannot help is
 * done already (with what it saw); one that can stays the plan's first step.
 */
function lookedUpWhilePlanning(step: PlanStep, state: ToolState): PlanStep {
  const { graph, criteria, goal } = state;
  const done = (result: string): PlanStep => ({
    ...step,
    status: 'completed',
    result: `looked up while planning: ${result}`,
  });
  if (criteria.kind === 'pattern') {
    const answers = runQuery(graph, criteria.patterns, criteria.minCount).rows.length;
    const found =
      answers >= criteria.minCount
        ? `${criteria.minCount} or more answers`
        : `${answers} answer${answers === 1 ? '' : 's'}`;
    return done(`${found} to ${criteria.text}, ${criteria.minCount} needed`);
  }
  const { symbol } = step.input as { symbol?: number };
  if (criteria.kind !== 'keywords' || symbol === undefined) return step;
  const around = domainTriplesAround(graph, [symbol], LOOKUP_LIMIT).map(factIdsOf);
  const match = matchKeywords(goal, criteria.keywords, [factsText(graph, [...goal.findings, ...around])]);
  if (match.isMet) return step;
  const missing = match.keywords.filter((keyword) => !match.matched.includes(keyword));
  return done(
    `the ${around.length} triples around ${graph.symbol(symbol)?.label ?? `#${symbol}`} do not hold ${missing.join(', ')}`,
  );
}

/** The step the plan does next, if any is left. */
export function nextStep(plan: Pick<Plan, 'steps'>): PlanStep | undefined {
  return plan.steps.find((step) => step.status === 'pending');
}

/** How a cycle went for the tool it chose, as a plan step sees it. */
export type StepRun = {
  tool: string;
  input: unknown;
  result: 'completed' | 'failed' | 'skipped' | 'waiting';
  summary: string;
  cycle: number;
};

/**
 * The plan after a cycle: the first pending step of the tool that was chosen takes the cycle's
 * result (a step is done when its tool ran for the goal, in or out of turn); a step held for
 * approval stays pending; a failed step fails the plan.
 */
export function advancePlan(plan: Plan, run: StepRun): Plan {
  const { result } = run;
  const index = plan.steps.findIndex((step) => step.status === 'pending' && step.tool === run.tool);
  if (index === -1 || result === 'waiting') return plan;
  const steps = plan.steps.map((step, at): PlanStep =>
    at === index ? { ...step, input: run.input, status: result, result: run.summary, cycle: run.cycle } : step,
  );
  if (result !== 'failed') return { ...plan, steps };
  return { ...plan, steps, status: 'failed', statusReason: `step ${index + 1} (${run.tool}) failed: ${run.summary}` };
}

/**
 * Marks the pending steps at the head of the plan whose tool cannot run now as skipped (with
 * why), so the plan's next step is one that can. Steps further on wait for their turn.
 */
export function skipBlockedSteps(
  plan: Plan,
  blockedBecause: (tool: string) => string | undefined,
  cycle: number,
): Plan {
  const steps = [...plan.steps];
  for (let at = 0; at < steps.length; at++) {
    const step = steps[at]!;
    if (step.status !== 'pending') continue;
    const because = blockedBecause(step.tool);
    if (because === undefined) break;
    steps[at] = { ...step, status: 'skipped', result: because, cycle };
  }
  return { ...plan, steps };
}

/** A step offered from outside the planner (an expander's option): the tool it names, and why. */
export type CandidateStep = { tool: string; rationale: string };

/**
 * The plan with candidate steps added, ranked by the planner, never by whoever offered them: the
 * tools of the goal's needs in the planner's own order first, then the others by name. A tool the
 * plan already has, one that cannot work on the goal now, and any beyond the plan's room are left
 * out. Each step takes the input its tool proposes now.
 */
export function withCandidateSteps(
  plan: Pick<Plan, 'steps'>,
  candidates: readonly CandidateStep[],
  tools: readonly AgentTool[],
  state: ToolState,
): { steps: PlanStep[]; added: string[] } {
  const { needs } = needsOf(`${state.goal.description} ${state.goal.successCriteria}`);
  const order = [...new Set(needs.flatMap((need) => TOOLS_FOR_NEED[need]))];
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  const fresh = candidates.filter(
    (candidate, index) =>
      candidates.findIndex((other) => other.tool === candidate.tool) === index &&
      !plan.steps.some((step) => step.tool === candidate.tool) &&
      tools.some((tool) => tool.name === candidate.tool && tool.unavailableBecause(state) === undefined),
  );
  const ranked = [...fresh]
    .sort((a, b) => rank(a.tool) - rank(b.tool) || a.tool.localeCompare(b.tool))
    .slice(0, Math.max(0, MAX_PLAN_STEPS - plan.steps.length));
  const steps = ranked.map((candidate): PlanStep => ({
    tool: candidate.tool,
    input: tools.find((tool) => tool.name === candidate.tool)!.proposeInput(state),
    rationale: candidate.rationale,
    status: 'pending',
  }));
  return { steps: [...plan.steps, ...steps], added: ranked.map((candidate) => candidate.tool) };
}

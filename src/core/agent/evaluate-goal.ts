import { countText, numberText } from '#core/count-text.ts';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { tripleKey } from '#core/kg/triple.ts';
import { runQuery, triplesOfAnswer } from '#core/kg/query.ts';
import type { FactIds, ToolOutcome, ToolState } from '#core/tools/tool.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { factsText, isSameFacts, matchKeywords } from '#core/goals/goal.ts';
import { type Goal, MAX_FINDINGS } from '#core/records/goal.ts';
import { describeChange, isChangeMade } from '#core/kg/requested-change.ts';
import { asksForNotes, NOTES_PENDING } from '#core/goals/scratch-note.ts';
import { kgMutateActionOf } from '#core/tools/kg-mutate.ts';
import { noteActionOf } from '#core/tools/file-io.ts';
import type { CycleOutcome } from '#core/records/cycle.ts';
import type { Answer } from '#core/records/answer.ts';
import { type Decision, symbolsOfGoal } from './cycle.ts';

/** The agent's own tools that reach beyond the graph (an endpoint, the web the user allowed). */
const OUTSIDE_TOOLS = TOOLS.filter((tool) => tool.capabilities.includes('network'));

/**
 * Whether a tool could still bring in what the graph lacks, as the tools themselves judge it
 * (an endpoint not yet asked, an allowed address the goal's symbols name), or a bound model
 * could call a granted tool server's tool.
 */
function mayLearnFromOutside(state: ToolState): boolean {
  return (
    OUTSIDE_TOOLS.some((tool) => tool.unavailableBecause(state) === undefined) ||
    (state.model !== undefined && (state.serverTools?.length ?? 0) > 0)
  );
}

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
  const findings = [...goal.findings];
  // The keys of the findings, made on the first fact that may be added: most cycles add none
  // (a goal's findings soon reach their cap of 2,000, and a tool's facts then find no room).
  let seenKeys: Set<string> | undefined;
  const keyOf = ([subject, predicate, object]: FactIds) => tripleKey(subject, predicate, object);
  const addFinding = (fact: FactIds) => {
    if (findings.length >= MAX_FINDINGS) return false;
    const key = keyOf(fact);
    const seen = (seenKeys ??= new Set(findings.map(keyOf)));
    if (seen.has(key) || graph.isMetadata({ predicate: fact[1] })) return false;
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
  let asked: Answer | undefined;
  if (criteria.kind === 'question') {
    if (!decision.questions) throw new Error('a goal that asks a question is evaluated without the question reader');
    asked = decision.questions.answerOf(graph, criteria.question, criteria.chosen);
  }
  // A question the graph cannot answer (a word it has no name for, a "not") fails now with the
  // reason, its tool's failure or not: failing plans would only abandon it later, saying less. A
  // tool that just changed the graph gets one more look next cycle.
  if (asked?.kind === 'none') {
    if (outcome.ok && outcome.graphChange)
      return { goal: { ...base, answer: asked }, outcome: hasAdvanced ? 'advanced' : 'no-change' };
    // Where a source beyond the graph may know the word, the plan goes on to ask it; a failed plan counts.
    if (!outcome.ok && mayLearnFromOutside(decision.state))
      return { goal: { ...base, answer: asked }, outcome: 'failed' };
    const reason = `no answer: ${asked.reason}`;
    return {
      goal: { ...base, answer: asked, status: 'failed', statusReason: reason },
      outcome: 'failed',
      statusChange: `failed: ${reason}`,
    };
  }
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
      seenKeys = new Set();
      for (const fact of [...answers, ...others]) addFinding(fact);
      // The query stops at the findings cap: a cap is never a count.
      metBecause = `${answer.isTruncated ? 'at least ' : ''}${countText(answer.rows.length, 'answer')} to ${criteria.text}, at least ${numberText(criteria.minCount)} needed`;
    }
  } else if (asked) {
    // The facts the answer stands on come first among the findings: they are what the goal asked for.
    const answerFacts = (asked.proof ?? []) as FactIds[];
    const others = findings.splice(0);
    seenKeys = new Set();
    for (const fact of [...answerFacts, ...others]) addFinding(fact);
    base.answer = asked;
    metBecause = `answered ${asked.reading}: ${answerSummary(asked)}`;
    const wanted = criteria.kind === 'question' ? criteria.minCount : undefined;
    isMet = wanted === undefined || asked.entities.length >= wanted;
    if (wanted !== undefined) metBecause = `${metBecause}, at least ${numberText(wanted)} asked for`;
    // Fewer answers than asked for: the graph holds no more now, so, like a question it cannot
    // answer, the goal fails with what it found, unless its tool just changed the graph.
    if (!isMet && !(outcome.ok && outcome.graphChange)) {
      const reason = `only ${countText(asked.entities.length, 'answer')} to ${asked.reading}, and ${numberText(wanted!)} were asked for`;
      return {
        goal: { ...base, status: 'failed', statusReason: reason },
        outcome: 'failed',
        statusChange: `failed: ${reason}`,
      };
    }
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
    const held = heldFindings(graph, findings);
    const heldText = factsText(graph, held);
    const evidence = outcome.evidence ?? '';
    const match = matchKeywords(goal, criteria.keywords, [heldText, evidence]);
    isMet = match.isMet;
    if (isMet) {
      // Done, and honest about how: the answer is the facts (or the sentences) that hold the words, no claim to know more.
      const proof = held.filter(
        (fact) => matchKeywords(goal, match.keywords, [factsText(graph, [fact])]).matched.length > 0,
      );
      const words = match.keywords.join(' and ');
      if (matchKeywords(goal, criteria.keywords, [heldText]).isMet) {
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

/** The findings last looked up in a graph, with its removal count then and which were held. */
const lastHeld = new WeakMap<
  KnowledgeGraph,
  { removals: number; ids: number[]; isHeld: boolean[]; isAllHeld: boolean }
>();

/**
 * The findings the graph holds. A goal's findings (up to 2,000) are looked up every cycle, mostly
 * the same: while no triple was removed, one held before at the same place is held still, and
 * when all were, the same findings are held all.
 */
function heldFindings(graph: KnowledgeGraph, findings: readonly FactIds[]): readonly FactIds[] {
  const last = lastHeld.get(graph);
  const before = last?.removals === graph.removalCount ? last : undefined;
  if (before?.isAllHeld && isSameFacts(before.ids, findings)) return findings;
  const ids: number[] = [];
  const isHeld = findings.map(([subject, predicate, object], index) => {
    ids.push(subject, predicate, object);
    const at = 3 * index;
    return (
      (before?.isHeld[index] === true &&
        before.ids[at] === subject &&
        before.ids[at + 1] === predicate &&
        before.ids[at + 2] === object) ||
      graph.positionOf(subject, predicate, object) !== -1
    );
  });
  const isAllHeld = isHeld.every((held) => held);
  lastHeld.set(graph, { removals: graph.removalCount, ids, isHeld, isAllHeld });
  return isAllHeld ? findings : findings.filter((_, index) => isHeld[index]);
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

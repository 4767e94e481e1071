import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { looksLikeQuestion } from '#core/questions/question-form.ts';
import { loadQuestionAnswering } from '#core/questions/load-question-answering.ts';
import type { QuestionAnswering } from '#core/questions/answer-schema.ts';
import type { SimilarityIndex } from '#core/kg/similarity.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { storeGraphDelta } from '#core/store/kg-repository.ts';
import { TOOLS } from '#core/tools/registry.ts';
import {
  byAttention,
  type Decision,
  decide,
  decomposeIfStalled,
  evaluateGoal,
  MAX_FINDINGS,
  type NoToolAvailable,
} from './cycle.ts';
import type { CycleRecord } from '#core/records/cycle.ts';
import type { Approval } from '#core/records/approval.ts';
import { type Rejection, rejectionOf } from '#core/records/rejection.ts';
import type { Job } from '#core/records/job.ts';
import { evolvePsyche } from '#core/psyche/evolve.ts';
import { decisiveVeto, describeAction, judgeAction, type ShadowMatch } from '#core/psyche/shadow.ts';
import { addPsycheVersion, countShadowEncounter, currentPsyche } from '#core/psyche/psyche-store.ts';
import { readWornPersona, wearPersona } from '#core/personas/worn-persona.ts';
import { actionDigest } from '#core/tools/action-digest.ts';
import {
  type AgentTool,
  type DeferredWork,
  type HeldAction,
  shadowViewOf,
  type ToolOutcome,
} from '#core/tools/tool.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import { reachableEndpoints } from '#core/sparql/endpoint-keys.ts';
import { reachableToolServers } from '#core/mcp/server-keys.ts';
import {
  artifactsOfCall,
  grantedServerTools,
  NOT_READ_ONLY,
  serverCallProvenance,
  WAITS_BY_DEFAULT,
} from '#core/tools/server-tool.ts';
import { agentToolName } from '#core/records/tool-server.ts';
import type { ReachableEndpoint } from '#core/records/sparql-endpoint.ts';
import { putArtifacts } from '#core/store/artifact-store.ts';
import type { ReadableDocument } from '#core/kg/document.ts';
import { DEFAULT_WEB_ACCESS, WEB_ACCESS_KEY, webAccessSchema } from '#core/tools/web-access.ts';
import { questionOfDescription, stalledTooLong } from '#core/goals/goal.ts';
import { type Goal, hasGoalEnded } from '#core/records/goal.ts';
import { questionDigest } from './question.ts';
import { type ConsolidationContext, consolidate } from '#core/memory/episodes.ts';
import { type RecallBasis, recallBasis } from '#core/memory/embedded-recall.ts';
import type { EmbeddingAccess } from '#core/llm/embedding-cache.ts';
import type { Episode } from '#core/records/episode.ts';
import { addToMemory, memoryPressure } from '#core/memory/working-memory.ts';
import type { MemoryEntry } from '#core/records/memory-entry.ts';
import { type AgentSettings, settingsOfSession } from '#core/records/agent-settings.ts';
import { advancePlan, type StepRun } from './plan.ts';
import type { Plan } from '#core/records/plan.ts';
import { describeReflection, reflectOn } from './reflection.ts';
import type { Reflection } from '#core/records/reflection.ts';
import { creditsOf } from './tool-credit.ts';
import { runChild } from './child-run.ts';
import { RED_TEAM, REVIEWER } from './postures.ts';
import type { ChildRun, RedTeamFinding } from '#core/records/child-run.ts';
import type { Reading } from '#core/questions/reading-schema.ts';

/**
 * Where a cycle consolidates working memory by itself: halfway between the session's threshold
 * (where memory_consolidate becomes a choice, favoured by the pressure term) and full, so memory
 * never reaches its capacity even when the loop keeps choosing other tools.
 */
export function automaticConsolidationPressure(threshold: number): number {
  return (threshold + 1) / 2;
}

/**
 * Consolidates the working memory entries made before cycle `before` into episodes and removes
 * them, with a provenance record; call inside a transaction over workingMemory, episodes and
 * provenance. Returns the number of episodes made, or undefined at once when there is nothing to
 * consolidate: awaiting an async function that does no database work would let Dexie lose the
 * caller's transaction, and the writes after it would commit on their own (the crash soak found it).
 */
export function consolidateMemory(
  db: AnimaDatabase,
  context: ConsolidationContext & { before: number; entries: readonly MemoryEntry[]; reason: string },
): Promise<number> | undefined {
  const { episodes, consolidated } = consolidate(context.entries, context);
  return episodes.length === 0 ? undefined : storeConsolidation(db, episodes, consolidated, context);
}

async function storeConsolidation(
  db: AnimaDatabase,
  episodes: Episode[],
  consolidated: MemoryEntry[],
  context: { sessionId: string; cycle: number; now: number; reason: string },
): Promise<number> {
  const ids = (await db.episodes.bulkAdd(episodes, { allKeys: true })) as number[];
  await db.workingMemory.bulkDelete(consolidated.map((entry) => entry.id!).filter((id) => id !== undefined));
  await db.provenance.add({
    sessionId: context.sessionId,
    kind: 'consolidation',
    sources: consolidated.map((entry) => `memory:${entry.id}`),
    confidence: 1,
    cycle: context.cycle,
    detail: `${context.reason}: ${consolidated.length} entries became episodes ${ids.join(', ')}`,
    createdAt: context.now,
  });
  return episodes.length;
}

/** What running one cycle needs from the service: storage, the loaded graph and its similarity index, the clock. */
export type CycleDependencies = {
  db: AnimaDatabase;
  sessionId: string;
  graph: KnowledgeGraph;
  similarity: SimilarityIndex;
  now: () => number;
  /** Called after the graph took in the cycle's changes, before they are committed. */
  onGraphApplied?: (delta: Parameters<KnowledgeGraph['apply']>[0]) => void;
  /** The session's documents, with their words (held in memory by the service). */
  documents: readonly ReadableDocument[];
  /** Called when the cycle changed a document (text_ingest marked it read). */
  onDocumentsChanged?: () => void;
  /** The tools the agent has (default: all of them). */
  tools?: readonly AgentTool[];
  /** The language model the run bound (absent: the symbolic engine alone). */
  model?: ModelAccess;
  /** The embedder the session bound (absent: recall and similarity by hypervectors). */
  embeddings?: EmbeddingAccess;
  /** Why the session's embedder could not be bound, said in the cycle log. */
  embedderUnavailable?: string;
  /** The endpoints a run was given by name (the CLI's --endpoint): only these, asked without asking the user, with a key for each where given. */
  runEndpoints?: readonly RunEndpoint[];
  /** A pause: once it fires, the cycle stops before it commits (throwing {@link CycleCancelled}), having written nothing. */
  signal?: AbortSignal;
};

/** Thrown by a cycle paused before its commit: nothing of it was stored, nor applied to the graph. */
export class CycleCancelled extends Error {
  constructor() {
    super('the cycle was paused before it stored anything');
  }
}

/**
 * Lets messages waiting for the worker (a Pause) in, then stops the cycle if one paused it. A
 * cycle's own awaits are mostly microtasks, which let no message in before its commit.
 */
async function stopIfPaused(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return;
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (signal.aborted) throw new CycleCancelled();
}

/** An endpoint a run names, with a key for this run. */
export type RunEndpoint = { name: string; key?: string };

/** The endpoints a cycle may reach: the session's, or only those the run named (which it may ask without asking the user). */
function endpointsOfRun(
  stored: readonly ReachableEndpoint[],
  named: readonly RunEndpoint[] | undefined,
): ReachableEndpoint[] {
  if (!named) return [...stored];
  return stored.flatMap((endpoint) => {
    const given = named.find((candidate) => candidate.name === endpoint.name);
    return given
      ? [{ ...endpoint, ...(given.key !== undefined ? { key: given.key } : {}), mayCallWithoutAsking: true }]
      : [];
  });
}

/** What the shadow made of the chosen action before Act (`ask`: the action waits for the user, held by a veto or by default). */
type ActGate =
  | { kind: 'run'; approval?: Approval }
  | { kind: 'vetoed'; veto: ShadowMatch }
  | { kind: 'ask'; held: HeldAction; isShadow: boolean; digest: string };

/** A veto that asks, as the held action it makes. */
const heldBy = (veto: ShadowMatch, action: { tool: string; input: unknown }): HeldAction => ({
  ...action,
  pattern: veto.pattern.name,
  because: veto.because,
  explanation: veto.pattern.explanation,
});

/**
 * The evidence of an action the shadow stopped: the pattern's allowance was required, its match
 * observed. A hard veto is final; one that asks waits for the user's answer, which a retry cannot give.
 */
function gateRejection(decision: Decision, gate: Exclude<ActGate, { kind: 'run' }>): Rejection {
  const action = describeAction({ tool: decision.tool.name, input: decision.input });
  return rejectionOf(
    'policy_block',
    gate.kind === 'ask' ? `your approval, which ${gate.held.pattern} asks for` : `an action the shadow allows`,
    gate.kind === 'ask'
      ? `${gate.held.pattern} matches ${action}: ${gate.held.because}`
      : `${gate.veto.pattern.name} matches ${action}: ${gate.veto.because}`,
  );
}

/** The question reader, loaded (on first use) when an active goal asks a question. */
export async function questionsFor(goals: readonly Goal[]): Promise<QuestionAnswering | undefined> {
  const asks = goals.some(
    (goal) =>
      goal.status === 'active' &&
      goal.successCriteria.trim() === '' &&
      questionOfDescription(goal.description) !== undefined,
  );
  return asks ? loadQuestionAnswering() : undefined;
}

/**
 * With a model bound, the question of the goal the agent will work on is read by the model (its
 * typed query checked by the graph; refused, the words' reading, which says so) and answered from
 * that reading this cycle; other questions are read from their words. A reviewer child run checks
 * the model's reading against the question and the graph's matches before it is used: a reading
 * it rejects gives way to the words' reading, which says why. A reviewer that stops short (a
 * bottleneck) leaves the graph-checked reading in use, and the cycle log shows it stopped.
 */
async function withModelReading(
  questions: QuestionAnswering | undefined,
  goals: readonly Goal[],
  graph: KnowledgeGraph,
  model: ModelAccess | undefined,
): Promise<{ questions: QuestionAnswering | undefined; children: ChildRun[] }> {
  const next = goals.filter((goal) => goal.status === 'active').sort(byAttention)[0];
  if (!questions || !model || !next || next.successCriteria.trim() !== '' || !looksLikeQuestion(next.description))
    return { questions, children: [] };
  const read = await questions.readWithModel(graph, next.description, model.provider, {
    budget: model.budget,
    ...(model.signal ? { signal: model.signal } : {}),
  });
  if (!read.ok) return { questions, children: [] };
  let reading = read.value;
  const children: ChildRun[] = [];
  if (reading.readBy === 'model') {
    const review = await runChild(model, REVIEWER, {
      purpose: `review the model's reading of "${next.description}"`,
      prompt: readingReviewPrompt(reading),
    });
    children.push(review.run);
    const byWords =
      review.ok && review.value.verdict === 'reject' ? questions.read(graph, next.description) : undefined;
    if (review.ok && byWords?.ok)
      reading = {
        ...byWords.value,
        fallback: `a reviewer rejected the model's reading (${review.value.problems.join('; ')}); read from the words instead`,
      };
  }
  const used = reading;
  return {
    children,
    questions: {
      ...questions,
      answerOf: (current, question) => {
        if (question !== next.description) return questions.answerOf(current, question);
        const answer = questions.answerReading(current, used);
        return used.fallback ? { ...answer, reading: `${answer.reading} (${used.fallback})` } : answer;
      },
    },
  };
}

/** What a reviewer is shown of a model's reading: the question, the reading in words and as a query, and what the question's words matched. */
function readingReviewPrompt(reading: Reading): string {
  const matched = reading.matched.map(
    (match) => `"${match.words}": ${match.symbols.map((symbol) => `${symbol.label} (${symbol.symbol})`).join(', ')}`,
  );
  return [
    `Question: ${reading.question}`,
    `A model read it as: ${reading.text}`,
    `Its query over the graph: ${JSON.stringify(reading.query ?? null)}`,
    matched.length > 0
      ? `The question's words matched:\n${matched.join('\n')}`
      : "The question's words matched nothing.",
    'Does this reading ask what the question asks? Accept it, or reject it naming each problem.',
  ].join('\n');
}

/**
 * With a model bound, a red-team child run looks for breach paths in an action before it waits for
 * the user's approval; what it found (or the bottleneck it stopped at) is kept with the approval.
 */
async function redTeamBeforeApproval(
  model: ModelAccess,
  decision: Decision,
  held: HeldAction,
): Promise<{ finding: RedTeamFinding; run: ChildRun }> {
  const action = describeAction({ tool: decision.tool.name, input: decision.input });
  const view = shadowViewOf(decision.tool, decision.input);
  const outcome = await runChild(
    model,
    RED_TEAM,
    {
      purpose: `look for breach paths in ${decision.tool.name} before it waits for approval`,
      prompt: [
        `Goal: ${decision.goal.description}`,
        `Action: ${action}`,
        `Tool: ${decision.tool.name}, ${decision.tool.description}; danger ${view.danger}; it touches ${view.capabilities.join(', ') || 'nothing'}`,
        `The user's pattern ${held.pattern} holds it for approval: ${held.explanation}`,
        'How could this action breach what the user intends?',
      ].join('\n'),
    },
    decision.state,
  );
  return {
    run: outcome.run,
    finding: outcome.ok ? { breachPaths: outcome.value.breachPaths } : { bottleneck: outcome.bottleneck },
  };
}

/**
 * Runs one Observe-Orient-Decide-Act cycle for the session and commits everything it changed
 * (graph facts with provenance, goals, working memory, approvals, the psyche's counters and
 * evolution, the cycle record, the session's cycle count) in one transaction. Returns undefined
 * when no goal is active. If the commit fails, the in-memory graph may hold the cycle's facts:
 * the caller must reload it (see the service).
 */
export async function runCycle(dependencies: CycleDependencies): Promise<CycleRecord | undefined> {
  const { db, sessionId, graph, similarity, now } = dependencies;
  const { documents, signal } = dependencies;
  const inputs = await readCycleInputs(db, sessionId);
  if (signal?.aborted) throw new CycleCancelled();
  const { session, memory, psyche, approved, settings, finishedJobs } = inputs;
  const cycle = session.cycle + 1;
  const startedAt = now();
  // The tools of the session's tool servers the user granted join the arsenal (a bound model calls them).
  const tools = [...(dependencies.tools ?? TOOLS), ...grantedServerTools(inputs.toolServers)];
  const read = await withModelReading(await questionsFor(inputs.goals), inputs.goals, graph, dependencies.model);
  const { questions } = read;
  const children = [...read.children];
  const sparqlEndpoints = endpointsOfRun(inputs.sparqlEndpoints, dependencies.runEndpoints);
  const recall = await recallOfNextGoal(dependencies, inputs.goals, inputs.episodes);
  const decided = decide({
    ...cycleContextOf(inputs),
    sparqlEndpoints,
    tools,
    sessionId,
    cycle,
    now: startedAt,
    graph,
    similarity,
    documents,
    ...(dependencies.model ? { model: dependencies.model } : {}),
    ...(dependencies.embeddings ? { embeddings: dependencies.embeddings } : {}),
    recall,
    ...(questions ? { questions } : {}),
  });
  if (!decided) return undefined;

  // An action the user approved for this goal takes the place of the choice (or of having none),
  // if its tool is unchanged and can run now; one that cannot run yet stays approved.
  const invalidated: Approval[] = [];
  let decision: Decision | undefined = 'tool' in decided ? decided : undefined;
  let gate: ActGate | undefined;
  // Background work the goal waited for is in: its tool takes it up first, before any choice.
  const taken = takeUpJob(decided, finishedJobs, tools);
  if (taken) {
    decision = taken.decision;
    gate = { kind: 'run' };
  }
  for (const approval of gate ? [] : approved.filter((candidate) => candidate.goalId === decided.goal.id)) {
    const tool = tools.find((candidate) => candidate.name === approval.tool);
    // A hard veto added since the approval still stops the action: the user's psyche spoke last.
    const hardVeto =
      tool &&
      judgeAction(psyche.psyche, shadowViewOf(tool, approval.input)).vetoes.find(
        (match) => !match.pattern.requireApproval,
      );
    if (tool && hardVeto) {
      invalidated.push({
        ...approval,
        status: 'invalidated',
        reason: `the veto pattern ${hardVeto.pattern.name} now forbids it (${hardVeto.because})`,
        decidedAt: startedAt,
      });
      continue;
    }
    if (tool && (await actionDigest(tool, approval.input)) === approval.digest) {
      if (tool.unavailableBecause(decided.state) !== undefined) continue;
      const choice = 'tool' in decided ? ` (the choice was ${decided.record.decide})` : '';
      decision = {
        ...decided,
        tool,
        input: approval.input,
        record: {
          ...decided.record,
          tool: tool.name,
          input: approval.input,
          decide: `${tool.name}: carrying out approved action #${approval.id}${choice}`,
        },
      };
      gate = { kind: 'run', approval };
      break;
    }
    invalidated.push({
      ...approval,
      status: 'invalidated',
      reason: tool
        ? `${approval.tool} changed since it was approved; the agent asks again if it still needs it`
        : `there is no tool ${approval.tool} any more`,
      decidedAt: startedAt,
    });
  }
  if (!decision) return commitIdleCycle(db, decided, invalidated, { sessionId, cycle, startedAt, children });
  if (!gate) {
    const veto = decisiveVeto(judgeAction(psyche.psyche, shadowViewOf(decision.tool, decision.input)));
    const action = { tool: decision.tool.name, input: decision.input };
    const byDefault = decision.tool.waitsForApprovalBecause;
    // A veto that only asks is answered by a setting that says "without asking" (an endpoint marked so);
    // a tool that waits by default (a tool server's not marked read-only) asks with its own reason.
    gate =
      veto && !veto.pattern.requireApproval
        ? { kind: 'vetoed', veto }
        : byDefault !== undefined
          ? {
              kind: 'ask',
              held: { ...action, pattern: NOT_READ_ONLY, because: byDefault, explanation: WAITS_BY_DEFAULT },
              isShadow: false,
              digest: await actionDigest(decision.tool, decision.input),
            }
          : veto && !decision.tool.isPreApproved(decision.input, decision.state)
            ? {
                kind: 'ask',
                held: heldBy(veto, action),
                isShadow: true,
                digest: await actionDigest(decision.tool, decision.input),
              }
            : { kind: 'run' };
  }
  const redTeam =
    gate.kind === 'ask' && dependencies.model
      ? await redTeamBeforeApproval(dependencies.model, decision, gate.held)
      : undefined;
  if (redTeam) children.push(redTeam.run);
  const outcome: ToolOutcome =
    gate.kind !== 'run'
      ? { ok: false, summary: '', facts: [], symbols: [], rejection: gateRejection(decision, gate) }
      : taken
        ? await decision.tool.resume(
            taken.job.status === 'finished'
              ? { ok: true, result: taken.job.result }
              : { ok: false, error: taken.job.error ?? 'it failed, and did not say why' },
            decision.input,
            decision.state,
          )
        : await decision.tool.run(decision.input, decision.state);
  // A call the model asked for inside the tool's run that waits for the user: the goal waits for it.
  const heldTool = outcome.heldAction && tools.find((tool) => tool.name === outcome.heldAction!.tool);
  if (gate.kind === 'run' && outcome.heldAction && heldTool)
    gate = {
      kind: 'ask',
      held: outcome.heldAction,
      isShadow: outcome.heldAction.pattern !== NOT_READ_ONLY,
      digest: await actionDigest(heldTool, outcome.heldAction.input),
    };
  // Hashed before the transaction: IndexedDB does not wait for it.
  const asked =
    outcome.question !== undefined
      ? { question: outcome.question, digest: await questionDigest(decision.tool, outcome.question) }
      : undefined;
  await stopIfPaused(signal);

  return db.transaction(
    'rw',
    [
      db.sessions,
      db.goals,
      db.workingMemory,
      db.episodes,
      db.cycles,
      db.provenance,
      db.symbolChunks,
      db.tripleChunks,
      db.psyches,
      db.approvals,
      db.questions,
      db.documents,
      db.artifacts,
      db.artifactBytes,
      db.plans,
      db.reflections,
      db.jobs,
    ],
    async () => {
      const change = outcome.graphChange;
      if (change) {
        const stored = await storeGraphDelta(db, {
          graph,
          sessionId,
          delta: change.delta,
          provenance: change.provenance,
          now: startedAt,
        });
        graph.apply(stored);
        dependencies.onGraphApplied?.(stored);
      }
      if (invalidated.length > 0) await db.approvals.bulkPut(invalidated);
      if (taken) await db.jobs.put({ ...taken.job, status: 'taken', takenInCycle: cycle });
      if (outcome.ingestedDocument) {
        await db.documents.update(outcome.ingestedDocument.id, {
          ingestedAt: startedAt,
          factsExtracted: outcome.ingestedDocument.facts,
        });
        dependencies.onDocumentsChanged?.();
      }
      for (const call of outcome.serverCalls ?? []) {
        await db.provenance.add(
          serverCallProvenance(call, { sessionId, cycle, createdAt: startedAt, goalId: decision.goal.id! }),
        );
        // What the server gave for the user (images, audio) is the user's to see and download.
        const kept = artifactsOfCall(call);
        if (kept.length > 0)
          await putArtifacts(
            db,
            sessionId,
            {
              tool: agentToolName(call.server, call.tool),
              goalId: decision.goal.id!,
              cycle,
              server: call.server,
              inputDigest: call.inputDigest,
            },
            kept,
            startedAt,
          );
      }
      const common = { db, sessionId, cycle, startedAt };
      const result =
        gate.kind === 'vetoed'
          ? await settleVeto(common, decision, gate.veto)
          : gate.kind === 'ask'
            ? await settleAsk(common, decision, gate, redTeam?.finding)
            : asked
              ? await settleQuestion(common, decision, asked, gate.approval)
              : outcome.deferred
                ? await settleDeferred(common, decision, outcome.deferred, outcome.summary)
                : await settleRun(common, graph, decision, outcome, gate.approval);
      const { record } = result;
      if (outcome.modelUse) record.model = outcome.modelUse;
      if (outcome.rejection) record.rejection = outcome.rejection;
      if (children.length > 0) record.children = children;
      const settled = result.updatedGoals[0]!;
      const stalled = stalledTooLong(settled);
      if (stalled) result.updatedGoals[0] = { ...settled, status: 'abandoned', statusReason: stalled };
      const updatedGoals = decision.plan
        ? await settlePlan(common, decision, gate, outcome, result.updatedGoals, settings.maxFailedPlans)
        : result.updatedGoals;
      const worked = updatedGoals[0]!;
      if (worked.status !== settled.status && (worked.status === 'failed' || worked.status === 'abandoned')) {
        record.outcome = 'failed';
        record.statusChange = `${worked.status}: ${worked.statusReason}`;
        record.act = `${record.act} (${record.statusChange})`;
      }
      if (worked.status === 'abandoned') await recordAbandonment(common, worked);
      const parent = await settleParent(common, worked);
      if (parent) updatedGoals.push(parent);
      await db.goals.bulkPut(updatedGoals);
      // A goal that ended without its plan steering (planning was turned off) leaves no plan active.
      if (!decision.plan && hasGoalEnded(worked.status))
        await endActivePlans(db, decision.goal, `its goal ${worked.status}`);
      await rememberCycle({ ...common, graph }, decision, record, outcome, memory, settings);
      await db.cycles.add(record);
      await db.provenance.add({
        sessionId,
        kind: 'decision',
        sources: [`goal:${decision.goal.id}`, `tool:${decision.tool.name}`],
        confidence: 1,
        cycle,
        detail: `${record.decide} -> ${record.outcome}`,
        createdAt: startedAt,
      });
      if (cycle % settings.reflectionInterval === 0) await reflect({ ...common, graph }, 'interval');
      await db.sessions.update(sessionId, { cycle, updatedAt: startedAt });
      return record;
    },
  );
}

/**
 * How the goal the cycle will work on is compared with the episodes: by the bound embedder (its
 * vectors read before the cycle's transaction, which waits for nothing else), or by hypervectors.
 */
async function recallOfNextGoal(
  dependencies: Pick<CycleDependencies, 'embeddings' | 'embedderUnavailable' | 'model'>,
  goals: readonly Goal[],
  episodes: readonly Episode[],
): Promise<RecallBasis> {
  if (!dependencies.embeddings)
    return dependencies.embedderUnavailable
      ? { by: 'hypervectors', because: `the embedder cannot be had: ${dependencies.embedderUnavailable}` }
      : { by: 'hypervectors' };
  const next = goals.filter((goal) => goal.status === 'active').sort(byAttention)[0];
  if (!next) return { by: 'hypervectors' };
  return recallBasis(dependencies.embeddings, episodes, next.description, dependencies.model?.signal);
}

const OPEN_STATUSES = ['active', 'waiting', 'suspended'] as const;

/**
 * The episodes a cycle recalls from: the latest this many. Reading and scoring them all made every
 * cycle of a long run slower than the one before; `memory_recall` asked by the user searches all.
 */
export const EPISODES_RECALLED_BY_A_CYCLE = 200;

/** What a cycle reads from the database before it decides, in one read transaction. */
export async function readCycleInputs(db: AnimaDatabase, sessionId: string) {
  const [session, goals, memory, episodes, psyche, approved, webAccessSetting, activePlans, finishedJobs] =
    await db.transaction(
      'r',
      [db.sessions, db.goals, db.workingMemory, db.episodes, db.psyches, db.approvals, db.settings, db.plans, db.jobs],
      () =>
        Promise.all([
          db.sessions.get(sessionId),
          // Only the goals still open: an ended goal is never worked on again, and a long run's ended
          // goals (each with its findings) made every cycle slower to read.
          db.goals
            .where('[sessionId+status]')
            .anyOf(OPEN_STATUSES.map((status) => [sessionId, status]))
            .toArray(),
          db.workingMemory.where('sessionId').equals(sessionId).sortBy('id'),
          // Newest first (an index keeps equal keys in id order), put back in id order below.
          db.episodes.where('sessionId').equals(sessionId).reverse().limit(EPISODES_RECALLED_BY_A_CYCLE).toArray(),
          currentPsyche(db, sessionId),
          db.approvals
            .where('status')
            .equals('approved')
            .filter((approval) => approval.sessionId === sessionId)
            .sortBy('id'),
          db.settings.get(WEB_ACCESS_KEY),
          db.plans.where('[sessionId+status]').equals([sessionId, 'active']).toArray(),
          db.jobs
            .where('[sessionId+status]')
            .anyOf([
              [sessionId, 'finished'],
              [sessionId, 'failed'],
            ])
            .sortBy('id'),
        ]),
    );
  if (!session) throw new Error(`no session with id ${sessionId}`);
  // A stored setting that no longer reads (an older shape) allows nothing.
  const webAccess = webAccessSchema.safeParse(webAccessSetting?.value).data ?? DEFAULT_WEB_ACCESS;
  // The worn persona's guardrails join the shadow for this cycle's decisions.
  const worn = session.personaId !== undefined ? await readWornPersona(db, sessionId) : undefined;
  const acting = { ...psyche, psyche: wearPersona(psyche.psyche, worn) };
  const sparqlEndpoints = await reachableEndpoints(db, sessionId);
  const toolServers = await reachableToolServers(db, sessionId);
  return {
    toolServers,
    session,
    goals,
    memory,
    episodes: episodes.reverse(),
    psyche: acting,
    approved,
    webAccess,
    sparqlEndpoints,
    settings: settingsOfSession(session),
    activePlans,
    finishedJobs,
  };
}

/** The parts of decide's context that come from those inputs. */
export function cycleContextOf(
  inputs: Pick<
    Awaited<ReturnType<typeof readCycleInputs>>,
    'goals' | 'memory' | 'episodes' | 'psyche' | 'webAccess' | 'settings' | 'activePlans'
  > & { sparqlEndpoints?: readonly ReachableEndpoint[] },
) {
  return {
    ...(inputs.settings.planning ? { planning: { activePlans: inputs.activePlans } } : {}),
    goals: inputs.goals,
    memoryEntryCount: inputs.memory.length,
    memoryCapacity: inputs.settings.memoryCapacity,
    memoryEntries: inputs.memory,
    consolidationThreshold: inputs.settings.consolidationThreshold,
    episodes: inputs.episodes,
    webAccess: inputs.webAccess,
    ...(inputs.sparqlEndpoints ? { sparqlEndpoints: inputs.sparqlEndpoints } : {}),
    // Node (the CLI) has no navigator: it tries, and a failed fetch says why.
    isOnline: (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine ?? true,
    tools: TOOLS,
    psyche: inputs.psyche.psyche,
  };
}

export type CommitContext = {
  db: AnimaDatabase;
  sessionId: string;
  cycle: number;
  startedAt: number;
  /** Names symbols in the episodes a consolidation writes. */ graph?: KnowledgeGraph;
};
type Settled = { record: CycleRecord; updatedGoals: Goal[] };

/** The tool ran: the goal is evaluated, maybe split. */
async function settleRun(
  context: CommitContext,
  graph: KnowledgeGraph,
  decision: Decision,
  outcome: ToolOutcome,
  approval: Approval | undefined,
): Promise<Settled> {
  const { db, sessionId, cycle, startedAt } = context;
  const evaluated = evaluateGoal(graph, decision, outcome);
  if (outcome.fetchedUrl !== undefined)
    evaluated.goal.fetchedUrls = [...(evaluated.goal.fetchedUrls ?? []), outcome.fetchedUrl].slice(-50);
  const change = outcome.graphChange;
  if (change?.inferredAtTripleCount !== undefined) evaluated.goal.inferredAtTripleCount = change.inferredAtTripleCount;
  if (outcome.artifacts && outcome.artifacts.length > 0)
    await putArtifacts(
      db,
      sessionId,
      { ...outcome.artifactOrigin, tool: decision.tool.name, goalId: decision.goal.id!, cycle },
      outcome.artifacts,
      startedAt,
    );
  if (outcome.notedFindings !== undefined) evaluated.goal.notedFindings = outcome.notedFindings;
  const updatedGoals: Goal[] = [evaluated.goal];
  let statusChange = evaluated.statusChange;
  const split = decomposeIfStalled(evaluated.goal, startedAt);
  if (split) {
    updatedGoals[0] = split.parent;
    updatedGoals.push(...split.children);
    statusChange = split.parent.statusReason;
    await db.provenance.add({
      sessionId,
      kind: 'decomposition',
      sources: [`goal:${split.parent.id}`],
      confidence: 1,
      cycle,
      detail: `${split.parent.description}: ${split.parent.statusReason}: ${split.children.map((child) => child.successCriteria).join(' | ')}`,
      createdAt: startedAt,
    });
  }
  if (approval) await db.approvals.put({ ...approval, status: 'done', doneInCycle: cycle });
  const act = `${outcome.summary} -> ${evaluated.outcome}${statusChange ? ` (${statusChange})` : ''}`;
  return {
    record: { ...decision.record, act, outcome: evaluated.outcome, ...(statusChange ? { statusChange } : {}) },
    updatedGoals,
  };
}

/** What a goal keeps of a cycle in which its action did not run: a worked cycle, the tool's recency, the action blocked. */
function goalAfterGate(decision: Decision, action: string, status?: Pick<Goal, 'status' | 'statusReason'>): Goal {
  const { goal } = decision;
  const blockedActions = [action, ...(goal.blockedActions ?? []).filter((blocked) => blocked !== action)].slice(
    0,
    MAX_BLOCKED_ACTIONS,
  );
  return {
    ...goal,
    ...status,
    cyclesWorked: goal.cyclesWorked + 1,
    toolsUsed: [decision.tool.name, ...goal.toolsUsed].slice(0, 20),
    blockedActions,
  };
}

const MAX_BLOCKED_ACTIONS = 50;

/** A hard veto: the action never runs; provenance, an encounter, and the goal leaves that action out from now on. */
async function settleVeto(context: CommitContext, decision: Decision, veto: ShadowMatch): Promise<Settled> {
  const { db, sessionId, cycle, startedAt } = context;
  const action = describeAction({ tool: decision.tool.name, input: decision.input });
  await countShadowEncounter(db, sessionId, startedAt);
  const provenanceId = await db.provenance.add({
    sessionId,
    kind: 'shadow-veto',
    sources: [`goal:${decision.goal.id}`, `tool:${decision.tool.name}`, `pattern:${veto.pattern.name}`],
    confidence: 1,
    cycle,
    detail: `${veto.pattern.name} vetoed ${action}: ${veto.because}. ${veto.pattern.explanation}`,
    createdAt: startedAt,
  });
  const act = `vetoed by ${veto.pattern.name} (${veto.because}): ${veto.pattern.explanation} -> failed`;
  return {
    record: {
      ...decision.record,
      act,
      outcome: 'failed',
      shadow: { pattern: veto.pattern.name, because: veto.because, provenanceId: provenanceId as number },
    },
    updatedGoals: [goalAfterGate(decision, action)],
  };
}

/**
 * An action that waits for the user (a veto that asks, or a tool that waits by default): it is
 * stored for the user's approval, and its goal waits. Only the shadow's holds are encounters.
 */
async function settleAsk(
  context: CommitContext,
  decision: Decision,
  { held, isShadow, digest }: Extract<ActGate, { kind: 'ask' }>,
  redTeam: RedTeamFinding | undefined,
): Promise<Settled> {
  const { db, sessionId, cycle, startedAt } = context;
  const action = describeAction(held);
  const veto = { pattern: { name: held.pattern, explanation: held.explanation }, because: held.because };
  if (isShadow) await countShadowEncounter(db, sessionId, startedAt);
  const approvalId = (await db.approvals.add({
    sessionId,
    goalId: decision.goal.id!,
    cycle,
    tool: held.tool,
    input: held.input,
    digest,
    pattern: held.pattern,
    because: held.because,
    explanation: held.explanation,
    status: 'pending',
    createdAt: startedAt,
    ...(redTeam ? { redTeam } : {}),
  })) as number;
  const provenanceId = await db.provenance.add({
    sessionId,
    kind: 'approval-request',
    sources: [
      `goal:${decision.goal.id}`,
      `tool:${held.tool}`,
      `pattern:${veto.pattern.name}`,
      `approval:${approvalId}`,
    ],
    confidence: 1,
    cycle,
    detail: `${veto.pattern.name} holds ${action} for approval: ${veto.because}. ${veto.pattern.explanation}`,
    createdAt: startedAt,
  });
  const statusReason = `waiting for your approval of ${held.tool} (approval #${approvalId}): ${veto.pattern.explanation}`;
  const { goal } = decision;
  return {
    record: {
      ...decision.record,
      act: `held for approval #${approvalId} by ${veto.pattern.name} (${veto.because}) -> waiting`,
      outcome: 'waiting',
      statusChange: statusReason,
      shadow: { pattern: veto.pattern.name, because: veto.because, provenanceId: provenanceId as number, approvalId },
    },
    updatedGoals: [{ ...goal, status: 'waiting', statusReason, cyclesWorked: goal.cyclesWorked + 1 }],
  };
}

/**
 * The goal's background work is in (finished or failed): its tool takes it up in this cycle with
 * the input it deferred it with, whatever the score would choose. A job whose tool is gone is
 * taken up by no tool: the goal goes on.
 */
function takeUpJob(
  decided: Decision | NoToolAvailable,
  finishedJobs: readonly Job[],
  tools: readonly AgentTool[],
): { job: Job; decision: Decision } | undefined {
  const job = finishedJobs.find((candidate) => candidate.goalId === decided.goal.id);
  const tool = job && tools.find((candidate) => candidate.name === job.tool);
  if (!job || !tool) return undefined;
  const choice = 'tool' in decided ? ` (the choice was ${decided.record.decide})` : '';
  return {
    job,
    decision: {
      ...decided,
      tool,
      input: job.input,
      record: {
        ...decided.record,
        tool: tool.name,
        input: job.input,
        decide: `${tool.name}: taking up background job #${job.id} (${job.what}), ${job.status}${choice}`,
      },
    },
  };
}

/** The tool deferred work: the job is stored, to run in the background, and the goal waits for it. */
async function settleDeferred(
  context: CommitContext,
  decision: Decision,
  deferred: DeferredWork,
  summary: string,
): Promise<Settled> {
  const { db, sessionId, cycle, startedAt } = context;
  const jobId = (await db.jobs.add({
    sessionId,
    goalId: decision.goal.id!,
    cycle,
    tool: decision.tool.name,
    input: decision.input,
    kind: deferred.kind,
    work: deferred.work,
    what: deferred.what,
    status: 'queued',
    attempts: 0,
    createdAt: startedAt,
  })) as number;
  await db.provenance.add({
    sessionId,
    kind: 'background-job',
    sources: [`goal:${decision.goal.id}`, `tool:${decision.tool.name}`, `job:${jobId}`],
    confidence: 1,
    cycle,
    detail: `${decision.tool.name} deferred ${deferred.what} to background job #${jobId}`,
    createdAt: startedAt,
  });
  const { goal } = decision;
  const statusReason = `waiting for background job #${jobId}: ${deferred.what}`;
  return {
    record: {
      ...decision.record,
      act: `${summary === '' ? '' : `${summary}; `}deferred ${deferred.what} to background job #${jobId} -> waiting`,
      outcome: 'waiting',
      statusChange: statusReason,
    },
    updatedGoals: [
      {
        ...goal,
        status: 'waiting',
        statusReason,
        waitingForJob: jobId,
        cyclesWorked: goal.cyclesWorked + 1,
        toolsUsed: [decision.tool.name, ...goal.toolsUsed].slice(0, 20),
      },
    ],
  };
}

/** The tool asked the user: the question is stored, bound to the tool's definition, before anyone sees it, and the goal waits for the answer. */
async function settleQuestion(
  context: CommitContext,
  decision: Decision,
  asked: { question: string; digest: string },
  approval: Approval | undefined,
): Promise<Settled> {
  const { db, sessionId, cycle, startedAt } = context;
  const { question } = asked;
  const questionId = (await db.questions.add({
    sessionId,
    goalId: decision.goal.id!,
    cycle,
    question,
    digest: asked.digest,
    status: 'pending',
    createdAt: startedAt,
  })) as number;
  if (approval) await db.approvals.put({ ...approval, status: 'done', doneInCycle: cycle });
  await db.provenance.add({
    sessionId,
    kind: 'question',
    sources: [`goal:${decision.goal.id}`, `question:${questionId}`],
    confidence: 1,
    cycle,
    detail: question,
    createdAt: startedAt,
  });
  const { goal } = decision;
  const cyclesWorked = goal.cyclesWorked + 1;
  const statusReason = `waiting for your answer to question #${questionId}`;
  return {
    record: {
      ...decision.record,
      act: `asked question #${questionId}: ${question} -> waiting`,
      outcome: 'waiting',
      statusChange: statusReason,
    },
    updatedGoals: [
      {
        ...goal,
        status: 'waiting',
        statusReason,
        cyclesWorked,
        askedAtCycle: cyclesWorked,
        toolsUsed: [decision.tool.name, ...goal.toolsUsed].slice(0, 20),
      },
    ],
  };
}

/**
 * The cycle's memory work, in its transaction: memory_consolidate's move into episodes (what the
 * loop chose), the uses of what the decision consulted (entries and episodes), then the cycle's
 * observation, decision and action enter working memory (the weakest entries make room, with
 * provenance), and past the automatic pressure, the earlier entries become episodes.
 */
async function rememberCycle(
  context: CommitContext,
  decision: Decision,
  record: CycleRecord,
  outcome: ToolOutcome,
  memory: MemoryEntry[],
  settings: AgentSettings,
): Promise<void> {
  const { db, sessionId, cycle, startedAt } = context;
  const label = labelOf(context);
  let held = memory;
  if (outcome.consolidation) {
    const consolidating = consolidateMemory(db, {
      sessionId,
      cycle,
      now: startedAt,
      before: cycle,
      entries: held,
      reason: `memory_consolidate at ${Math.round(memoryPressure(held.length, settings.memoryCapacity) * 100)}% full`,
      ...(label ? { label } : {}),
    });
    if (consolidating) await consolidating;
    held = [];
  }
  const consulted = new Set(decision.consulted?.entryIds ?? []);
  const used = held.filter((memoryEntry) => memoryEntry.id !== undefined && consulted.has(memoryEntry.id));
  if (used.length > 0) {
    for (const memoryEntry of used) memoryEntry.referenceCount += 1;
    await db.workingMemory.bulkPut(used);
  }
  for (const episodeId of decision.consulted?.episodeIds ?? [])
    await db.episodes
      .where('id')
      .equals(episodeId)
      .modify((episode) => void (episode.recalls = (episode.recalls ?? 0) + 1));
  const succeeded = record.outcome === 'completed' || record.outcome === 'advanced';
  const entry = (kind: MemoryEntry['kind'], content: string, symbols: number[], relevance: number): MemoryEntry => ({
    sessionId,
    content,
    symbols,
    kind,
    timestamp: startedAt,
    relevance,
    sourceCycle: cycle,
    referenceCount: 0,
    goalId: decision.goal.id,
    ...(kind === 'action' ? { tool: decision.tool.name, succeeded } : {}),
  });
  const goalSymbols = decision.state.goalSymbols.slice(0, 20);
  const newEntries = [
    entry('observation', record.observe, goalSymbols, 0.3),
    entry('decision', `chose ${record.decide}`, [], 0.4),
    // The action is about the goal's symbols too: what it tried them with, and how it went, is what an episode keeps.
    entry('action', record.act, [...new Set([...goalSymbols, ...outcome.symbols])].slice(0, 50), succeeded ? 0.8 : 0.4),
  ];
  const { evicted } = addToMemory(held, newEntries, settings.memoryCapacity);
  const evictedStored = evicted.filter((memoryEntry) => memoryEntry.id !== undefined);
  await db.workingMemory.bulkDelete(evictedStored.map((memoryEntry) => memoryEntry.id!));
  if (evicted.length > 0)
    await db.provenance.add({
      sessionId,
      kind: 'eviction',
      sources: evicted.map((memoryEntry) =>
        memoryEntry.id !== undefined ? `memory:${memoryEntry.id}` : `memory:new:${memoryEntry.kind}`,
      ),
      confidence: 1,
      cycle,
      detail: `working memory full: evicted ${evicted.length} entries holding it least (low relevance, seldom used, old): ${evicted.map((memoryEntry) => memoryEntry.content.slice(0, 60)).join(' | ')}`,
      createdAt: startedAt,
    });
  // A new entry weaker than everything already held may be evicted at once: it is then not stored.
  await db.workingMemory.bulkAdd(newEntries.filter((memoryEntry) => !evicted.includes(memoryEntry)));
  const now = await db.workingMemory.where('sessionId').equals(sessionId).toArray();
  const automatic = automaticConsolidationPressure(settings.consolidationThreshold);
  if (memoryPressure(now.length, settings.memoryCapacity) >= automatic) {
    const consolidating = consolidateMemory(db, {
      sessionId,
      cycle,
      now: startedAt,
      before: cycle,
      entries: now,
      reason: `working memory ${Math.round(automatic * 100)}% full`,
      ...(label ? { label } : {}),
    });
    if (consolidating) await consolidating;
  }
}

/** How a consolidation names symbols, when the graph is at hand. */
function labelOf(context: CommitContext): ((symbolId: number) => string) | undefined {
  const { graph } = context;
  return graph ? (symbolId) => graph.symbol(symbolId)?.label ?? `#${symbolId}` : undefined;
}

/**
 * The plan after the cycle: its step takes the cycle's result, a plan the cycle ended or made is
 * stored (a new one counted on its goal), and a failed plan is counted; once `maxFailedPlans`
 * failed, the goal is abandoned, with the reason. A plan ends with its goal.
 */
async function settlePlan(
  context: CommitContext,
  decision: Decision,
  gate: ActGate,
  outcome: ToolOutcome,
  updatedGoals: Goal[],
  maxFailedPlans: number,
): Promise<Goal[]> {
  const { db, cycle } = context;
  const steering = decision.plan!;
  const step: Pick<StepRun, 'result' | 'summary'> =
    gate.kind === 'vetoed'
      ? { result: 'skipped', summary: `vetoed by ${gate.veto.pattern.name} (${gate.veto.because})` }
      : gate.kind === 'ask' || outcome.deferred
        ? { result: 'waiting', summary: '' }
        : outcome.question !== undefined
          ? { result: 'completed', summary: `asked: ${outcome.question}` }
          : { result: outcome.ok ? 'completed' : 'failed', summary: outcome.summary };
  let plan: Plan = advancePlan(steering.plan, { ...step, tool: decision.tool.name, input: decision.input, cycle });
  let goal = updatedGoals[0]!;
  if (steering.ended) await db.plans.put(steering.ended);
  if (steering.plan.id === undefined) goal = { ...goal, plansMade: (decision.goal.plansMade ?? 0) + 1 };
  if (plan.status === 'failed') {
    const plansFailed = (goal.plansFailed ?? 0) + 1;
    goal = { ...goal, plansFailed };
    if (plansFailed >= maxFailedPlans && (goal.status === 'active' || goal.status === 'suspended'))
      goal = {
        ...goal,
        status: 'abandoned',
        statusReason: `${plansFailed} of its plans failed (the limit is ${maxFailedPlans}); the last: ${plan.statusReason}`,
      };
  } else if (goal.status === 'completed') plan = { ...plan, status: 'completed', statusReason: 'its goal is met' };
  else if (goal.status === 'failed')
    plan = { ...plan, status: 'failed', statusReason: `its goal failed: ${goal.statusReason ?? ''}` };
  else if (goal.status === 'abandoned')
    plan = { ...plan, status: 'failed', statusReason: `its goal was abandoned: ${goal.statusReason ?? ''}` };
  await db.plans.put(plan);
  return [goal, ...updatedGoals.slice(1)];
}

/**
 * The agent gave up on a goal (seed 000: an abandoned goal is a shadow encounter): a provenance
 * record with the reason, and an encounter counted on the psyche, which grows individuation at
 * the next evolution. Call inside the cycle's transaction.
 */
async function recordAbandonment(context: CommitContext, goal: Goal): Promise<void> {
  const { db, sessionId, cycle, startedAt } = context;
  await countShadowEncounter(db, sessionId, startedAt);
  await db.provenance.add({
    sessionId,
    kind: 'abandonment',
    sources: [`goal:${goal.id}`],
    confidence: 1,
    cycle,
    detail: `abandoned "${goal.description}": ${goal.statusReason ?? ''}`,
    createdAt: startedAt,
  });
}

/**
 * A parent waits (suspended) for the sub-goals it was split into. Once a child ends and all its
 * siblings have ended too, the parent resumes when they all completed, taking in what they found;
 * when any failed or was abandoned, the parent is abandoned: it was split because it stalled, so
 * resuming it would only stall (and split) again.
 */
export async function settleParent(context: CommitContext, child: Goal): Promise<Goal | undefined> {
  if (child.parentId === undefined || !hasGoalEnded(child.status)) return undefined;
  // Read here, not with the cycle's inputs: those hold only the goals still open, and ended siblings count too.
  const [parent, siblings] = await Promise.all([
    context.db.goals.get(child.parentId),
    context.db.goals.where('parentId').equals(child.parentId).toArray(),
  ]);
  const children = [...siblings.filter((goal) => goal.id !== child.id), child];
  if (!parent || parent.status !== 'suspended' || !children.every((sibling) => hasGoalEnded(sibling.status)))
    return undefined;
  const unmet = children.filter((sibling) => sibling.status !== 'completed');
  if (unmet.length > 0) {
    const statusReason = `its sub-goals did not all complete: ${unmet.map((sibling) => `#${sibling.id} ${sibling.status} (${sibling.statusReason ?? 'no reason given'})`).join('; ')}`;
    const abandoned: Goal = { ...parent, status: 'abandoned', statusReason };
    await recordAbandonment(context, abandoned);
    await endActivePlans(context.db, parent, `its goal was abandoned: ${statusReason}`);
    return abandoned;
  }
  // The parent takes in what its children found: its own criteria are judged on all of it.
  const known = new Set(parent.findings.map((fact) => fact.join(' ')));
  const inherited = children
    .flatMap((sibling) => sibling.findings)
    .filter((fact) => {
      const key = fact.join(' ');
      if (known.has(key)) return false;
      known.add(key);
      return true;
    });
  return {
    ...parent,
    status: 'active',
    statusReason: 'its sub-goals are complete',
    lastProgressCycle: parent.cyclesWorked,
    findings: [...parent.findings, ...inherited].slice(0, MAX_FINDINGS),
  };
}

/** Ends a goal's active plans (its goal ended, or was cancelled), with why; call inside a transaction over plans. */
export async function endActivePlans(
  db: AnimaDatabase,
  goal: Pick<Goal, 'id' | 'sessionId'>,
  reason: string,
): Promise<void> {
  await db.plans
    .where('[sessionId+status]')
    .equals([goal.sessionId, 'active'])
    .filter((plan) => plan.goalId === goal.id)
    .modify({ status: 'superseded', statusReason: reason });
}

/**
 * Reflects on the cycles since the last reflection (see reflection.ts), applies the adjustments
 * (priorities, re-planning, consolidation), then evolves the psyche; stores the reflection with a
 * provenance record. Call inside a transaction over the tables it writes.
 */
export async function reflect(context: CommitContext, trigger: Reflection['trigger']): Promise<Reflection> {
  const { db, sessionId, cycle, startedAt } = context;
  const last = await db.reflections
    .where('[sessionId+cycle]')
    .between([sessionId, 0], [sessionId, cycle], true, true)
    .last();
  const sinceCycle = last?.cycle ?? 0;
  const [cycles, goals, memory] = await Promise.all([
    db.cycles
      .where('[sessionId+cycle]')
      .between([sessionId, sinceCycle + 1], [sessionId, cycle], true, true)
      .toArray(),
    db.goals.where('sessionId').equals(sessionId).toArray(),
    db.workingMemory.where('sessionId').equals(sessionId).toArray(),
  ]);
  const settings = settingsOfSession((await db.sessions.get(sessionId)) ?? {});
  const seen = reflectOn({ cycles, goals, memoryEntryCount: memory.length, memoryCapacity: settings.memoryCapacity });
  const label = labelOf(context);
  for (const adjustment of seen.adjustments) {
    const goal = goals.find((candidate) => candidate.id === adjustment.goalId);
    if ((adjustment.kind === 'boost' || adjustment.kind === 'demote') && goal)
      await db.goals.update(goal.id!, { priority: adjustment.to! });
    if (adjustment.kind === 'replan' && goal)
      await endActivePlans(db, goal, `reflection at cycle ${cycle}: ${adjustment.reason}`);
    if (adjustment.kind === 'consolidate') {
      const consolidating = consolidateMemory(db, {
        sessionId,
        cycle,
        now: startedAt,
        before: cycle,
        entries: memory,
        reason: `reflection at cycle ${cycle}`,
        ...(label ? { label } : {}),
      });
      if (consolidating) await consolidating;
    }
  }
  const evolved = await evolveAtReflection(context);
  const reflection: Reflection = {
    sessionId,
    cycle,
    trigger,
    sinceCycle,
    ...seen,
    psycheChanges: evolved?.changes ?? [],
    ...(evolved ? { psycheVersion: evolved.version } : {}),
    createdAt: startedAt,
  };
  reflection.id = (await db.reflections.add(reflection)) as number;
  await db.provenance.add({
    sessionId,
    kind: 'reflection',
    sources: [
      `reflection:${reflection.id}`,
      ...new Set(
        seen.adjustments.flatMap((adjustment) =>
          adjustment.goalId !== undefined ? [`goal:${adjustment.goalId}`] : [],
        ),
      ),
    ],
    confidence: 1,
    cycle,
    detail: describeReflection(reflection),
    createdAt: startedAt,
  });
  return reflection;
}

/**
 * Reflection's psyche step: the tools' success since the last evolution (a use succeeds when its
 * goal advanced or completed, or when it prepared what a later cycle found: see tool-credit.ts;
 * it fails when the tool failed; actions the shadow stopped did not run and do not count) moves the
 * archetypes, encounters grow individuation. A change is a new psyche version with provenance.
 */
async function evolveAtReflection(context: CommitContext): Promise<{ changes: string[]; version: number } | undefined> {
  const { db, sessionId, cycle, startedAt } = context;
  const current = await currentPsyche(db, sessionId);
  const since = current.psyche.selfIntegration.lastEvolutionCycle;
  const window = await db.cycles
    .where('[sessionId+cycle]')
    .between([sessionId, since + 1], [sessionId, cycle], true, true)
    .toArray();
  const archetypeOf = new Map(TOOLS.map((tool) => [tool.name, tool.archetype]));
  const ran = window.filter((record) => record.tool !== 'none' && record.shadow === undefined);
  const credits = creditsOf(ran);
  const uses = ran.map((record, index) => ({
    tool: record.tool,
    archetype: archetypeOf.get(record.tool),
    result:
      record.outcome === 'advanced' || record.outcome === 'completed'
        ? ('succeeded' as const)
        : record.outcome === 'failed'
          ? ('failed' as const)
          : ('no-change' as const),
    ...(credits[index] !== undefined ? { credit: credits[index] } : {}),
  }));
  const { psyche, changes } = evolvePsyche(current.psyche, uses, cycle);
  if (changes.length === 0) {
    // Nothing moved: the window still closes, on the current version, without a new one (the
    // default is stored as version 1 for that, or every reflection would read all cycles again).
    if (current.id !== undefined) await db.psyches.put({ ...current, psyche });
    else await db.psyches.add({ ...current, version: 1, psyche, createdAt: startedAt });
    return undefined;
  }
  const version = await addPsycheVersion(db, {
    sessionId,
    psyche,
    cycle,
    reason: `evolution at cycle ${cycle}: ${changes.join('; ')}`,
    now: startedAt,
  });
  await db.provenance.add({
    sessionId,
    kind: 'psyche-change',
    sources: [`psyche:${version.version}`],
    confidence: 1,
    cycle,
    detail: version.reason,
    createdAt: startedAt,
  });
  return { changes, version: version.version };
}

/**
 * When no tool can work on the goal, looping would only repeat that: the goal is suspended with
 * every tool's reason (the user can resume it once something changed), in a recorded cycle.
 */
async function commitIdleCycle(
  db: AnimaDatabase,
  idle: NoToolAvailable,
  invalidated: readonly Approval[],
  context: { sessionId: string; cycle: number; startedAt: number; children: readonly ChildRun[] },
): Promise<CycleRecord> {
  const reasons = idle.record.candidates
    .map((candidate) => `${candidate.tool}: ${candidate.skippedBecause}`)
    .join('; ');
  const statusChange = `suspended: no tool can work on it now (${reasons})`;
  const record: CycleRecord = {
    ...idle.record,
    tool: 'none',
    input: null,
    act: `nothing to do -> failed (${statusChange})`,
    outcome: 'failed',
    statusChange,
    ...(context.children.length > 0 ? { children: [...context.children] } : {}),
  };
  await db.transaction('rw', [db.sessions, db.goals, db.cycles, db.provenance, db.approvals], async () => {
    if (invalidated.length > 0) await db.approvals.bulkPut(invalidated);
    await db.goals.put({
      ...idle.goal,
      status: 'suspended',
      statusReason: statusChange,
      cyclesWorked: idle.goal.cyclesWorked + 1,
    });
    await db.cycles.add(record);
    await db.provenance.add({
      sessionId: context.sessionId,
      kind: 'decision',
      sources: [`goal:${idle.goal.id}`],
      confidence: 1,
      cycle: context.cycle,
      detail: record.act,
      createdAt: context.startedAt,
    });
    await db.sessions.update(context.sessionId, { cycle: context.cycle, updatedAt: context.startedAt });
  });
  return record;
}

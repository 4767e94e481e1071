import { yieldToEvents } from '#core/kg/slice.ts';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { SimilarityIndex } from '#core/kg/similarity.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { writeGraphDelta } from '#core/store/kg-repository.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { type Decision, decide, type NoToolAvailable } from './cycle.ts';
import type { CycleRecord } from '#core/records/cycle.ts';
import type { Approval } from '#core/records/approval.ts';
import { decisiveVeto, judgeAction } from '#core/psyche/shadow.ts';
import { actionDigest } from '#core/tools/action-digest.ts';
import { type AgentTool, shadowViewOf, type ToolOutcome } from '#core/tools/tool.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
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
import { stalledTooLong } from '#core/goals/goal.ts';
import { hasGoalEnded } from '#core/records/goal.ts';
import { questionDigest } from './question.ts';
import type { EmbeddingAccess } from '#core/llm/embedding-cache.ts';
import { type ActGate, heldBy, gateRejection, settleVeto, settleAsk } from './act-gate.ts';
import { questionsFor, withModelReading, redTeamBeforeApproval } from './cycle-child-runs.ts';
import { reviewModelFacts } from './fact-review.ts';
import { expandReplan } from './plan-expansion.ts';
import { repairFromTraces } from './input-repair.ts';
import { recallOfNextGoal, readCycleInputs, cycleContextOf } from './cycle-inputs.ts';
import { rememberCycle } from './cycle-memory.ts';
import { reflect } from './reflect-and-evolve.ts';
import { settlePlan, recordAbandonment, settleParent, endActivePlans } from './settle-goal.ts';
import { settleRun, takeUpJob, settleDeferred, settleQuestion, commitIdleCycle } from './settle-outcome.ts';

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
  await yieldToEvents();
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
  const { session, psyche, approved, settings, finishedJobs } = inputs;
  const cycle = session.cycle + 1;
  const startedAt = now();
  // The tools of the session's tool servers the user granted join the arsenal (a bound model calls them).
  const tools = [...(dependencies.tools ?? TOOLS), ...grantedServerTools(inputs.toolServers)];
  const read = await withModelReading(await questionsFor(inputs.goals), inputs.goals, graph, dependencies.model);
  const { questions } = read;
  const children = [...read.children];
  const sparqlEndpoints = endpointsOfRun(inputs.sparqlEndpoints, dependencies.runEndpoints);
  const recall = await recallOfNextGoal(dependencies, inputs.goals, inputs.episodes);
  const chosen = decide({
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
  if (!chosen) return undefined;
  // A new plan after a failed or spent one: an expander opens options the planner ranks into it.
  let decided: Decision | NoToolAvailable = chosen;
  if ('tool' in chosen) {
    const expansion = await expandReplan(db, dependencies.model, chosen, tools);
    // A tool refused again and again: a repair works from the refusals' evidence.
    const repair = await repairFromTraces(db, dependencies.model, expansion.decision);
    children.push(...[expansion.run, repair.run].filter((run) => run !== undefined));
    decided = repair.decision;
  }

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
  const acted: ToolOutcome =
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
  // Facts a model proposed are checked by a reviewer before they are stored.
  const review =
    gate.kind === 'run' && dependencies.model
      ? await reviewModelFacts(dependencies.model, decision.tool.name, decision.state, acted)
      : undefined;
  if (review?.run) children.push(review.run);
  const outcome = review?.outcome ?? acted;
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
        const stored = await writeGraphDelta(db, {
          graph,
          sessionId,
          delta: change.delta,
          provenance: change.provenance,
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
        ? await settlePlan(
            common,
            decision,
            gate,
            outcome,
            result.updatedGoals,
            settings.maxFailedPlans,
            inputs.activePlans,
          )
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
      const ended = [worked, ...(parent ? [parent] : [])].filter((goal) => hasGoalEnded(goal.status));
      await rememberCycle({ ...common, graph }, decision, record, outcome, inputs, settings, ended);
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
      if (cycle % settings.reflectionInterval === 0) await reflect({ ...common, graph }, 'interval', settings);
      // Read and put whole: an update is a key query, a read and a write.
      const stored = await db.sessions.get(sessionId);
      if (stored) await db.sessions.put({ ...stored, cycle, updatedAt: startedAt });
      return record;
    },
  );
}

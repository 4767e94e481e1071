import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import type { Decision, NoToolAvailable } from './cycle.ts';
import { decomposeIfStalled, evaluateGoal } from './evaluate-goal.ts';
import type { CycleRecord } from '#core/records/cycle.ts';
import type { Approval } from '#core/records/approval.ts';
import type { Job } from '#core/records/job.ts';
import type { AgentTool, DeferredWork, ToolOutcome } from '#core/tools/tool.ts';
import { putArtifacts } from '#core/store/artifact-store.ts';
import type { Goal } from '#core/records/goal.ts';
import type { ChildRun } from '#core/records/child-run.ts';
import type { CommitContext, Settled } from './commit-context.ts';

/** The tool ran: the goal is evaluated, maybe split. */
export async function settleRun(
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

/**
 * The goal's background work is in (finished or failed): its tool takes it up in this cycle with
 * the input it deferred it with, whatever the score would choose. A job whose tool is gone is
 * taken up by no tool: the goal goes on.
 */
export function takeUpJob(
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
export async function settleDeferred(
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
  return goalWaits(
    decision,
    `${summary === '' ? '' : `${summary}; `}deferred ${deferred.what} to background job #${jobId}`,
    `waiting for background job #${jobId}: ${deferred.what}`,
    { waitingForJob: jobId },
  );
}

/** A cycle after which its goal waits (for a job, or the user's answer): the cycle's act and the goal's reason say for what. */
function goalWaits(
  decision: Decision,
  act: string,
  statusReason: string,
  waitingFor: Pick<Goal, 'waitingForJob' | 'askedAtCycle'>,
): Settled {
  const { goal } = decision;
  return {
    record: { ...decision.record, act: `${act} -> waiting`, outcome: 'waiting', statusChange: statusReason },
    updatedGoals: [
      {
        ...goal,
        status: 'waiting',
        statusReason,
        ...waitingFor,
        cyclesWorked: goal.cyclesWorked + 1,
        toolsUsed: [decision.tool.name, ...goal.toolsUsed].slice(0, 20),
      },
    ],
  };
}

/** The tool asked the user: the question is stored, bound to the tool's definition, before anyone sees it, and the goal waits for the answer. */
export async function settleQuestion(
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
  return goalWaits(
    decision,
    `asked question #${questionId}: ${question}`,
    `waiting for your answer to question #${questionId}`,
    { askedAtCycle: decision.goal.cyclesWorked + 1 },
  );
}

/**
 * When no tool can work on the goal, looping would only repeat that: the goal is suspended with
 * every tool's reason (the user can resume it once something changed), in a recorded cycle.
 */
export async function commitIdleCycle(
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

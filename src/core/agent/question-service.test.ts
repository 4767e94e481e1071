import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '../api.ts';
import { AnimaDatabase } from '../store/database.ts';
import { freshIndexedDb, testService } from '../testing/test-database.ts';

const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');

async function agentOnStarterGraph(indexedDb = freshIndexedDb()) {
  const { db, service } = testService({ db: new AnimaDatabase('anima', indexedDb), loadStarterGraph: async () => STARTER });
  const { session } = await service.open({});
  return { db, service, sessionId: session.id, indexedDb };
}

/** "Learn about Mars: volcano crater" gets stuck after the rules, a query and three fruitless tools, then asks. */
async function stuckOnMars() {
  const agent = await agentOnStarterGraph();
  await agent.service.goalAdd({ sessionId: agent.sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
  const cycles: CycleRecord[] = [];
  const run = await agent.service.agentRun({ sessionId: agent.sessionId, operationId: 'run', maxCycles: 20 }, (record) => cycles.push(record));
  return { ...agent, cycles, run };
}

describe('the agent asks the user', () => {
  it('asks once stuck for three cycles, and the goal waits for the answer, across a restart', async () => {
    const { db, cycles, run, indexedDb } = await stuckOnMars();
    expect(run).toMatchObject({ ok: true, stoppedBecause: 'no-active-goal' });
    const asked = cycles.at(-1)!;
    expect(asked).toMatchObject({ tool: 'user_interact', outcome: 'waiting', statusChange: 'waiting for your answer to question #1' });
    // Not before the goal had gone three cycles without progress.
    expect(cycles.slice(0, -1).map((record) => record.candidates.find((candidate) => candidate.tool === 'user_interact')?.skippedBecause)).toContain(
      'the goal made progress within the last 3 cycles: no need to ask yet',
    );
    db.close();
    const { service, sessionId } = await agentOnStarterGraph(indexedDb);
    const { questions, pendingCount } = await service.questionList({ sessionId });
    expect(pendingCount).toBe(1);
    expect(questions[0]).toMatchObject({ id: 1, status: 'pending', goalDescription: 'Learn about Mars', question: 'For "Learn about Mars" I found nothing yet about "volcano", "crater". What do you know?' });
    expect((await service.goalList({ sessionId })).goals[0]).toMatchObject({ status: 'waiting' });
  });

  it('takes the fact lines of an answer into the graph, with the user as their source, and the goal goes on', async () => {
    const { db, service, sessionId } = await stuckOnMars();
    const answered = await service.questionAnswer({ sessionId, questionId: 1, facts: 'Mars, has-feature, OlympusMons\nOlympusMons, is-a, Volcano, 0.9\n', note: 'Mars has a famous one.' });
    expect(answered).toMatchObject({ ok: true, factsAdded: 2, question: { status: 'answered', factsAdded: 2 } });
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal).toMatchObject({ status: 'active', statusReason: 'you answered question #1 (2 facts)' });
    expect(goal!.findings.map((fact) => `${fact.subject.label} ${fact.predicate.label} ${fact.object.label}`)).toEqual(expect.arrayContaining(['Mars has-feature OlympusMons', 'OlympusMons is-a Volcano']));
    const volcano = goal!.findings.find((fact) => fact.object.label === 'Volcano')!;
    expect(volcano.confidence).toBe(0.9);
    expect(await db.provenance.get(volcano.provenanceId!)).toMatchObject({ kind: 'user-answer', sources: ['question:1', 'goal:1'] });
    expect((await service.memoryList({ sessionId })).entries[0]).toMatchObject({ kind: 'observation', content: expect.stringMatching(/^the user answered/) });
    // The answer names a volcano: the next cycle completes the goal.
    const next: CycleRecord[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 3 }, (record) => next.push(record));
    expect(next.map((record) => [record.tool, record.outcome])).toEqual([['infer_rules', 'completed']]);
    expect((await service.goalList({ sessionId })).goals[0]!.status).toBe('completed');
  });

  it('refuses an answer with a bad fact line, naming the line, and changes nothing', async () => {
    const { service, sessionId } = await stuckOnMars();
    const before = await service.kgStats({ sessionId });
    const refused = await service.questionAnswer({ sessionId, questionId: 1, facts: 'Mars, has-feature, OlympusMons\nMars, is-a\n' });
    expect(refused).toEqual({ ok: false, problems: [{ line: 2, path: 'facts', message: 'expected 3 or 4 fields (subject,predicate,object[,confidence]), found 2' }] });
    expect(await service.kgStats({ sessionId })).toEqual(before);
    expect((await service.questionList({ sessionId })).pendingCount).toBe(1);
    expect(await service.questionAnswer({ sessionId, questionId: 1, facts: '   ', note: '' })).toMatchObject({ ok: false, problems: [{ path: 'answer' }] });
  });

  it('after a note without facts, goes on without asking again until the goal moves', async () => {
    const { service, sessionId } = await stuckOnMars();
    expect(await service.questionAnswer({ sessionId, questionId: 1, note: 'No idea, sorry.' })).toMatchObject({ ok: true, factsAdded: 0 });
    expect(await service.questionAnswer({ sessionId, questionId: 1, note: 'again' })).toMatchObject({ ok: false, problems: [{ message: 'question 1 was already answered' }] });
    const next: CycleRecord[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 2 }, (record) => next.push(record));
    expect(next).toHaveLength(2);
    expect(next[0]!.candidates.find((candidate) => candidate.tool === 'user_interact')?.skippedBecause).toBe('it already asked since the goal last made progress');
  });

  it('withdraws the questions of a cancelled goal', async () => {
    const { service, sessionId } = await stuckOnMars();
    await service.goalUpdate({ sessionId, goalId: 1, status: 'failed' });
    expect(await service.questionList({ sessionId })).toMatchObject({ pendingCount: 0, questions: [{ status: 'withdrawn', reason: 'its goal was cancelled' }] });
  });
});

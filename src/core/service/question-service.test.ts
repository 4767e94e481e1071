import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CycleRecord } from '#core/api.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { actionDigest } from '#core/tools/action-digest.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { defineTool } from '#core/tools/tool.ts';
import { userInteract } from '#core/tools/user-interact.ts';

const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');

async function agentOnStarterGraph(indexedDb = freshIndexedDb()) {
  const { db, service } = testService({
    db: new AnimaDatabase('anima', indexedDb),
    loadStarterGraph: async () => STARTER,
  });
  const { session } = await service.open({});
  return { db, service, sessionId: session.id, indexedDb };
}

/** "Learn about Mars: volcano crater" gets stuck after the rules, a query and three fruitless tools, then asks. */
async function stuckOnMars() {
  const agent = await agentOnStarterGraph();
  await agent.service.goalAdd({
    sessionId: agent.sessionId,
    description: 'Learn about Mars',
    criteria: 'volcano crater',
  });
  const cycles: CycleRecord[] = [];
  const run = await agent.service.agentRun(
    { sessionId: agent.sessionId, operationId: 'run', maxCycles: 20 },
    (record) => cycles.push(record),
  );
  return { ...agent, cycles, run };
}

describe('the agent asks the user', () => {
  it('asks once stuck for three cycles, and the goal waits for the answer, across a restart', async () => {
    const { db, cycles, run, indexedDb } = await stuckOnMars();
    expect(run).toMatchObject({ ok: true, stoppedBecause: 'no-active-goal' });
    const asked = cycles.at(-1)!;
    expect(asked).toMatchObject({
      tool: 'user_interact',
      outcome: 'waiting',
      statusChange: 'waiting for your answer to question #1',
    });
    // Not before the goal had gone three cycles without progress.
    expect(
      cycles
        .slice(0, -1)
        .map((record) => record.candidates.find((candidate) => candidate.tool === 'user_interact')?.skippedBecause),
    ).toContain('the goal made progress within the last 3 cycles: no need to ask yet');
    db.close();
    const { service, sessionId } = await agentOnStarterGraph(indexedDb);
    const { questions, pendingCount } = await service.questionList({ sessionId });
    expect(pendingCount).toBe(1);
    expect(questions[0]).toMatchObject({
      id: 1,
      status: 'pending',
      goalDescription: 'Learn about Mars',
      question: 'For "Learn about Mars" I found nothing yet about "volcano", "crater". What do you know?',
    });
    expect((await service.goalList({ sessionId })).goals[0]).toMatchObject({ status: 'waiting' });
  });

  it('takes the fact lines of an answer into the graph, with the user as their source, and the goal goes on', async () => {
    const { db, service, sessionId } = await stuckOnMars();
    const answered = await service.questionAnswer({
      sessionId,
      questionId: 1,
      facts:
        'Mars, has-feature, OlympusMons\nOlympusMons, is-a, Volcano, 0.9\nMars, has-feature, GaleCrater\nGaleCrater, is-a, Crater\n',
      note: 'Mars has a famous one.',
    });
    expect(answered).toMatchObject({ ok: true, factsAdded: 4, question: { status: 'answered', factsAdded: 4 } });
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal).toMatchObject({ status: 'active', statusReason: 'you answered question #1 (4 facts)' });
    expect(goal!.findings.map((fact) => `${fact.subject.label} ${fact.predicate.label} ${fact.object.label}`)).toEqual(
      expect.arrayContaining(['Mars has-feature OlympusMons', 'OlympusMons is-a Volcano']),
    );
    const volcano = goal!.findings.find((fact) => fact.object.label === 'Volcano')!;
    expect(volcano.confidence).toBe(0.9);
    expect(await db.provenance.get(volcano.provenanceId!)).toMatchObject({
      kind: 'user-answer',
      sources: ['question:1', 'goal:1'],
    });
    expect((await service.memoryList({ sessionId })).entries[0]).toMatchObject({
      kind: 'observation',
      content: expect.stringMatching(/^the user answered/),
    });
    // The answer names a volcano and a crater, every word the goal asked for: the next cycle completes it.
    const next: CycleRecord[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 3 }, (record) => next.push(record));
    expect(next.map((record) => [record.tool, record.outcome])).toEqual([['infer_rules', 'completed']]);
    expect((await service.goalList({ sessionId })).goals[0]!.status).toBe('completed');
  });

  it('refuses an answer with a bad fact line, naming the line, and changes nothing', async () => {
    const { service, sessionId } = await stuckOnMars();
    const before = await service.kgStats({ sessionId });
    const refused = await service.questionAnswer({
      sessionId,
      questionId: 1,
      facts: 'Mars, has-feature, OlympusMons\nMars, is-a\n',
    });
    expect(refused).toEqual({
      ok: false,
      problems: [
        { line: 2, path: 'facts', message: 'expected 3 or 4 fields (subject,predicate,object[,confidence]), found 2' },
      ],
    });
    expect(await service.kgStats({ sessionId })).toEqual(before);
    expect((await service.questionList({ sessionId })).pendingCount).toBe(1);
    expect(await service.questionAnswer({ sessionId, questionId: 1, facts: '   ', note: '' })).toMatchObject({
      ok: false,
      problems: [{ path: 'answer' }],
    });
  });

  it('after a note without facts, goes on without asking again until the goal moves', async () => {
    const { service, sessionId } = await stuckOnMars();
    expect(await service.questionAnswer({ sessionId, questionId: 1, note: 'No idea, sorry.' })).toMatchObject({
      ok: true,
      factsAdded: 0,
    });
    expect(await service.questionAnswer({ sessionId, questionId: 1, note: 'again' })).toMatchObject({
      ok: false,
      problems: [{ message: 'question 1 was already answered' }],
    });
    const next: CycleRecord[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 2 }, (record) => next.push(record));
    expect(next).toHaveLength(2);
    expect(next[0]!.candidates.find((candidate) => candidate.tool === 'user_interact')?.skippedBecause).toBe(
      'it already asked since the goal last made progress',
    );
  });

  it('binds a question to the definition of user_interact and the question, and applies an answer while neither changed', async () => {
    const { db, service, sessionId } = await stuckOnMars();
    const asked = (await db.questions.get(1))!;
    const tool = TOOLS.find((candidate) => candidate.name === 'user_interact')!;
    expect(asked.digest).toBe(await actionDigest(tool, { question: asked.question }));
    expect(asked.digest).not.toBe(await actionDigest(tool, { question: `${asked.question} ` }));
    expect(
      await service.questionAnswer({ sessionId, questionId: 1, facts: 'Mars, has-feature, OlympusMons' }),
    ).toMatchObject({ ok: true, factsAdded: 1, question: { status: 'answered' } });
  });

  it.each([
    ['description', { description: 'ask the user something (an older wording)' }],
    ['input schema', { input: z.object({ question: z.string().min(1).max(500) }) }],
  ])(
    'withdraws a question asked by a user_interact whose %s has changed since, keeping the answer unapplied, and asks again',
    async (_changed, older) => {
      const { db, service, sessionId } = await stuckOnMars();
      const asked = (await db.questions.get(1))!;
      // The digest the question would hold had an older user_interact asked it.
      await db.questions.update(1, {
        digest: await actionDigest(defineTool({ ...userInteract, ...older } as typeof userInteract), {
          question: asked.question,
        }),
      });
      const before = await service.kgStats({ sessionId });
      const goalBefore = (await db.goals.get(1))!;
      const reason =
        'user_interact changed since it asked this question; your answer is kept on it but was not applied, and the agent asks again if it still needs to know';
      expect(
        await service.questionAnswer({
          sessionId,
          questionId: 1,
          facts: 'Mars, has-feature, OlympusMons',
          note: 'a big one',
        }),
      ).toEqual({
        ok: true,
        factsAdded: 0,
        question: expect.objectContaining({
          id: 1,
          status: 'withdrawn',
          reason,
          answer: 'Mars, has-feature, OlympusMons\na big one',
          factsAdded: 0,
        }),
      });
      expect(await service.kgStats({ sessionId })).toEqual(before);
      const goal = (await db.goals.get(1))!;
      expect(goal).toMatchObject({
        status: 'active',
        statusReason:
          'question #1 was withdrawn: user_interact changed since it asked this question; the goal goes on and asks again if it still needs to know',
      });
      expect(goal.askedAtCycle).toBeUndefined();
      // Nothing done before the pause is undone or counted again.
      expect(goal).toMatchObject({
        findings: goalBefore.findings,
        cyclesWorked: goalBefore.cyclesWorked,
        toolsUsed: goalBefore.toolsUsed,
      });
      expect(await db.provenance.where('kind').equals('question').last()).toMatchObject({
        sources: ['question:1', 'goal:1'],
        detail: 'withdrew question #1 unapplied: user_interact changed since it asked this question',
      });
      expect(await service.questionAnswer({ sessionId, questionId: 1, note: 'again' })).toMatchObject({
        ok: false,
        problems: [{ message: 'question 1 was already withdrawn' }],
      });

      // The goal goes on, and asks again with today's user_interact: that answer is applied.
      const next: CycleRecord[] = [];
      await service.agentRun({ sessionId, operationId: 'run', maxCycles: 20 }, (record) => next.push(record));
      expect(next.at(-1)).toMatchObject({
        tool: 'user_interact',
        outcome: 'waiting',
        statusChange: 'waiting for your answer to question #2',
      });
      expect((await db.questions.get(2))!.digest).toBe(
        await actionDigest(
          TOOLS.find((candidate) => candidate.name === 'user_interact')!,
          { question: asked.question },
        ),
      );
      expect(
        await service.questionAnswer({ sessionId, questionId: 2, facts: 'Mars, has-feature, OlympusMons' }),
      ).toMatchObject({ ok: true, factsAdded: 1, question: { status: 'answered' } });
      expect((await db.goals.get(1))!.status).toBe('active');
    },
  );

  it('applies the answer to a question stored before questions kept a digest', async () => {
    const { db, service, sessionId } = await stuckOnMars();
    const { digest: _digest, ...undigested } = (await db.questions.get(1))!;
    await db.questions.put(undigested);
    expect(
      await service.questionAnswer({ sessionId, questionId: 1, facts: 'Mars, has-feature, OlympusMons' }),
    ).toMatchObject({ ok: true, factsAdded: 1, question: { status: 'answered' } });
    expect((await db.goals.get(1))!).toMatchObject({
      status: 'active',
      statusReason: 'you answered question #1 (1 facts)',
    });
  });

  it('withdraws the questions of a cancelled goal', async () => {
    const { service, sessionId } = await stuckOnMars();
    await service.goalUpdate({ sessionId, goalId: 1, status: 'failed' });
    expect(await service.questionList({ sessionId })).toMatchObject({
      pendingCount: 0,
      questions: [{ status: 'withdrawn', reason: 'its goal was cancelled' }],
    });
  });
});

import { derivationOfFact } from '#core/kg/provenance.ts';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { runAnswering } from '#core/testing/answering-run.ts';
import { runCycles } from '#core/testing/run-cycles.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { EPISODES_RECALLED_BY_A_CYCLE, readCycleInputs } from './cycle-inputs.ts';
import { DEFAULT_ENDPOINT, endpointKeySetting } from '#core/records/sparql-endpoint.ts';
import { toolServerKeySetting } from '#core/records/tool-server.ts';
import { type GoalStatus, goalStatusSchema, hasGoalEnded } from '#core/records/goal.ts';
import { approvalStatusSchema } from '#core/records/approval.ts';
import { jobStatusSchema } from '#core/records/job.ts';

const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');

async function agentOnStarterGraph(indexedDb = freshIndexedDb()) {
  const { db, service } = testService({
    db: new AnimaDatabase('anima', indexedDb),
    loadStarterGraph: async () => STARTER,
  });
  const { session } = await service.open({});
  return { db, service, sessionId: session.id };
}

describe('the agent loop', () => {
  it('completes "Find mammals" on the starter graph without a model, finding mammals known only through chains', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    const added = await service.goalAdd({
      sessionId,
      description: 'Find mammals',
      criteria: '?x is-a mammal, at least 5',
    });
    expect(added.ok).toBe(true);
    const cycles: CycleRecord[] = [];
    const run = await service.agentRun({ sessionId, operationId: 'run', maxCycles: 20 }, (record) =>
      cycles.push(record),
    );
    expect(run).toMatchObject({ ok: true, stoppedBecause: 'no-active-goal' });
    expect(cycles.length).toBeLessThanOrEqual(20);
    // The plan looked up the pattern while planning, so its next step, the rules, runs first (chains reach Mammal); then the criteria are met.
    expect(cycles.map((record) => record.tool)).toEqual(['infer_rules']);
    expect(cycles[0]).toMatchObject({ outcome: 'completed', cycle: 1 });
    expect(cycles[0]!.observe).toContain(
      'new plan: explore first (attempt 0); needs knowledge: kg_query -> infer_rules -> reason -> gap_analysis; step 2 of 4, infer_rules',
    );
    expect(cycles[0]!.candidates.find((candidate) => candidate.tool === 'infer_rules')!.breakdown).toBe(
      '[score=0.96: base=0.85 recency=-0.00 novelty=+0.15 episodic=+0.00 pressure=+0.00 archetype=+0.030 bias=-0.00 plan=+0.25]',
    );
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal).toMatchObject({ status: 'completed', cyclesWorked: 1 });
    // The answers come first, each the very fact that answers: X subClassOf Mammal (the starter graph's own
    // term; Earth-like single things would be rdf:type), concluded along the chains the file states.
    const answered = goal!.findings.slice(0, 43);
    expect(answered.every((fact) => fact.predicate.label === 'subClassOf' && fact.object.label === 'Mammal')).toBe(
      true,
    );
    const mammals = goal!.findings
      .filter((fact) => fact.predicate.label === 'subClassOf' && fact.object.label === 'Mammal')
      .map((fact) => fact.subject.label);
    expect(mammals).toEqual(expect.arrayContaining(['GoldenRetriever', 'SiameseCat', 'Wolf', 'Elephant', 'Bat']));
    // Nothing the graph does not support: every finding is a stored triple.
    const stored = await service.kgQuery({ sessionId, query: '?x is-a Mammal', limit: 1000 });
    expect(stored.ok && new Set(stored.rows.map((row) => row.x!.label))).toEqual(new Set(mammals));
  });

  it("chooses by score with the plan's next step weighted, records every candidate, and moves on when a goal makes no progress", async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater', priority: 255 });
    const cycles: CycleRecord[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 4 }, (record) => cycles.push(record));
    // Cycle 1: the plan's lookup was done while planning (the triples around Mars hold neither word), so the rules get the plan bonus.
    // Cycle 2: kg_query 0.80 + 0.15 beats the plan's gap_analysis 0.25 + 0.15 + 0.25: the plan weighs in, the score decides.
    // Cycle 3: gap_analysis, with the plan bonus. Cycle 4: the plan is done; the new plan's gap_analysis was just used
    // (-0.20), and similarity_search 0.30 + 0.15 - 0.015 (guardian 0.4) wins.
    expect(cycles.map((record) => record.tool)).toEqual([
      'infer_rules',
      'kg_query',
      'gap_analysis',
      'similarity_search',
    ]);
    expect(cycles[3]!.observe).toContain(
      'new plan: reason first (attempt 1); needs knowledge: gap_analysis -> kg_query (plan 1 ended: it ran all its steps; the goal is not met yet, so a new plan is made); step 1 of 2, gap_analysis',
    );
    expect(cycles[0]!.candidates.map((candidate) => candidate.tool)).toEqual([
      'file_io',
      'gap_analysis',
      'http_fetch',
      'infer_rules',
      'kg_mutate',
      'kg_query',
      'memory_consolidate',
      'memory_recall',
      'reason',
      'similarity_search',
      'sparql_query',
      'synthesize_triple',
      'text_ingest',
      'user_interact',
    ]);
    expect(cycles[0]!.candidates.find((candidate) => candidate.tool === 'reason')?.skippedBecause).toMatch(
      /^nothing to prove/,
    );
    expect(cycles[0]!.candidates.find((candidate) => candidate.tool === 'memory_recall')).toEqual({
      tool: 'memory_recall',
      skippedBecause: 'there are no episodes yet',
    });
    expect(cycles[1]!.candidates.find((candidate) => candidate.tool === 'infer_rules')).toMatchObject({
      skippedBecause: 'the rules have already run around this goal on the graph as it is',
    });
    expect(cycles.every((record) => record.goalId === cycles[0]!.goalId)).toBe(true);
  });

  it('resumes at the last committed cycle after a restart, with goals and counters intact', async () => {
    const indexedDb = freshIndexedDb();
    const first = await agentOnStarterGraph(indexedDb);
    await first.service.goalAdd({
      sessionId: first.sessionId,
      description: 'Learn about Mars',
      criteria: 'volcano crater',
    });
    await first.service.agentRun({ sessionId: first.sessionId, operationId: 'run', maxCycles: 2 });
    first.db.close();

    const second = await agentOnStarterGraph(indexedDb);
    const cycles: CycleRecord[] = [];
    await second.service.agentRun({ sessionId: second.sessionId, operationId: 'run', maxCycles: 1 }, (record) =>
      cycles.push(record),
    );
    expect(cycles.map((record) => record.cycle)).toEqual([3]);
    const [goal] = (await second.service.goalList({ sessionId: second.sessionId })).goals;
    expect(goal!.cyclesWorked).toBe(3);
    expect(
      (await second.service.cycleList({ sessionId: second.sessionId })).cycles.map((record) => record.cycle),
    ).toEqual([3, 2, 1]);
  });

  it('refuses a goal whose criteria it cannot read, naming the problem', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    expect(await service.goalAdd({ sessionId, description: 'x', criteria: 'a b' })).toMatchObject({
      ok: false,
      problems: [{ path: 'criteria' }],
    });
    expect(await service.goalAdd({ sessionId, description: 'x', criteria: '?x is-a, at least 2' })).toMatchObject({
      ok: false,
    });
    expect(await service.goalAdd({ sessionId, description: '   ' })).toEqual({
      ok: false,
      problems: [{ path: 'description', message: 'describe the goal' }],
    });
  });

  it('suspends, resumes and cancels goals; a run with nothing active stops at once', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    const added = await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    if (!added.ok) throw new Error('not added');
    expect(await service.goalUpdate({ sessionId, goalId: added.goal.id, status: 'suspended' })).toMatchObject({
      ok: true,
      goal: { status: 'suspended' },
    });
    expect(await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 })).toMatchObject({
      ok: true,
      cyclesRun: 0,
      stoppedBecause: 'no-active-goal',
    });
    expect(
      await service.goalUpdate({ sessionId, goalId: added.goal.id, status: 'active', priority: 200 }),
    ).toMatchObject({ ok: true, goal: { status: 'active', priority: 200 } });
    expect(await service.goalUpdate({ sessionId, goalId: added.goal.id, status: 'failed' })).toMatchObject({
      ok: true,
      goal: { status: 'failed', statusReason: 'cancelled by the user' },
    });
    expect(await service.goalUpdate({ sessionId, goalId: added.goal.id, status: 'active' })).toMatchObject({
      ok: false,
    });
  });
});

describe('stalled goals', () => {
  it('splits a goal that makes no progress for its stall threshold into sub-goals, and records why', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano, crater and dust storm' });
    await runAnswering(service, sessionId, 12);
    const goals = (await service.goalList({ sessionId })).goals;
    expect(goals[0]).toMatchObject({
      status: 'suspended',
      statusReason: 'stalled for 5 cycles; split into 3 sub-goals',
    });
    expect(goals.slice(1).map((goal) => [goal.successCriteria, goal.parentId])).toEqual([
      ['volcano', goals[0]!.id],
      ['crater', goals[0]!.id],
      ['dust storm', goals[0]!.id],
    ]);
    expect(await db.provenance.where('kind').equals('decomposition').count()).toBe(1);
  });
});

describe('a split goal', () => {
  it('resumes its parent with all its children found once they complete, and the parent completes on them', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano, crater' });
    await runAnswering(service, sessionId, 8);
    expect((await service.goalList({ sessionId })).goals.map((goal) => [goal.successCriteria, goal.status])).toEqual([
      ['volcano, crater', 'suspended'],
      ['volcano', 'active'],
      ['crater', 'active'],
    ]);
    // Now the agent has something to read.
    await service.documentImport({ sessionId, fileName: 'mars.txt', text: 'Mars has volcanoes. Mars has craters.' });
    await runAnswering(service, sessionId, 10);
    const [parent, ...children] = (await service.goalList({ sessionId })).goals;
    expect(children.map((child) => child.status)).toEqual(['completed', 'completed']);
    expect(parent).toMatchObject({ status: 'completed' });
    const found = parent!.findings.map((fact) => `${fact.subject.label} ${fact.predicate.label} ${fact.object.label}`);
    expect(found).toEqual(expect.arrayContaining(['Mars has Volcano', 'Mars has Crater']));
  });
});

describe('episodic memory in the loop', () => {
  it('consolidates a filling memory into episodes of what was tried, then scores down the tools that failed on these symbols', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    // A patient goal: at the default threshold it would be abandoned after 15 cycles without progress.
    await db.goals.update(1, { stallThreshold: 10 });
    // Three entries a cycle: by cycle 25 working memory is 75 of 100, and the reflection there consolidates it.
    const cycles = await runAnswering(service, sessionId, 30);
    const [episode] = await db.episodes.toArray();
    expect(episode!.summary).toMatch(
      /^goal 1, cycles 1-24: tried infer_rules on Mars.*: 1 worked, 0 did not; .*gap_analysis on Mars.*: 0 worked, \d+ did not/,
    );
    expect(episode!.toolResults!.find((result) => result.tool === 'gap_analysis')).toMatchObject({
      successes: 0,
      failures: expect.any(Number),
    });
    expect(await db.provenance.where('kind').equals('consolidation').count()).toBe(1);
    const afterConsolidation = cycles.find((record) => record.observe.includes('recalled episode'))!;
    expect(afterConsolidation.cycle).toBe(26);
    // memory_recall is available now; gap_analysis never got this goal anywhere on Mars: the episode scores it down, and says why.
    expect(afterConsolidation.candidates.find((candidate) => candidate.tool === 'memory_recall')?.breakdown).toMatch(
      /^\[score=[\d.]+: base=0\.50 /,
    );
    expect(afterConsolidation.candidates.find((candidate) => candidate.tool === 'gap_analysis')?.breakdown).toMatch(
      /episodic=-0\.20 .*\] recalled: it did not work on Mars before \(episode 1\)/,
    );
    // A recalled episode counts its uses, as consulted entries do.
    expect((await db.episodes.get(1))!.recalls).toBeGreaterThanOrEqual(4);
    expect(Math.max(...(await db.workingMemory.toArray()).map((entry) => entry.referenceCount))).toBeGreaterThan(0);
    expect(await db.workingMemory.count()).toBeLessThan(100);
  });

  it('lets the loop choose memory_consolidate above the threshold, and consolidates by itself halfway to full, so memory never fills', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    expect(
      (
        await service.agentSettingsSet({
          sessionId,
          settings: {
            ...(await service.agentSettingsGet({ sessionId })),
            memoryCapacity: 12,
            consolidationThreshold: 0.6,
            reflectionInterval: 1000,
          },
        })
      ).ok,
    ).toBe(true);
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    await db.goals.update(1, { stallThreshold: 40 });
    const sizes: number[] = [];
    const cycles: CycleRecord[] = [];
    for (let cycle = 0; cycle < 12; cycle++) {
      cycles.push(...(await runAnswering(service, sessionId, 1)));
      sizes.push(await db.workingMemory.count());
    }
    expect(Math.max(...sizes)).toBeLessThan(12);
    expect(await db.episodes.count()).toBeGreaterThan(0);
    // Above 60%, memory_consolidate is a candidate and the pressure term favours it.
    const due = cycles.find((record) => record.observe.includes('working memory 9/12'))!;
    expect(due.candidates.find((candidate) => candidate.tool === 'memory_consolidate')?.breakdown).toContain(
      'pressure=+0.20',
    );
    const early = cycles[0]!;
    expect(early.candidates.find((candidate) => candidate.tool === 'memory_consolidate')).toEqual({
      tool: 'memory_consolidate',
      skippedBecause: 'working memory is 0% full; it is consolidated above 60%',
    });
    expect((await service.memoryList({ sessionId })).capacity).toBe(12);
  });
});

describe('a goal no tool can work on', () => {
  it("is suspended with every tool's reason instead of looping", async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Ponder the ineffable', criteria: 'wisdom serenity' });
    const cycles: CycleRecord[] = [];
    const run = await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 }, (record) =>
      cycles.push(record),
    );
    expect(run).toMatchObject({ ok: true, cyclesRun: 2, stoppedBecause: 'no-active-goal' });
    // Cycle 1 runs the rules (the graph has never been inferred); then nothing is left to try.
    expect(cycles.map((record) => [record.tool, record.outcome])).toEqual([
      ['infer_rules', 'no-change'],
      ['none', 'failed'],
    ]);
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal).toMatchObject({
      status: 'suspended',
      statusReason: expect.stringContaining('kg_query: the goal names no symbol the graph knows'),
    });
  });
});

describe('the memory view', () => {
  it('lists working memory newest first with its pressure, and the episodes', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 2 });
    const before = await service.memoryList({ sessionId });
    expect(before).toMatchObject({ capacity: 100, pressure: 0.06, episodeTotal: 0 });
    expect(before.entries[0]).toMatchObject({ kind: 'action', sourceCycle: 2, tool: 'kg_query' });
    expect(before.entries.find((entry) => entry.kind === 'observation')!.symbols.map((symbol) => symbol.label)).toEqual(
      ['Mars'],
    );
    await service.memoryConsolidate({ sessionId });
    const after = await service.memoryList({ sessionId });
    expect(after.episodeTotal).toBe(1);
    expect(after.episodes[0]!.tools).toEqual(['infer_rules', 'kg_query']);
    expect(after.entries.length).toBeLessThan(before.entries.length);
  });
});

describe('focused inference in the loop', () => {
  it('runs the rules around each goal: a second goal gets its own run', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({
      sessionId,
      description: 'Find mammals',
      criteria: '?x is-a mammal, at least 5',
      priority: 200,
    });
    await service.goalAdd({ sessionId, description: 'Find planets', criteria: '?x is-a planet, at least 8' });
    const cycles: CycleRecord[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 }, (record) => cycles.push(record));
    expect(cycles.map((record) => [record.goalId, record.tool, record.outcome])).toEqual([
      [1, 'infer_rules', 'completed'],
      [2, 'infer_rules', 'completed'],
    ]);
    // Focused on Mammal, the first run derived nothing about planets.
    expect(cycles[0]!.act).not.toMatch(/Planet/);
  });
});

describe('goal evaluation details', () => {
  it('does not complete a keyword goal on the name of its own subject', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'Mars habitability' });
    const cycles: CycleRecord[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 2 }, (record) => cycles.push(record));
    expect(cycles.map((record) => record.outcome)).not.toContain('completed');
  });
});

describe('what reasoning proves', () => {
  it('is kept: with the rules left out, a proof completes "Find mammals"; each answer is a finding, stored with its chain', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
    const records = await runCycles(
      db,
      sessionId,
      5,
      TOOLS.filter((tool) => tool.name !== 'infer_rules'),
    );
    const proof = records.find((record) => record.tool === 'reason')!;
    expect(proof.outcome).toBe('completed');
    expect(proof.act).toMatch(
      /^proved \d+ is-a Mammal by chains: .*; \d+ conclusions stored with their chains -> completed/,
    );
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal!.status).toBe('completed');
    expect(goal!.findingsTotal).toBeGreaterThanOrEqual(5);
    // A finding the graph did not state: its provenance is the chain that proves it.
    const stored = (await db.goals.toArray()).find((candidate) => candidate.description === 'Find mammals')!;
    const inferred = await db.provenance.where('kind').equals('inference').toArray();
    const chains = stored.findings.flatMap((finding) =>
      inferred.flatMap((record) => derivationOfFact(record, finding) ?? []),
    );
    expect(chains.length).toBeGreaterThan(0);
    expect(chains.every((chain) => chain.rule === 'proof-by-chain' && chain.premises.length >= 2)).toBe(true);
  });
});

describe('a goal with more answers than it keeps', () => {
  it('says the cap as "at least", never as the count', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    const csv = Array.from({ length: 2100 }, (_, index) => `Beast${index},is-a,Mammal`).join('\n');
    await service.kgImport({ sessionId, operationId: 'op', fileName: 'beasts.csv', data: csv });
    await service.goalAdd({ sessionId, description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
    const records = await runAnswering(service, sessionId, 3);
    const completed = records.find((record) => record.outcome === 'completed')!;
    expect(completed.statusChange).toMatch(/^completed: at least 2,000 answers to \?x is-a mammal, at least 5 needed/);
  });
});

describe('what a cycle reads', () => {
  it('recalls from the latest episodes only, in the order they were made, however many a long run kept', async () => {
    const { db, sessionId } = await agentOnStarterGraph();
    const episode = (index: number) => ({
      sessionId,
      summary: `episode ${index}`,
      learnings: [],
      tools: [],
      timestamp: index,
      cycle: index,
    });
    await db.episodes.bulkAdd(Array.from({ length: EPISODES_RECALLED_BY_A_CYCLE + 50 }, (_, index) => episode(index)));
    // Another session's episodes are never read.
    await db.episodes.add({ ...episode(999), sessionId: 'other' });
    const { episodes } = await readCycleInputs(db, sessionId);
    expect(episodes).toHaveLength(EPISODES_RECALLED_BY_A_CYCLE);
    expect(episodes[0]!.summary).toBe('episode 50');
    expect(episodes.at(-1)!.summary).toBe(`episode ${EPISODES_RECALLED_BY_A_CYCLE + 49}`);
    expect(episodes.map((recalled) => recalled.id!)).toEqual(
      [...episodes.map((recalled) => recalled.id!)].sort((a, b) => a - b),
    );
  });

  it("works on the open goals only (active, suspended, waiting), never an ended one or another session's", async () => {
    const { db, sessionId } = await agentOnStarterGraph();
    const goal = (status: GoalStatus, session = sessionId) => ({
      sessionId: session,
      description: `a ${status} goal`,
      successCriteria: 'anything',
      priority: 1,
      status,
      cyclesWorked: 0,
      lastProgressCycle: 0,
      stallThreshold: 5,
      findings: [],
      toolsUsed: [],
      createdAt: 0,
    });
    await db.goals.bulkAdd([
      ...goalStatusSchema.options.map((status) => goal(status)),
      ...goalStatusSchema.options.map((status) => goal(status, 'another-session')),
    ]);
    const { goals } = await readCycleInputs(db, sessionId);
    expect(goals.map((read) => read.description).sort()).toEqual(
      goalStatusSchema.options
        .filter((status) => !hasGoalEnded(status))
        .map((status) => `a ${status} goal`)
        .sort(),
    );
  });

  it("takes up this session's approved actions and finished or failed jobs only, in the order they were made", async () => {
    const { db, sessionId } = await agentOnStarterGraph();
    const sessions = [sessionId, 'another-session'];
    // Interleaved: statuses and sessions alternate, so an order by status would differ from the order made.
    for (let round = 0; round < 2; round++)
      for (const session of sessions) {
        for (const status of approvalStatusSchema.options)
          await db.approvals.add({
            sessionId: session,
            goalId: 1,
            cycle: 1,
            tool: 'kg_query',
            input: {},
            digest: '0',
            pattern: 'p',
            because: 'b',
            explanation: `${session} ${status} ${round}`,
            status,
            createdAt: 0,
          });
        for (const status of [...jobStatusSchema.options].reverse())
          await db.jobs.add({
            sessionId: session,
            goalId: 1,
            cycle: 1,
            tool: 'kg_query',
            input: {},
            kind: 'k',
            work: {},
            what: `${session} ${status} ${round}`,
            status,
            attempts: 0,
            createdAt: 0,
          });
      }
    const { approved, finishedJobs } = await readCycleInputs(db, sessionId);
    expect(approved.map((approval) => approval.explanation)).toEqual([
      `${sessionId} approved 0`,
      `${sessionId} approved 1`,
    ]);
    expect(finishedJobs.map((job) => job.what)).toEqual([
      `${sessionId} failed 0`,
      `${sessionId} finished 0`,
      `${sessionId} failed 1`,
      `${sessionId} finished 1`,
    ]);
  });

  it("gives the session's endpoints and tool servers their stored keys, and no other session's", async () => {
    const { db, sessionId } = await agentOnStarterGraph();
    const server = (name: string) => ({ name, url: `http://localhost:3001/${name}`, tools: [], granted: [] });
    await db.sessions.update(sessionId, {
      sparqlEndpoints: [
        { ...DEFAULT_ENDPOINT, name: 'keyed', keyHeader: 'Authorization' },
        { ...DEFAULT_ENDPOINT, name: 'open' },
      ],
      toolServers: [server('tools'), server('other')],
    });
    await db.settings.bulkPut([
      { key: endpointKeySetting(sessionId), value: { keyed: 'Bearer endpoint-key' } },
      { key: toolServerKeySetting(sessionId), value: { tools: 'Bearer server-key' } },
      { key: toolServerKeySetting('another-session'), value: { other: 'Bearer not-ours' } },
    ]);
    const { sparqlEndpoints, toolServers } = await readCycleInputs(db, sessionId);
    expect(sparqlEndpoints.map((endpoint) => [endpoint.name, endpoint.key])).toEqual([
      ['keyed', 'Bearer endpoint-key'],
      ['open', undefined],
    ]);
    expect(toolServers.map((toolServer) => [toolServer.name, toolServer.key])).toEqual([
      ['tools', 'Bearer server-key'],
      ['other', undefined],
    ]);
  });
});

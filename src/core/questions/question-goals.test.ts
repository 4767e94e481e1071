import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AnimaDatabase } from '#core/store/database.ts';
import { DEFAULT_ENDPOINT } from '#core/records/sparql-endpoint.ts';
import { exportSnapshot } from '#core/sessions/snapshot.ts';
import { parseSnapshot } from '#core/sessions/snapshot-check.ts';
import { restoreSnapshot } from '#core/sessions/snapshot-restore.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';

const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');

async function agentOnStarterGraph() {
  const { db, service } = testService({
    db: new AnimaDatabase('anima', freshIndexedDb()),
    loadStarterGraph: async () => STARTER,
  });
  const { session } = await service.open({});
  return { db, service, sessionId: session.id };
}

describe('a goal that asks a question', () => {
  it('completes with every answer, typed, when the graph answers it', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    expect((await service.goalAdd({ sessionId, description: 'Find all mammals' })).ok).toBe(true);
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 });
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal).toMatchObject({
      status: 'completed',
      answer: { kind: 'entities', reading: 'every ?x with ?x is-a Mammal (following is-a chains)' },
    });
    const mammals = goal!.answer!.entities.map((entity) => entity.label);
    // All of them, those known only through chains included, and nothing else.
    expect(mammals).toEqual(expect.arrayContaining(['Whale', 'GoldenRetriever', 'SiameseCat', 'Bat']));
    expect(mammals).not.toContain('Penguin');
    const stored = await service.kgQuery({ sessionId, query: '?x is-a Mammal', limit: 1000 });
    expect(mammals.length).toBeGreaterThan(stored.ok ? stored.rows.length : 0);
  });

  it('asking for a number of things, completes with at least that many, and fails with what it found short of it', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Find 3 kinds of mammal' });
    await service.goalAdd({ sessionId, description: 'List at least 500 mammals.' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 });
    const [some, many] = (await service.goalList({ sessionId })).goals;
    const found = some!.answer!.entities.length;
    expect(found).toBeGreaterThanOrEqual(3);
    expect(found).toBeLessThan(500);
    expect(some).toMatchObject({
      status: 'completed',
      statusReason: `answered every ?x with ?x is-a Mammal (following is-a chains): ${found} answers, at least 3 asked for`,
    });
    expect(many).toMatchObject({
      status: 'failed',
      statusReason: `only ${found} answers to every ?x with ?x is-a Mammal (following is-a chains), and 500 were asked for`,
      answer: { kind: 'entities' },
    });
  });

  it('asking politely for a number of things, alone, is read by the question reader', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Please show me 2 mammals' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 });
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal).toMatchObject({ status: 'completed', answer: { kind: 'entities' } });
  });

  it('answers yes or no with the proof', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Is a whale a mammal?' });
    await service.goalAdd({ sessionId, description: 'Is a bat a bird?' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 });
    const [whale, bat] = (await service.goalList({ sessionId })).goals;
    expect(whale).toMatchObject({
      status: 'completed',
      answer: {
        kind: 'boolean',
        value: true,
        proof: [
          { subject: 'Whale', predicate: 'subClassOf', object: 'Cetacean' },
          { subject: 'Cetacean', predicate: 'subClassOf', object: 'Mammal' },
        ],
      },
    });
    expect(bat).toMatchObject({ status: 'completed', answer: { kind: 'boolean', value: false } });
  });

  it('fails with the reason, not completed, when the graph cannot answer', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: "Which birds can't fly?" });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 });
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal).toMatchObject({ status: 'failed', answer: { kind: 'none' } });
    expect(goal!.statusReason).toContain('no answer: nothing in this graph says what is not so');
  });

  it('fails at once, naming the word, when the graph has no word for what it asks', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Which mammals are furry?' });
    await service.goalAdd({ sessionId, description: 'Which zorblaxes live in the ocean?' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 10 });
    const [furry, zorblaxes] = (await service.goalList({ sessionId })).goals;
    expect(furry).toMatchObject({
      status: 'failed',
      statusReason: 'no answer: this graph has no name for "furry"',
      cyclesWorked: 1,
      answer: { kind: 'none', entities: [] },
    });
    expect(zorblaxes).toMatchObject({
      status: 'failed',
      statusReason: 'no answer: this graph has no name for "zorblaxes"',
      cyclesWorked: 1,
    });
  });

  it('refuses a question in another script or of emoji, storing nothing', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    const cyrillic = await service.goalAdd({ sessionId, description: 'Какие птицы не летают?' });
    expect(cyrillic).toMatchObject({
      ok: false,
      problems: [{ path: 'description', message: expect.stringContaining('Cyrillic script (at character 1') }],
    });
    const emoji = await service.goalAdd({ sessionId, description: 'What 🦄🦄?' });
    expect(emoji.ok).toBe(true);
    expect((await service.goalAdd({ sessionId, description: '🦄🦄?' })).ok).toBe(false);
    await expect(service.goalAdd({ sessionId, description: `What is ${'a'.repeat(100_000)}?` })).rejects.toThrow(
      'description has 100,009 characters, more than the 1,000 taken',
    );
    expect((await service.goalList({ sessionId })).goals.map((goal) => goal.description)).toEqual(['What 🦄🦄?']);
  });

  it('keeps its answer in a snapshot', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'How many kinds of reptiles are there?' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 3 });
    const snapshot = await exportSnapshot(db, sessionId);
    const other = new AnimaDatabase('other', freshIndexedDb());
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(snapshot)));
    if (!parsed.ok) throw new Error(parsed.error[0]!.message);
    await restoreSnapshot(other, parsed.value);
    const [goal] = await other.goals.toArray();
    expect(goal!.answer).toMatchObject({ kind: 'count', value: 9 });
  });
});

describe('a goal that is no question', () => {
  it('"Learn about Mars" is answered with what Mars is, not completed by the word Mars', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Learn about Mars' });
    await service.goalAdd({ sessionId, description: 'Learn about Zorblax' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 });
    const [mars, zorblax] = (await service.goalList({ sessionId })).goals;
    expect(mars).toMatchObject({ status: 'completed', answer: { kind: 'entities' } });
    expect(mars!.answer!.reading).toMatch(/^what Mars is/);
    expect(mars!.answer!.entities.map((entity) => entity.label)).toEqual(
      expect.arrayContaining(['TerrestrialPlanet', 'Planet', 'CelestialBody']),
    );
    // Nothing in the graph is called Zorblax: failed in its first cycle, saying which word, not abandoned after failed plans.
    expect(zorblax).toMatchObject({
      status: 'failed',
      statusReason: 'no answer: this graph has no name for "Zorblax"',
      cyclesWorked: 1,
      answer: { kind: 'none', reason: 'this graph has no name for "Zorblax"' },
    });
  });

  it('with an endpoint that may know the word, goes on to ask it instead of failing at once', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    // Nothing listens there: the endpoint's tool fails, and each failure counts as a failed plan.
    const added = await service.endpointSet({
      sessionId,
      endpoint: {
        ...DEFAULT_ENDPOINT,
        name: 'elsewhere',
        url: 'http://127.0.0.1:9/sparql',
        mayCallWithoutAsking: true,
      },
    });
    expect(added.ok).toBe(true);
    await service.goalAdd({ sessionId, description: 'Learn about Zorblax' });
    const tools: string[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 2 }, (record) => tools.push(record.tool));
    const [zorblax] = (await service.goalList({ sessionId })).goals;
    expect(zorblax).toMatchObject({ status: 'active', cyclesWorked: 2 });
    expect(tools).toContain('sparql_query');
  });

  it('with the web allowed but no address that names the word, fails at once all the same', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    const webAccess = { allowedPrefixes: ['https://example.org/'], timeoutSeconds: 1, maxKilobytes: 2 };
    expect(await service.webAccessSet({ webAccess })).toMatchObject({ ok: true });
    await service.goalAdd({ sessionId, description: 'Learn about Zorblax' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 2 });
    const [zorblax] = (await service.goalList({ sessionId })).goals;
    expect(zorblax).toMatchObject({ status: 'failed', cyclesWorked: 1 });
  });

  it('with keyword criteria, is done only when stored facts hold every word, and its answer is those facts', async () => {
    const marsKnowing = async (facts: string) => {
      const agent = await agentOnStarterGraph();
      const imported = await agent.service.kgImport({
        sessionId: agent.sessionId,
        operationId: 'import',
        fileName: 'mars.csv',
        data: facts,
      });
      expect(imported.ok).toBe(true);
      await agent.service.goalAdd({
        sessionId: agent.sessionId,
        description: 'Learn about Mars',
        criteria: 'volcano crater',
      });
      // Two cycles: a third without progress would ask the user.
      await agent.service.agentRun({ sessionId: agent.sessionId, operationId: 'run', maxCycles: 2 });
      return (await agent.service.goalList({ sessionId: agent.sessionId })).goals[0]!;
    };
    // Half the words, a volcano but no crater: not done (before, half sufficed).
    expect(await marsKnowing('Mars,has-feature,Volcano\n')).toMatchObject({ status: 'active' });

    const goal = await marsKnowing('Mars,has-feature,Volcano\nMars,has-feature,Crater\n');
    expect(goal).toMatchObject({
      status: 'completed',
      answer: { kind: 'entities', reading: 'facts that mention volcano and crater' },
    });
    expect(goal.statusReason).toMatch(/^found facts that mention volcano and crater: /);
    expect(goal.statusReason).toContain('Mars has-feature Volcano');
    expect(goal.statusReason).toContain('Mars has-feature Crater');
    expect(goal.answer!.entities.map((entity) => entity.label)).toEqual(
      expect.arrayContaining(['Mars', 'Volcano', 'Crater']),
    );
  });
});

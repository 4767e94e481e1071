/**
 * The long run (`npm run bench:agent -- --long [--cycles N] [--wordnet DIR] [--root OFFSET]`):
 * 1,000 cycles of the real loop on a graph nobody on the project wrote, the animal subtree of
 * WordNet 3.0 (bench/analogy/README.md says where it comes from), with goals of three kinds:
 * answerable (the graph holds the answers), unanswerable (it cannot), and open-ended (words to
 * learn about). Nobody answers the agent's questions: a goal that asks waits on the user. When no
 * goal is active and fewer than N cycles ran, the next wave of goals (the same kinds, other
 * animals) is added; past N, the run goes on without new goals until none is active (or 500 more
 * cycles), so every goal of the last wave has its chance to end. The last line is one JSON object: {"cycles","goals","goals_ended","goals_waiting",
 * "goals_running","max_working_memory","capacity","episodes","archetype_drift":{...},
 * "median_cycle_ms","p99_cycle_ms"}.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { withContractChecks } from '#core/api.ts';
import { hasGoalEnded } from '#core/records/goal.ts';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { createAgentService } from '#core/service/service.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { storeGraphDelta } from '#core/store/kg-repository.ts';
import { freshIndexedDb } from '#core/testing/test-database.ts';
import { type WordNetFact, wordNetSubtree } from '../analogy/wordnet.ts';

/** The kinds of goal of a wave, about one animal class of WordNet each (`{x}`). */
const GOAL_KINDS = [
  { kind: 'answerable', description: 'Find kinds of {x}', criteria: '?x is-a {x}, at least 2' },
  { kind: 'answerable', description: 'Find what {x} is', criteria: '{x} is-a ?x, at least 1' },
  { kind: 'unanswerable', description: 'Find 400 kinds of {x}', criteria: '?x is-a {x}, at least 400' },
  { kind: 'unanswerable', description: 'Learn the price of {x}', criteria: 'price euros' },
  { kind: 'open-ended', description: 'Learn about {x}', criteria: 'habitat diet' },
  { kind: 'open-ended', description: 'Explore {x} and keep notes', criteria: 'anatomy behaviour' },
  { kind: 'answerable', description: 'Find parts of {x}', criteria: '?x part-of {x}, at least 1' },
  { kind: 'open-ended', description: 'Learn what is like {x}', criteria: 'similar relatives' },
] as const;

/** The animals the waves are about, in turn: classes with kinds and parts in WordNet. */
const SUBJECTS = ['dog', 'bird', 'fish', 'cat', 'horse', 'snake', 'insect', 'whale', 'bear', 'frog', 'shark', 'spider'];

const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)] ?? 0;
const round = (value: number) => Math.round(value * 100) / 100;

export async function longRun(options: { wordnet: string; root: string; cycles: number }): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (!existsSync(join(options.wordnet, 'data.noun'))) {
    log(
      `No WordNet noun database in ${options.wordnet}. On Debian or Ubuntu: apt-get install wordnet-base; or pass --wordnet DIR.`,
    );
    process.exit(1);
  }
  const facts = wordNetSubtree(options.wordnet, options.root);
  const graph = new KnowledgeGraph(facts.length);
  const batch = graph.batch({ now: 1 });
  const resolve = (fact: WordNetFact) =>
    [
      batch.resolve({ type: 'label', value: fact.subject }, 'subject'),
      batch.resolve({ type: 'label', value: fact.predicate }, 'predicate'),
      batch.resolve(
        fact.literal ? { type: 'literal', value: fact.object } : { type: 'label', value: fact.object },
        'object',
      ),
    ] as const;
  for (const fact of facts) batch.assert(...resolve(fact), 1);
  graph.apply(batch.delta);

  const db = new AnimaDatabase('bench-long', freshIndexedDb());
  await db.sessions.add({ id: 's', name: 'long run', cycle: 0, createdAt: 0, updatedAt: 0 });
  await db.settings.put({ key: 'activeSessionId', value: 's' });
  await storeGraphDelta(db, {
    graph: new KnowledgeGraph(),
    sessionId: 's',
    delta: {
      symbols: [...graph.symbols()],
      addedTriples: [...graph.triples()],
      updatedTriples: [],
      removedTriples: [],
    },
    provenance: {
      sessionId: 's',
      kind: 'import',
      sources: ['wordnet-3.0'],
      confidence: 1,
      cycle: 0,
      detail: `WordNet 3.0 noun subtree ${options.root}`,
      createdAt: 0,
    },
    now: 0,
  });
  let clock = 0;
  const service = withContractChecks(createAgentService({ db, now: () => ++clock, newId: () => 's' }));
  const sessionId = (await service.open({})).session.id;
  const { memoryCapacity: capacity } = await service.agentSettingsGet({ sessionId });
  const initial = (await service.psycheGet({ sessionId })).psyche.archetypes;
  log(`WordNet subtree ${options.root}: ${graph.tripleCount} triples, ${graph.symbolCount} symbols`);

  let wave = 0;
  let goalsAdded = 0;
  const refused: string[] = [];
  /** Adds the next wave: each kind of goal about the next animal in turn. */
  const addWave = async () => {
    for (const [index, kind] of GOAL_KINDS.entries()) {
      const subject = SUBJECTS[(wave * GOAL_KINDS.length + index) % SUBJECTS.length]!;
      const added = await service.goalAdd({
        sessionId,
        description: kind.description.replaceAll('{x}', subject),
        criteria: kind.criteria.replaceAll('{x}', subject),
      });
      if (added.ok) goalsAdded++;
      else
        refused.push(
          `${kind.description.replaceAll('{x}', subject)}: ${added.problems.map((problem) => problem.message).join('; ')}`,
        );
    }
    wave++;
  };

  const times: number[] = [];
  let maxWorkingMemory = 0;
  let cycles = 0;
  await addWave();
  const hardStop = options.cycles + 500;
  while (cycles < hardStop) {
    const started = performance.now();
    const run = await service.agentRun({ sessionId, operationId: 'long-run', maxCycles: 1 });
    if (!run.ok) throw new Error(run.problems.map((problem) => problem.message).join('; '));
    if (run.cyclesRun === 0) {
      // No goal is active: the last wave ended or waits on the user; the next one starts, while cycles are left.
      if (cycles >= options.cycles) break;
      await addWave();
      continue;
    }
    times.push(performance.now() - started);
    cycles++;
    maxWorkingMemory = Math.max(maxWorkingMemory, await db.workingMemory.count());
    if (cycles % 100 === 0)
      log(
        `cycle ${cycles}: ${wave} waves, working memory ${maxWorkingMemory} at most, ${await db.episodes.count()} episodes`,
      );
  }

  const { goals } = await service.goalList({ sessionId, findingsLimit: 0 });
  const byStatus = (wanted: (status: string) => boolean) => goals.filter((goal) => wanted(goal.status)).length;
  const final = (await service.psycheGet({ sessionId })).psyche.archetypes;
  const drift = Object.fromEntries(
    Object.entries(final).map(([archetype, weight]) => [
      archetype,
      round(weight - initial[archetype as keyof typeof initial]),
    ]),
  );
  const sorted = [...times].sort((a, b) => a - b);
  for (const reason of refused) log(`not added: ${reason}`);
  for (const status of ['completed', 'failed', 'abandoned', 'waiting', 'active', 'suspended'])
    log(`${status}: ${byStatus((goalStatus) => goalStatus === status)}`);
  const { reflections } = await service.reflectionList({ sessionId, limit: 1000 });
  for (const reflection of reflections.filter((entry) => entry.psycheChanges.length > 0).slice(0, 5))
    log(`reflection at cycle ${reflection.cycle}: ${reflection.psycheChanges.join('; ')}`);
  console.log(
    JSON.stringify({
      cycles,
      goals: goals.length,
      goals_added: goalsAdded,
      goals_ended: byStatus((status) => hasGoalEnded(status as Parameters<typeof hasGoalEnded>[0])),
      goals_waiting: byStatus((status) => status === 'waiting'),
      goals_running: byStatus((status) => status === 'active' || status === 'suspended'),
      max_working_memory: maxWorkingMemory,
      capacity,
      episodes: await db.episodes.count(),
      archetype_drift: drift,
      median_cycle_ms: round(median(sorted)),
      p99_cycle_ms: round(sorted[Math.floor(sorted.length * 0.99)] ?? 0),
    }),
  );
  db.close();
}

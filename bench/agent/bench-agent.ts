/**
 * The agent benchmark: cycles per second of the real loop (decide, tool, evaluate, commit in one
 * transaction) on generated graphs of 1k, 100k and 1M triples, and whether a long run slows
 * down (the first 10% of cycles against the last 10%); then, on the starter graph, how many
 * cycles goals that need inference take with planning on, against the baseline "planning off".
 * Reading a question in plain words is timed on each graph too (its label index, then a reading).
 * Storage is fake-indexeddb in Node, as in the CLI. Prints a readable table, then one JSON object
 * as the last line. `--long` runs the long run of long-run.ts instead.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { withContractChecks } from '#core/api.ts';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { createAgentService } from '#core/service/service.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { storeGraphDelta } from '#core/store/kg-repository.ts';
import { freshIndexedDb } from '#core/testing/test-database.ts';
import { runAnswering } from '#core/testing/answering-run.ts';
import { readQuestion } from '#core/questions/reading.ts';
import { prepareVocabulary, vocabularyOf } from '#core/questions/vocabulary.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import { sliceOf } from '#core/kg/slice.ts';
import { longRun } from './long-run.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,100000,1000000' },
    cycles: { type: 'string', default: '1000' },
    long: { type: 'boolean', default: false },
    wordnet: { type: 'string', default: '/usr/share/wordnet' },
    root: { type: 'string', default: '00015388' },
  },
});
const sizes = values.sizes === '' ? [] : values.sizes.split(',').map(Number);
const cycleCount = Number(values.cycles);

/** A deterministic taxonomy (is-a, branching 4) with attribute triples, about `triples` in all. */
function generateGraph(triples: number): KnowledgeGraph {
  const graph = new KnowledgeGraph(triples);
  let state = 42;
  const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const batch = graph.batch({ now: 1 });
  const label = (value: string) => ({ type: 'label' as const, value });
  const isA = batch.resolve(label('is-a'), 'predicate');
  const attributes = Array.from({ length: 12 }, (_, index) => batch.resolve(label(`attribute-${index}`), 'predicate'));
  const values = Array.from({ length: 500 }, (_, index) => batch.resolve(label(`Value${index}`), 'object'));
  const classes = [batch.resolve(label('Thing'), 'subject')];
  let made = 0;
  for (let index = 1; made < triples; index++) {
    const symbol = batch.resolve(label(`C${index}`), 'subject');
    batch.assert(symbol, isA, classes[Math.floor((index - 1) / 4)]!, 1);
    classes.push(symbol);
    made++;
    for (let attribute = 0; attribute < 3 && made < triples; attribute++, made++)
      batch.assert(
        symbol,
        attributes[Math.floor(random() * attributes.length)]!,
        values[Math.floor(random() * values.length)]!,
        0.5 + random() / 2,
      );
  }
  graph.apply(batch.delta);
  return graph;
}

type Figures = {
  triples: number;
  cycles: number;
  cycles_per_second: number;
  /** The median cycle (the first left out: it builds what later cycles reuse), then over the first and the last 100 cycles. */
  median_cycle_ms: number;
  first_hundred_median_ms: number;
  last_hundred_median_ms: number;
  /** The same medians in CPU time of the process: on a shared machine, what the cycle itself cost. */
  median_cycle_cpu_ms: number;
  first_hundred_median_cpu_ms: number;
  last_hundred_median_cpu_ms: number;
  first_tenth_ms_per_cycle: number;
  last_tenth_ms_per_cycle: number;
  first_cycle_ms: number;
  /** Reading a question in plain words: the label index built once, then the median of a few readings. */
  question_index_ms: number;
  question_read_ms: number;
  /**
   * The label indexes (the question reader's, the similarity index's) as the app builds them after
   * a graph is opened, in slices: the work in all, and the longest the thread was held at once.
   */
  label_indexes_ms: number;
  label_indexes_longest_block_ms: number;
};

/** Times building both label indexes a slice at a time, as the app does after opening a graph. */
function labelIndexTimes(graph: KnowledgeGraph): { label_indexes_ms: number; label_indexes_longest_block_ms: number } {
  const similarity = new SimilarityIndex(graph);
  let total = 0;
  let longest = 0;
  for (let isDone = false; !isDone;) {
    const started = performance.now();
    isDone = similarity.prepareLabelIndex(sliceOf(8)) && prepareVocabulary(graph, sliceOf(8));
    const spent = performance.now() - started;
    total += spent;
    longest = Math.max(longest, spent);
  }
  return {
    label_indexes_ms: Math.round(total * 10) / 10,
    label_indexes_longest_block_ms: Math.round(longest * 10) / 10,
  };
}

/** Times reading questions on the graph: its label index first (once per session), then each question. */
function readingTimes(graph: KnowledgeGraph): { question_index_ms: number; question_read_ms: number } {
  let started = performance.now();
  vocabularyOf(graph);
  const question_index_ms = Math.round((performance.now() - started) * 10) / 10;
  const times = [
    'What is C5?',
    'Is C70000 a C17?',
    'Which C3 have Value7 as attribute-2?',
    'How many kinds of C9 are there?',
    'What do C401 and C402 have in common?',
  ].map((question) => {
    started = performance.now();
    readQuestion(graph, question);
    return performance.now() - started;
  });
  return {
    question_index_ms,
    question_read_ms: Math.round(times.sort((a, b) => a - b)[Math.floor(times.length / 2)]! * 100) / 100,
  };
}

async function measure(triples: number): Promise<Figures> {
  const db = new AnimaDatabase('bench', freshIndexedDb());
  const generated = generateGraph(triples);
  const reading = readingTimes(generated);
  const labelIndexes = labelIndexTimes(generateGraph(triples));
  await db.sessions.add({ id: 's', name: 'bench', cycle: 0, createdAt: 0, updatedAt: 0 });
  await db.settings.put({ key: 'activeSessionId', value: 's' });
  const empty = new KnowledgeGraph();
  await storeGraphDelta(db, {
    graph: empty,
    sessionId: 's',
    delta: {
      symbols: [...generated.symbols()],
      addedTriples: [...generated.triples()],
      updatedTriples: [],
      removedTriples: [],
    },
    provenance: {
      sessionId: 's',
      kind: 'import',
      sources: ['generated'],
      confidence: 1,
      cycle: 0,
      detail: 'bench',
      createdAt: 0,
    },
    now: 0,
  });
  let clock = 0;
  const service = withContractChecks(createAgentService({ db, now: () => ++clock, newId: () => 's' }));
  await service.open({});
  // Goals about symbols with a parent, children and attributes, that the graph cannot meet: each runs
  // until it ends (abandoned, or waiting on an answer), then the next begins, so every cycle does full work.
  const times: number[] = [];
  const cpuTimes: number[] = [];
  const cpuNow = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let last = performance.now();
  let lastCpu = cpuNow();
  const started = last;
  for (let subject = 5; times.length < cycleCount; subject++) {
    await service.goalAdd({ sessionId: 's', description: `Learn about C${subject}`, criteria: 'volcano crater lava' });
    last = performance.now();
    lastCpu = cpuNow();
    // The agent asks when it is stuck: answered at once (the time of answering counts), so every cycle is measured.
    await runAnswering(service, 's', cycleCount - times.length, () => {
      const time = performance.now();
      const cpu = cpuNow();
      times.push(time - last);
      cpuTimes.push(cpu - lastCpu);
      last = time;
      lastCpu = cpu;
    });
  }
  const total = performance.now() - started;
  const tenth = Math.max(1, Math.floor(times.length / 10));
  const median = (list: number[]) =>
    Math.round(([...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0) * 100) / 100;
  const mean = (list: number[]) => list.reduce((sum, value) => sum + value, 0) / list.length;
  db.close();
  return {
    triples,
    cycles: times.length,
    cycles_per_second: Math.round((times.length / total) * 1000 * 10) / 10,
    median_cycle_ms: median(times.slice(1)),
    first_hundred_median_ms: median(times.slice(1, 101)),
    last_hundred_median_ms: median(times.slice(-100)),
    median_cycle_cpu_ms: median(cpuTimes.slice(1)),
    first_hundred_median_cpu_ms: median(cpuTimes.slice(1, 101)),
    last_hundred_median_cpu_ms: median(cpuTimes.slice(-100)),
    first_tenth_ms_per_cycle: Math.round(mean(times.slice(1, tenth + 1)) * 100) / 100,
    last_tenth_ms_per_cycle: Math.round(mean(times.slice(-tenth)) * 100) / 100,
    first_cycle_ms: Math.round(times[0]! * 10) / 10,
    ...reading,
    ...labelIndexes,
  };
}

/**
 * Goals whose answers the starter graph holds only through its rules (Tux: after reading a
 * document, then the rules), and one answered by a document alone (Mars).
 */
const PLANNING_GOALS = [
  { description: 'Find what Tux is', criteria: 'Tux is-a ?x, at least 4', document: 'Tux is a penguin.' },
  { description: 'Find mammals', criteria: '?x is-a Mammal, at least 20' },
  { description: 'Find animals', criteria: '?x is-a Animal, at least 30' },
  { description: 'Find the parts of the human body', criteria: '?x part-of HumanBody, at least 8' },
  { description: 'Learn what holds the Earth', criteria: 'galaxy' },
  { description: 'Learn about Mars', criteria: 'volcano crater', document: 'Mars has volcanoes. Mars has craters.' },
];
const MAX_GOAL_CYCLES = 30;

type GoalFigures = {
  goal: string;
  criteria: string;
  cycles_planning_on: number | null;
  cycles_planning_off: number | null;
};

/** Cycles until the goal completes (null: not within MAX_GOAL_CYCLES), in a fresh session on the starter graph. */
async function cyclesToComplete(goal: (typeof PLANNING_GOALS)[number], planning: boolean): Promise<number | null> {
  const starter = readFileSync(new URL('../../public/starter-graph.ttl', import.meta.url), 'utf8');
  const db = new AnimaDatabase('bench-planning', freshIndexedDb());
  const service = withContractChecks(
    createAgentService({ db, now: () => 1, newId: () => 's', loadStarterGraph: async () => starter }),
  );
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.agentSettingsSet({ sessionId, settings: { planning, reflectionInterval: 5, maxFailedPlans: 3 } });
  if (goal.document) await service.documentImport({ sessionId, fileName: 'notes.txt', text: goal.document });
  await service.goalAdd({ sessionId, description: goal.description, criteria: goal.criteria });
  let completedAt: number | null = null;
  let cycles = 0;
  await runAnswering(service, sessionId, MAX_GOAL_CYCLES, (record) => {
    cycles++;
    if (record.outcome === 'completed' && completedAt === null) completedAt = cycles;
  });
  db.close();
  return completedAt;
}

if (values.long) {
  await longRun({ wordnet: values.wordnet, root: values.root, cycles: cycleCount });
  process.exit(0);
}

const results: Figures[] = [];
for (const size of sizes) {
  results.push(await measure(size));
  const figures = results.at(-1)!;
  console.log(
    `${String(figures.triples).padStart(8)} triples: ${figures.cycles} cycles, ${figures.cycles_per_second} cycles/s; ` +
      `median ${figures.median_cycle_ms} ms/cycle (first 100 ${figures.first_hundred_median_ms}, last 100 ${figures.last_hundred_median_ms}), ` +
      `CPU ${figures.median_cycle_cpu_ms} ms (first 100 ${figures.first_hundred_median_cpu_ms}, last 100 ${figures.last_hundred_median_cpu_ms}); ` +
      `ms/cycle first 10% ${figures.first_tenth_ms_per_cycle}, last 10% ${figures.last_tenth_ms_per_cycle}; first cycle ${figures.first_cycle_ms} ms; ` +
      `reading a question ${figures.question_read_ms} ms (label index ${figures.question_index_ms} ms, once); ` +
      `label indexes in slices ${figures.label_indexes_ms} ms, longest block ${figures.label_indexes_longest_block_ms} ms`,
  );
}
const planning: GoalFigures[] = [];
for (const goal of PLANNING_GOALS) {
  planning.push({
    goal: goal.description,
    criteria: goal.criteria,
    cycles_planning_on: await cyclesToComplete(goal, true),
    cycles_planning_off: await cyclesToComplete(goal, false),
  });
  const figures = planning.at(-1)!;
  const shown = (cycles: number | null) => (cycles === null ? `not within ${MAX_GOAL_CYCLES}` : String(cycles));
  console.log(
    `${figures.goal} (${figures.criteria}): planning on ${shown(figures.cycles_planning_on)} cycles, off (baseline) ${shown(figures.cycles_planning_off)}`,
  );
}
const total = (key: 'cycles_planning_on' | 'cycles_planning_off') =>
  planning.reduce((sum, figures) => sum + (figures[key] ?? MAX_GOAL_CYCLES), 0);
console.log(
  JSON.stringify({
    benchmark: 'agent',
    storage: 'fake-indexeddb (node)',
    results,
    planning: {
      baseline: 'planning off',
      max_cycles_per_goal: MAX_GOAL_CYCLES,
      goals: planning,
      total_cycles_planning_on: total('cycles_planning_on'),
      total_cycles_planning_off: total('cycles_planning_off'),
    },
  }),
);

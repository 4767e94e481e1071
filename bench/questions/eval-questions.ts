/**
 * The question evaluation: `npm run eval:questions [-- --held-out | --all] [--million]`.
 *
 * Asks each question of bench/questions/questions.json through the CLI (`anima ask QUESTION
 * --snapshot S --json`, no model) over its graph: the starter graph, and two real public graphs
 * converted from Debian packages (tests/fixtures/public/countries.ttl, wordnet-vertebrates.ttl).
 * Each is `right` (the answer is as expected), `wrong` (an answer, but not the expected one: a
 * confident mistake) or `honest-miss` (no answer, where the graph had one). The first half is
 * the working set; `--held-out` runs the other half, `--all` both. Reading time is measured in
 * process on the same graph (its label index built first, as the worker keeps it); `--million`
 * also times reading on a generated graph of 1,000,000 triples. The last line is one JSON object:
 * {"questions":N,"right":R,"confidently_wrong":W,"honest_misses":H,"median_read_ms":T}.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { readGraphFile } from '#core/kg/import/read-graph-file.ts';
import type { AnswerView } from '#core/questions/answer-schema.ts';
import { readQuestion } from '#core/questions/reading.ts';
import { vocabularyOf } from '#core/questions/vocabulary.ts';
import { anima } from '../../src/cli/testing/run-anima.ts';

type Expectation = {
  yes?: boolean;
  count?: number;
  first?: string;
  includes?: string[];
  excludes?: string[];
  size?: number;
  none?: boolean;
};
type Question = Expectation & { graph: string; question: string; held_out?: boolean };

const { values } = parseArgs({
  options: {
    'held-out': { type: 'boolean', default: false },
    all: { type: 'boolean', default: false },
    million: { type: 'boolean', default: false },
    show: { type: 'boolean', default: false },
  },
});
const log = (line: string) => process.stderr.write(`${line}\n`);
const set = JSON.parse(readFileSync('bench/questions/questions.json', 'utf8')) as {
  graphs: Record<string, string>;
  questions: Question[];
};
const chosen = set.questions.filter((question) => values.all || Boolean(question.held_out) === values['held-out']);

/** How an answer fares against what was expected. */
function verdict(
  expected: Expectation,
  answer: AnswerView,
): { outcome: 'right' | 'wrong' | 'honest-miss'; because: string } {
  const named = (label: string) => answer.entities.some((entity) => entity.label.toLowerCase() === label.toLowerCase());
  if (answer.kind === 'none')
    return expected.none
      ? { outcome: 'right', because: 'no answer, as expected' }
      : { outcome: 'honest-miss', because: answer.reason ?? '' };
  if (expected.none) return { outcome: 'wrong', because: `answered ${answer.kind} where the graph cannot say` };
  if (expected.yes !== undefined)
    return answer.kind === 'boolean' && answer.value === expected.yes
      ? { outcome: 'right', because: '' }
      : { outcome: 'wrong', because: `${answer.kind} ${String(answer.value)}` };
  if (expected.count !== undefined)
    return answer.kind === 'count' && answer.value === expected.count
      ? { outcome: 'right', because: '' }
      : { outcome: 'wrong', because: `${answer.kind} ${String(answer.value ?? answer.entities.length)}` };
  if (answer.kind !== 'entities') return { outcome: 'wrong', because: `${answer.kind} where a list was expected` };
  if (expected.first !== undefined)
    return answer.entities[0]?.label.toLowerCase() === expected.first.toLowerCase()
      ? { outcome: 'right', because: '' }
      : { outcome: 'wrong', because: `first ${answer.entities[0]?.label ?? 'nothing'}` };
  const missing = (expected.includes ?? []).filter((label) => !named(label));
  const extra = (expected.excludes ?? []).filter(named);
  const sizeOff = expected.size !== undefined && answer.entities.length !== expected.size;
  if (missing.length === 0 && extra.length === 0 && !sizeOff) return { outcome: 'right', because: '' };
  return {
    outcome: 'wrong',
    because: [
      missing.length > 0 ? `missing ${missing.join(', ')}` : '',
      extra.length > 0 ? `wrongly ${extra.join(', ')}` : '',
      sizeOff ? `${answer.entities.length} answers, ${expected.size} expected` : '',
    ]
      .filter(Boolean)
      .join('; '),
  };
}

async function graphFrom(file: string): Promise<KnowledgeGraph> {
  const graph = new KnowledgeGraph();
  const batch = graph.batch({ now: 1 });
  const read = await readGraphFile({ source: readFileSync(file, 'utf8'), format: 'turtle', batch });
  if (!read.ok) throw new Error(`${file}: ${JSON.stringify(read.error)}`);
  graph.apply(batch.delta);
  return graph;
}

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
};
const round = (value: number) => Math.round(value * 100) / 100;

const folder = await mkdtemp(join(tmpdir(), 'anima-eval-questions-'));
const tally = { right: 0, wrong: 0, 'honest-miss': 0 };
const readTimes: number[] = [];
const indexTimes: Record<string, number> = {};
try {
  for (const [name, file] of Object.entries(set.graphs)) {
    const questions = chosen.filter((question) => question.graph === name);
    if (questions.length === 0) continue;
    const snapshot = join(folder, `${name}.anima.json`);
    const imported = await anima('kg', 'import', file, '--snapshot', snapshot);
    if (imported.code !== 0) throw new Error(`${file}: ${imported.error}`);
    const graph = await graphFrom(file);
    const started = performance.now();
    vocabularyOf(graph);
    indexTimes[name] = round(performance.now() - started);
    log(`${name}: ${graph.tripleCount} triples; label index built in ${indexTimes[name]} ms`);
    for (const question of questions) {
      const readStarted = performance.now();
      readQuestion(graph, question.question);
      readTimes.push(performance.now() - readStarted);
      const asked = await anima('ask', question.question, '--snapshot', snapshot, '--json');
      const answer =
        asked.out.trim() === '' ? undefined : (JSON.parse(asked.out) as { reading: string; answer: AnswerView });
      const judged = answer
        ? verdict(question, answer.answer)
        : { outcome: 'honest-miss' as const, because: asked.error.trim() };
      tally[judged.outcome]++;
      process.stdout.write(
        `${judged.outcome}\t${name}\t${question.question}${judged.because ? `\t(${judged.because})` : ''}${values.show && answer ? `\t[${answer.reading}]` : ''}\n`,
      );
    }
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}

let million: { triples: number; index_ms: number; median_read_ms: number } | undefined;
if (values.million) million = readingAtScale(1_000_000);

/** Times reading on a generated taxonomy of about `triples` triples, with multi-word labels. */
function readingAtScale(triples: number) {
  const graph = new KnowledgeGraph(triples);
  const batch = graph.batch({ now: 1 });
  const label = (value: string) => ({ type: 'label' as const, value });
  const isA = batch.resolve(label('is-a'), 'predicate');
  const livesIn = batch.resolve(label('lives-in'), 'predicate');
  const places = Array.from({ length: 200 }, (_, index) => batch.resolve(label(`Place Number ${index}`), 'object'));
  const classes = [batch.resolve(label('Thing'), 'subject')];
  for (let index = 1, made = 0; made < triples; index++) {
    const symbol = batch.resolve(label(`Kind ${index}`), 'subject');
    batch.assert(symbol, isA, classes[Math.floor((index - 1) / 4)]!, 1);
    batch.assert(symbol, livesIn, places[index % places.length]!, 1);
    classes.push(symbol);
    made += 2;
  }
  graph.apply(batch.delta);
  const started = performance.now();
  vocabularyOf(graph);
  const index_ms = round(performance.now() - started);
  const times: number[] = [];
  for (const question of [
    'Is Kind 70000 a Kind 17?',
    'What is Kind 123456?',
    'Which kinds of Kind 2 live in Place Number 7?',
    'How many Kind 9000 are there?',
    'What do Kind 5000 and Kind 5001 have in common?',
  ]) {
    const readStarted = performance.now();
    readQuestion(graph, question);
    times.push(performance.now() - readStarted);
  }
  log(
    `reading at ${graph.tripleCount} triples: label index ${index_ms} ms, reads ${times.map((time) => time.toFixed(1)).join(', ')} ms`,
  );
  return { triples: graph.tripleCount, index_ms, median_read_ms: round(median(times)) };
}

const summary = {
  questions: chosen.length,
  right: tally.right,
  confidently_wrong: tally.wrong,
  honest_misses: tally['honest-miss'],
  median_read_ms: round(median(readTimes)),
  index_build_ms: indexTimes,
  ...(million ? { at_million: million } : {}),
};
log(
  `${summary.right} of ${summary.questions} right (${Math.round((summary.right / Math.max(1, summary.questions)) * 100)}%), ${summary.confidently_wrong} confidently wrong, ${summary.honest_misses} honest misses`,
);
process.stdout.write(`${JSON.stringify(summary)}\n`);

/**
 * The analogy evaluation:
 * `npm run eval:analogy [-- --seed N --root OFFSET --predicate P --wordnet DIR --show]`.
 *
 * Reads the animal subtree of WordNet 3.0 (Debian's wordnet-base; see bench/analogy/README.md),
 * holds out 10% of its is-a facts (seeded; --predicate P: of P's facts), and asks
 * synthesize_triple, by analogy, about each held-out fact's subject in the graph without them. A
 * proposal counts when it is a fact of that predicate about that subject; precision is the share
 * of those that were held out, recall the share of held-out facts proposed. Proposals of other
 * predicates are reported on stderr (names must be none); --show prints each counted proposal,
 * right or wrong, with the tool's summary. The last line is one JSON object:
 * {"held_out":N,"proposed":P,"precision":X,"recall":Y}.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { goalSymbols, parseCriteria } from '#core/goals/goal.ts';
import type { Goal } from '#core/records/goal.ts';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import type { ToolState } from '#core/tools/tool.ts';
import { synthesizeTriple } from '#core/tools/synthesize-triple.ts';
import { DEFAULT_WEB_ACCESS } from '#core/tools/web-access.ts';
import { type WordNetFact, wordNetSubtree } from './wordnet.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '42' },
    root: { type: 'string', default: '00015388' },
    wordnet: { type: 'string', default: '/usr/share/wordnet' },
    'hold-out': { type: 'string', default: '0.1' },
    predicate: { type: 'string', default: 'is-a' },
    show: { type: 'boolean', default: false },
  },
});
const log = (line: string) => process.stderr.write(`${line}\n`);

if (!existsSync(join(values.wordnet, 'data.noun'))) {
  log(
    `No WordNet noun database in ${values.wordnet}. On Debian or Ubuntu: apt-get install wordnet-base; or pass --wordnet DIR.`,
  );
  process.exit(1);
}

const facts = wordNetSubtree(values.wordnet, values.root);
let state = Number(values.seed) >>> 0;
const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
const isA = facts.filter((fact) => fact.predicate === values.predicate);
for (let index = isA.length - 1; index > 0; index--) {
  const other = Math.floor(random() * (index + 1));
  [isA[index], isA[other]] = [isA[other]!, isA[index]!];
}
const heldOut = new Set(isA.slice(0, Math.round(isA.length * Number(values['hold-out']))));

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
for (const fact of facts) if (!heldOut.has(fact)) batch.assert(...resolve(fact), 1);
graph.apply(batch.delta);
log(
  `WordNet subtree ${values.root}: ${facts.length} facts, ${isA.length} is-a, ${heldOut.size} held out; graph of ${graph.tripleCount} triples`,
);

const expected = new Set([...heldOut].map((fact) => `${fact.subject}\t${fact.object}`));
const subjects = [...new Set([...heldOut].map((fact) => fact.subject))];
const similarity = new SimilarityIndex(graph);
const parsed = parseCriteria('facts', 'Learn by analogy');
if (!parsed.ok) throw new Error('criteria');
const goal: Goal = {
  id: 1,
  sessionId: 'eval',
  description: 'Learn by analogy',
  successCriteria: 'facts',
  priority: 128,
  status: 'active',
  cyclesWorked: 0,
  lastProgressCycle: 0,
  stallThreshold: 5,
  findings: [],
  toolsUsed: [],
  createdAt: 1,
};
const toolState: ToolState = {
  sessionId: 'eval',
  cycle: 1,
  now: 2,
  graph,
  similarity,
  goal,
  criteria: parsed.value,
  goalSymbols: goalSymbols(graph, goal, parsed.value),
  inferredAtTripleCount: undefined,
  episodes: [],
  documents: [],
  webAccess: DEFAULT_WEB_ACCESS,
  isOnline: true,
};

const label = (id: number) => graph.symbol(id)!.label;
const byPredicate = new Map<string, number>();
let proposed = 0;
let correct = 0;
const started = performance.now();
let unknown = 0;
for (const subject of subjects) {
  // A subject whose only fact was held out is not in the graph: nothing can be said about it.
  const symbol = graph.symbolByLabel(subject);
  if (symbol === undefined) {
    unknown++;
    continue;
  }
  const outcome = await synthesizeTriple.run({ symbol: symbol.id, by: 'analogy' }, toolState);
  for (const [, predicate, object] of outcome.facts) {
    byPredicate.set(label(predicate), (byPredicate.get(label(predicate)) ?? 0) + 1);
    if (label(predicate) !== values.predicate) continue;
    proposed++;
    if (expected.has(`${subject}\t${label(object)}`)) correct++;
    if (values.show)
      log(
        `${expected.has(`${subject}\t${label(object)}`) ? 'OK ' : 'BAD'} ${subject} is-a ${label(object)} | ${outcome.summary.slice(0, 200)}`,
      );
  }
}
log(
  `${subjects.length - unknown} subjects asked (${unknown} not in the graph without their held-out facts) in ${((performance.now() - started) / 1000).toFixed(1)} s; proposals by predicate: ${JSON.stringify(Object.fromEntries(byPredicate))}`,
);
const round = (value: number) => Math.round(value * 1000) / 1000;
console.log(
  JSON.stringify({
    held_out: heldOut.size,
    proposed,
    precision: round(proposed === 0 ? 0 : correct / proposed),
    recall: round(correct / heldOut.size),
  }),
);

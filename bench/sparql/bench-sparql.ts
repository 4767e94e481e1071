/**
 * The SPARQL benchmark, against a real engine: a private Virtuoso loaded with WordNet's animal
 * nouns (or the endpoint ANIMA_SPARQL_ENDPOINT names, loaded with the same graph). It pulls a
 * 10,000-triple neighbourhood (the classes under "animal" with everything said of them) into an
 * empty session, six times: the first warms the code up, the median of the others is reported.
 * Then it answers 20 goals ("?x is-a carnivore, at least 1", ...), each in an empty session,
 * through the agent's own loop and sparql_query. Storage is fake-indexeddb in Node, as in the
 * CLI. Prints a line per goal, then one JSON object as the last line: {"endpoint","queries",
 * "median_ms","pulled_triples","pull_ms","stored_triples_per_second","endpoint_answer_ms",
 * "store_cpu_ms","load_average"}, where pull_ms is the time from the endpoint's answer to the
 * commit, store_cpu_ms the CPU time this process spent in it, and load_average the machine's
 * (one minute) when the pulls ended: on a shared machine the wall time is the CPU time stretched
 * by the load.
 */
import { availableParallelism, loadavg } from 'node:os';
import { withContractChecks } from '#core/api.ts';
import { createAgentService } from '#core/service/service.ts';
import { DEFAULT_ENDPOINT } from '#core/records/sparql-endpoint.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { freshIndexedDb } from '#core/testing/test-database.ts';
import { synsetIri, wordnetEndpoint } from '#core/testing/sparql-endpoint.ts';

const CLASSES = [
  'carnivore',
  'canine',
  'feline',
  'rodent',
  'bird',
  'fish',
  'reptile',
  'insect',
  'primate',
  'ungulate',
  'whale',
  'bat',
  'marsupial',
  'amphibian',
  'snake',
  'lizard',
  'crustacean',
  'spider',
  'mollusk',
  'bear',
];
const PULLED = 10_000;

/** A fresh session over fake-indexeddb with the endpoint added (asked without approval). */
async function session(url: string, rowLimit: number) {
  const service = withContractChecks(
    createAgentService({
      db: new AnimaDatabase('bench', freshIndexedDb()),
      now: () => Date.now(),
      newId: () => crypto.randomUUID(),
    }),
  );
  const { session } = await service.open({});
  const added = await service.endpointSet({
    sessionId: session.id,
    endpoint: { ...DEFAULT_ENDPOINT, name: 'wordnet', url, rowLimit, mayCallWithoutAsking: true },
  });
  if (!added.ok) throw new Error(added.problems.map((problem) => problem.message).join('; '));
  return { service, sessionId: session.id };
}

const endpoint = await wordnetEndpoint();
// Every request to the endpoint is one query (lookups, answers, pull rounds).
let queries = 0;
const fetchAsBefore = globalThis.fetch;
globalThis.fetch = (input, init) => {
  if (String(input instanceof Request ? input.url : input).startsWith(endpoint.url)) queries++;
  return fetchAsBefore(input, init);
};
try {
  const query = `PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?s ?p ?o WHERE { ?s rdfs:subClassOf* <${synsetIri('00015388')}> . ?s ?p ?o } LIMIT ${PULLED}`;
  /**
   * One pull into an empty session: how long the endpoint took to answer, how long storing took
   * (from the answer to the commit), and the CPU time this process spent storing (what the wall
   * time would be on an idle machine; this one is often shared).
   */
  const pull = async () => {
    const { service, sessionId } = await session(endpoint.url, PULLED);
    const started = performance.now();
    let answered = started;
    let cpuAtAnswer = process.cpuUsage();
    const pulled = await service.kgPull(
      { sessionId, operationId: 'bench', name: 'wordnet', source: { kind: 'query', query } },
      (progress) => {
        if (progress.phase !== 'writing') return;
        answered = performance.now();
        cpuAtAnswer = process.cpuUsage();
      },
    );
    const ended = performance.now();
    const cpu = process.cpuUsage(cpuAtAnswer);
    if (!pulled.ok) throw new Error(`the pull failed: ${pulled.problems.map((problem) => problem.message).join('; ')}`);
    const stored = (await service.kgStats({ sessionId })).triples;
    if (stored !== pulled.added)
      throw new Error(`the pull said ${pulled.added} triples were added, the graph holds ${stored}`);
    return {
      triples: pulled.triples,
      askMs: answered - started,
      storeMs: ended - answered,
      storeCpuMs: (cpu.user + cpu.system) / 1000,
    };
  };
  // The first pull warms the code up (JIT); the median of the next five is reported (a shared machine's load varies).
  await pull();
  const pulls: Awaited<ReturnType<typeof pull>>[] = [];
  for (let run = 0; run < 5; run++) pulls.push(await pull());
  const loadAverage = loadavg()[0]!;
  pulls.sort((a, b) => a.storeMs - b.storeMs);
  const pulled = pulls[2]!;
  const storeCpuMs = pulls.map((one) => one.storeCpuMs).sort((a, b) => a - b)[2]!;
  console.log(
    `pulled ${pulled.triples} triples: the endpoint answered in ${pulled.askMs.toFixed(0)} ms, stored in ${pulled.storeMs.toFixed(0)} ms (${Math.round((pulled.triples / pulled.storeMs) * 1000)} triples/s; ${storeCpuMs.toFixed(0)} ms of CPU; load average ${loadAverage.toFixed(1)} on ${availableParallelism()} cores)`,
  );

  const pullQueries = queries;
  const times: number[] = [];
  for (const name of CLASSES) {
    const { service, sessionId } = await session(endpoint.url, DEFAULT_ENDPOINT.rowLimit);
    await service.goalAdd({
      sessionId,
      description: `Which animals are ${name}s?`,
      criteria: `?x is-a ${name}, at least 1`,
      priority: 128,
    });
    const goalStarted = performance.now();
    await service.agentRun({ sessionId, operationId: 'bench', maxCycles: 3 });
    const ms = performance.now() - goalStarted;
    const [goal] = (await service.goalList({ sessionId, findingsLimit: 1 })).goals;
    if (goal?.status !== 'completed')
      throw new Error(`the goal "?x is-a ${name}" was not answered: ${goal?.status} ${goal?.statusReason ?? ''}`);
    times.push(ms);
    console.log(`?x is-a ${name}: ${goal.findingsTotal} findings in ${ms.toFixed(0)} ms`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = (sorted[9]! + sorted[10]!) / 2;
  console.log(
    JSON.stringify({
      endpoint: 'virtuoso-opensource 7 (WordNet 3.0 animal nouns)',
      queries: queries - pullQueries,
      median_ms: Math.round(median),
      pulled_triples: pulled.triples,
      pull_ms: Math.round(pulled.storeMs),
      stored_triples_per_second: Math.round((pulled.triples / pulled.storeMs) * 1000),
      endpoint_answer_ms: Math.round(pulled.askMs),
      store_cpu_ms: Math.round(storeCpuMs),
      load_average: Number(loadAverage.toFixed(1)),
    }),
  );
} finally {
  globalThis.fetch = fetchAsBefore;
  await endpoint.stop();
}

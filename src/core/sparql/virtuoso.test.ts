import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anima } from '../../cli/testing/run-anima.ts';
import { defaultPsyche } from '#core/records/psyche.ts';
import { synsetIri, wordnetEndpoint } from '#core/testing/sparql-endpoint.ts';
import { testService } from '#core/testing/test-database.ts';
import { DEFAULT_ENDPOINT, type SparqlEndpoint } from '#core/records/sparql-endpoint.ts';

/**
 * Against a real SPARQL engine (Virtuoso, started here, or the endpoint ANIMA_SPARQL_ENDPOINT
 * names) loaded with WordNet's animal nouns: what the agent and a pull bring in from it. If the
 * engine cannot start, every test here fails, saying why.
 */
let endpoint: { url: string; stop(): Promise<void> } | undefined;
let startProblem: unknown;
beforeAll(async () => {
  try {
    endpoint = await wordnetEndpoint();
  } catch (error) {
    startProblem = error;
  }
}, 180_000);
afterAll(async () => endpoint?.stop(), 30_000);

function endpointUrl(): string {
  if (!endpoint)
    throw new Error(
      `the SPARQL engine for these tests did not start: ${startProblem instanceof Error ? startProblem.message : String(startProblem)}`,
    );
  return endpoint.url;
}

async function sessionWithEndpoint(settings: Partial<SparqlEndpoint> = {}) {
  const { db, service } = testService();
  const { session } = await service.open({});
  const added = await service.endpointSet({
    sessionId: session.id,
    endpoint: { ...DEFAULT_ENDPOINT, name: 'wordnet', url: endpointUrl(), ...settings },
  });
  expect(added.ok).toBe(true);
  return { db, service, sessionId: session.id };
}

describe('a real SPARQL endpoint (Virtuoso with WordNet)', () => {
  it('checks with one ASK {} and says how long it took', async () => {
    const { service, sessionId } = await sessionWithEndpoint();
    const checked = await service.endpointCheck({ sessionId, name: 'wordnet' });
    expect(checked).toMatchObject({ ok: true });
    expect(checked.ok && checked.ms).toBeGreaterThan(0);
  });

  it('answers a pattern goal with an empty local graph through the endpoint, with provenance', async () => {
    const { service, sessionId } = await sessionWithEndpoint({ mayCallWithoutAsking: true });
    expect((await service.kgStats({ sessionId })).triples).toBe(0);
    await service.goalAdd({
      sessionId,
      description: 'Which animals are carnivores?',
      criteria: '?x is-a carnivore, at least 5',
      priority: 128,
    });
    const cycles: string[] = [];
    const run = await service.agentRun({ sessionId, operationId: 'run', maxCycles: 3 }, (record) =>
      cycles.push(`${record.tool}: ${record.act}`),
    );
    expect(run.ok).toBe(true);
    expect(cycles[0]).toMatch(/^sparql_query: SPARQL at wordnet: \d+ answers to \?x is-a carnivore; \d+ new facts/);
    const [goal] = (await service.goalList({ sessionId, findingsLimit: 1000 })).goals;
    expect(goal).toMatchObject({ status: 'completed' });
    // The answers are the endpoint's own resources: a dog (a canine, two steps below carnivore) among them.
    const local = await service.kgQuery({ sessionId, query: '?x is-a carnivore', limit: 10_000 });
    expect(local.ok && local.rows.length).toBeGreaterThanOrEqual(5);
    expect(local.ok && local.rows.map((row) => row.x!.iri)).toContain(synsetIri('02084071'));
    const finding = goal!.findings[0]!;
    expect(finding.confidence).toBe(DEFAULT_ENDPOINT.trust);
    const provenance = await service.kgProvenance({ sessionId, provenanceId: finding.provenanceId! });
    expect(provenance).toMatchObject({ isFound: true, record: { kind: 'sparql', sources: [endpointUrl()] } });
    expect(provenance.isFound && provenance.record.detail).toContain('(rdf:type|rdfs:subClassOf)/rdfs:subClassOf*');
    // Names travel with the answers: the dog has one of its labels here now.
    const dogId = local.ok ? local.rows.find((row) => row.x!.iri === synsetIri('02084071'))!.x!.id : -1;
    const dog = await service.kgSymbol({ sessionId, symbolId: dogId, limit: 100 });
    expect(
      dog.isFound &&
        dog.outgoing.filter((fact) => fact.predicate.label === 'label').map((fact) => fact.object.label)[0],
    ).toMatch(/^(dog|domestic dog|Canis familiaris)$/);
  }, 60_000);

  it('answers a goal in plain words through what lies around the resource the endpoint names by them', async () => {
    const { service, sessionId } = await sessionWithEndpoint({ mayCallWithoutAsking: true });
    await service.goalAdd({ sessionId, description: 'Tell me about foxes', priority: 128 });
    const acts: string[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 3 }, (record) =>
      acts.push(`${record.tool}: ${record.act}`),
    );
    expect(acts.find((act) => act.startsWith('sparql_query'))).toMatch(
      /^sparql_query: SPARQL at wordnet: \d+ triples around \d resources? named foxes; \d+ new facts/,
    );
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal).toMatchObject({ status: 'completed' });
    expect((await service.kgSearch({ sessionId, text: 'fox', limit: 5 })).total).toBeGreaterThan(0);
  }, 60_000);

  it('waits for the approval of the user when the endpoint is not marked "without asking"', async () => {
    const { service, sessionId } = await sessionWithEndpoint();
    await service.goalAdd({
      sessionId,
      description: 'Find canines',
      criteria: '?x is-a canine, at least 3',
      priority: 128,
    });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 1 });
    const { approvals } = await service.approvalList({ sessionId });
    expect(approvals).toMatchObject([
      { tool: 'sparql_query', status: 'pending', input: { endpoint: 'wordnet', pattern: '?x is-a canine' } },
    ]);
    expect((await service.kgStats({ sessionId })).triples).toBe(0);
  }, 60_000);

  it('is stopped by a veto pattern that names the endpoint', async () => {
    const { service, sessionId } = await sessionWithEndpoint({ mayCallWithoutAsking: true });
    const psyche = defaultPsyche();
    psyche.shadow.vetoPatterns.push({
      name: 'no_wordnet',
      triggers: ['"endpoint":"wordnet"'],
      capabilityTriggers: [],
      severity: 1,
      explanation: 'Never ask WordNet.',
      requireApproval: false,
    });
    expect((await service.psycheSave({ sessionId, psyche })).ok).toBe(true);
    await service.goalAdd({
      sessionId,
      description: 'Find canines',
      criteria: '?x is-a canine, at least 3',
      priority: 128,
    });
    const records: { tool: string; act: string; shadow?: string }[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 2 }, (record) =>
      records.push({ tool: record.tool, act: record.act, shadow: record.shadow?.pattern }),
    );
    expect(records[0]).toMatchObject({ tool: 'sparql_query', shadow: 'no_wordnet' });
    expect(records.filter((record) => record.tool === 'sparql_query' && record.shadow === undefined)).toEqual([]);
    expect((await service.kgStats({ sessionId })).triples).toBe(0);
  }, 60_000);

  it('pulls a neighbourhood by hand: a count first, then all of it, with its queries as provenance', async () => {
    const { service, sessionId } = await sessionWithEndpoint();
    const source = { kind: 'around' as const, iri: synsetIri('02084071'), depth: 1 };
    const preview = await service.kgPull({ sessionId, operationId: 'pull', name: 'wordnet', source, dryRun: true });
    expect(preview).toMatchObject({ ok: true, isDryRun: true, added: 0 });
    const count = preview.ok ? preview.triples : 0;
    expect(count).toBeGreaterThan(10);
    expect((await service.kgStats({ sessionId })).triples).toBe(0);
    const pulled = await service.kgPull({ sessionId, operationId: 'pull', name: 'wordnet', source });
    expect(pulled).toMatchObject({ ok: true, triples: count, added: count, isDryRun: false });
    expect((await service.kgStats({ sessionId })).triples).toBe(count);
  }, 60_000);

  it('brings in nothing of a neighbourhood larger than the row limit', async () => {
    const { service, sessionId } = await sessionWithEndpoint({ rowLimit: 50 });
    const pulled = await service.kgPull({
      sessionId,
      operationId: 'pull',
      name: 'wordnet',
      source: { kind: 'around', iri: synsetIri('01861778'), depth: 3 },
    });
    expect(pulled).toMatchObject({ ok: false, reason: 'too-large' });
    expect(!pulled.ok && pulled.problems[0]!.message).toMatch(
      /^more than 50 triples lie within \d steps? of .*01861778-n at the endpoint wordnet: nothing was brought in/,
    );
    expect((await service.kgStats({ sessionId })).triples).toBe(0);
  }, 60_000);

  it('keeps what the endpoint says beside a local fact that disagrees, each with its source', async () => {
    const { service, sessionId } = await sessionWithEndpoint();
    const dog = synsetIri('02084071');
    const local = `<${dog}> <http://www.w3.org/2000/01/rdf-schema#label> "cat"@en .\n`;
    expect(
      (await service.kgImport({ sessionId, operationId: 'import', fileName: 'mine.nt', data: new Blob([local]) })).ok,
    ).toBe(true);
    const pulled = await service.kgPull({
      sessionId,
      operationId: 'pull',
      name: 'wordnet',
      source: { kind: 'query', query: `CONSTRUCT { <${dog}> ?p ?o } WHERE { <${dog}> ?p ?o }` },
    });
    expect(pulled.ok).toBe(true);
    const answer = await service.kgQuery({ sessionId, query: `<${dog}> label ?name`, limit: 100 });
    const names = answer.ok ? answer.rows.map((row) => row.name!.label) : [];
    expect(names).toEqual(expect.arrayContaining(['cat', 'dog', 'domestic dog']));
    // The symbol is named by one of its labels now (#22), so it is found by a label it has.
    const named = await service.kgQuery({ sessionId, query: '?thing label ?name', limit: 1000 });
    const symbolId = named.ok ? named.rows.find((row) => row.name!.label === 'domestic dog')?.thing!.id : undefined;
    const symbol = await service.kgSymbol({ sessionId, symbolId: symbolId!, limit: 100 });
    const labels = symbol.isFound ? symbol.outgoing.filter((fact) => fact.predicate.label === 'label') : [];
    const kinds = await Promise.all(
      labels.map(
        async (fact) =>
          [
            fact.object.label,
            (await service.kgProvenance({ sessionId, provenanceId: fact.provenanceId! })).isFound && fact.confidence,
          ] as const,
      ),
    );
    expect(Object.fromEntries(kinds)).toMatchObject({ cat: 1, dog: DEFAULT_ENDPOINT.trust });
  }, 60_000);
});

describe('the CLI against a real SPARQL endpoint', () => {
  it('adds, lists and checks an endpoint, then a run with an empty graph reaches the answer through it', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'anima-sparql-'));
    const snapshot = join(folder, 'session.json');
    const added = await anima(
      'endpoint',
      'add',
      'wordnet',
      endpointUrl(),
      '--snapshot',
      snapshot,
      '--trust',
      '0.7',
      '--row-limit',
      '500',
    );
    expect(added).toMatchObject({
      code: 0,
      out: `added wordnet\t${endpointUrl()}\ttimeout 20 s, at most 500 rows, trust 0.7, labels in en, each query waits for approval\n`,
    });
    expect((await anima('endpoint', 'list', '--snapshot', snapshot)).out).toContain('wordnet\t');
    expect((await anima('endpoint', 'check', 'wordnet', '--snapshot', snapshot)).out).toMatch(
      /^wordnet: answered ASK \{\} in \d+ ms\n$/,
    );

    const run = await anima(
      'run',
      '--goal',
      'Which animals are canines?',
      '--criteria',
      '?x is-a canine, at least 3',
      '--endpoint',
      'wordnet',
      '--max-cycles',
      '3',
      '--snapshot',
      snapshot,
      '--json',
    );
    expect(run.code).toBe(0);
    const lines = run.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ tool: 'sparql_query', outcome: 'completed' });
    const [goal] = lines.at(-1).goals;
    expect(goal).toMatchObject({ status: 'completed' });
    expect(goal.findings.length).toBeGreaterThanOrEqual(3);
    const answers = goal.findings.filter((finding: { predicate: string }) => finding.predicate === 'is-a');
    expect(answers.length).toBeGreaterThanOrEqual(3);
    // What came from where: each answer names the endpoint it came from.
    expect(
      answers.every(
        (finding: { object: string; confidence: number; from: string }) =>
          finding.object === 'canine' && finding.confidence === 0.7 && finding.from === `sparql ${endpointUrl()}`,
      ),
    ).toBe(true);
  }, 90_000);

  it('pulls around an IRI, counting first with --dry-run, and from a query file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'anima-sparql-'));
    const snapshot = join(folder, 'session.json');
    await anima('endpoint', 'add', 'wordnet', endpointUrl(), '--snapshot', snapshot);
    const counted = await anima(
      'kg',
      'pull',
      '--endpoint',
      'wordnet',
      '--around',
      synsetIri('02084071'),
      '--dry-run',
      '--snapshot',
      snapshot,
    );
    expect(counted.out).toMatch(/^(\d+) triples from wordnet \(1 queries, \d+ ms\); nothing written \(--dry-run\)\n$/);
    expect(JSON.parse((await anima('kg', 'stats', '--snapshot', snapshot, '--json')).out).triples).toBe(0);
    const pulled = await anima(
      'kg',
      'pull',
      '--endpoint',
      'wordnet',
      '--around',
      synsetIri('02084071'),
      '--snapshot',
      snapshot,
    );
    const count = Number(/^(\d+)/.exec(counted.out)![1]);
    expect(pulled.out).toMatch(new RegExp(`^${count} triples from wordnet: ${count} new, 0 raised in confidence`));
    expect(JSON.parse((await anima('kg', 'stats', '--snapshot', snapshot, '--json')).out).triples).toBe(count);

    const queryFile = join(folder, 'labels.rq');
    await writeFile(
      queryFile,
      `PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\nCONSTRUCT { ?x rdfs:label ?l } WHERE { ?x rdfs:subClassOf <${synsetIri('02084071')}> ; rdfs:label ?l }`,
    );
    const byQuery = await anima('kg', 'pull', '--endpoint', 'wordnet', '--query', queryFile, '--snapshot', snapshot);
    expect(byQuery).toMatchObject({ code: 0, out: expect.stringMatching(/^\d+ triples from wordnet: \d+ new/) });
    const refused = await anima(
      'kg',
      'pull',
      '--endpoint',
      'wordnet',
      '--around',
      synsetIri('01861778'),
      '--depth',
      '5',
      '--snapshot',
      snapshot,
    );
    expect(refused).toMatchObject({
      code: 1,
      error: expect.stringMatching(
        /\nanima: kg pull: nothing brought in: more than 1,000 triples lie within 4 steps of \S+01861778-n at the endpoint wordnet: nothing was brought in/,
      ),
    });
  }, 90_000);
});

import { describe, expect, it } from 'vitest';
import { testService } from '#core/testing/test-database.ts';

const STARTER = `@prefix : <urn:anima:kg#> .
:GoldenRetriever :is-a :Dog . :Dog :is-a :Canine . :Canine :is-a :Mammal .
:SiameseCat :is-a :Cat . :Cat :is-a :Feline . :Feline :is-a :Mammal .
`;

/** A session whose goal "Find mammals" ran until done: some findings imported, some inferred by the rules. */
async function ranGoal() {
  const { service } = testService({ loadStarterGraph: async () => STARTER });
  const { session } = await service.open({});
  const added = await service.goalAdd({
    sessionId: session.id,
    description: 'Find mammals',
    criteria: '?x is-a mammal, at least 5',
  });
  if (!added.ok) throw new Error('goal refused');
  await service.agentRun({ sessionId: session.id, operationId: 'run', maxCycles: 5 });
  const findings = (args: {
    sort?: 'found' | 'name' | 'kind' | 'confidence' | 'source';
    filter?: string;
    limit?: number;
    offset?: number;
  }) =>
    service.goalFindings({
      sessionId: session.id,
      goalId: added.goal.id,
      sort: 'found',
      filter: '',
      offset: 0,
      limit: 200,
      ...args,
    });
  return { findings };
}

const text = (fact: { subject: { label: string }; predicate: { label: string }; object: { label: string } }) =>
  `${fact.subject.label} ${fact.predicate.label} ${fact.object.label}`;

describe("a goal's findings, sorted and filtered", () => {
  it('filters by every word, in names and in the source, and counts what matches', async () => {
    const { findings } = await ranGoal();
    const all = await findings({});
    if (!all.ok) throw new Error('refused');
    expect(all.total).toBeGreaterThanOrEqual(6);
    expect(all.matching).toBe(all.total);

    const cats = await findings({ filter: 'siamese MAMMAL' });
    expect(cats.ok && cats.findings.map(text)).toEqual(['SiameseCat is-a Mammal']);
    expect(cats.ok && cats.matching).toBe(1);
    // The source in words: the rules' facts say "Inferred", the starter graph's "Starter graph".
    const inferred = await findings({ filter: 'inferred' });
    expect(inferred.ok && inferred.findings.every((fact) => fact.source === 'inference')).toBe(true);
    expect(inferred.ok && inferred.matching).toBeGreaterThan(0);
    expect(inferred.ok && inferred.matching).toBeLessThan(all.total);
  });

  it('sorts by name, kind, confidence or source, and pages through the result', async () => {
    const { findings } = await ranGoal();
    const byName = await findings({ sort: 'name' });
    if (!byName.ok) throw new Error('refused');
    const names = byName.findings.map((fact) => fact.subject.label);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const byConfidence = await findings({ sort: 'confidence' });
    const confidences = byConfidence.ok ? byConfidence.findings.map((fact) => fact.confidence) : [];
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
    const bySource = await findings({ sort: 'source' });
    const sources = bySource.ok ? bySource.findings.map((fact) => fact.source) : [];
    expect(sources.indexOf('inference')).toBeLessThan(sources.lastIndexOf('starter-graph'));
    const second = await findings({ sort: 'name', offset: 2, limit: 2 });
    expect(second.ok && second.findings.map(text)).toEqual(byName.findings.slice(2, 4).map(text));
  });

  it('says so in a sentence when the goal is not in the session', async () => {
    const { service } = testService({ loadStarterGraph: async () => STARTER });
    const { session } = await service.open({});
    expect(
      await service.goalFindings({
        sessionId: session.id,
        goalId: 99,
        sort: 'found',
        filter: '',
        offset: 0,
        limit: 10,
      }),
    ).toEqual({
      ok: false,
      problems: [{ path: 'goalId', message: 'there is no goal 99 in this session' }],
    });
  });
});

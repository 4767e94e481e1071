import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from 'oxigraph';
import { beforeEach, describe, expect, it } from 'vitest';
import { readerLanguage } from './kg-vocabulary.ts';
import { anima } from '../testing/run-anima.ts';

const RDFS_FIXTURE = new URL('../../../tests/fixtures/public/wordnet-canine-planet.rdfs.ttl', import.meta.url).pathname;
const SKOS_FIXTURE = new URL('../../../tests/fixtures/public/wordnet-felines.skos.ttl', import.meta.url).pathname;

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'anima-vocabulary-'));
});

const rows = async (...argv: string[]) => {
  const result = await anima(...argv, '--json');
  expect(result).toMatchObject({ code: 0 });
  return (JSON.parse(result.out) as { rows: Record<string, string>[] }).rows;
};

describe('anima kg with the standard vocabularies', () => {
  it(
    "imports RDFS, infers as RDFS entails, and answers is-a, prefixed names and the file's own prefixes",
    { timeout: 60_000 },
    async () => {
      const snapshot = join(folder, 'wordnet.json');
      expect(await anima('kg', 'import', RDFS_FIXTURE, '--snapshot', snapshot)).toMatchObject({ code: 0 });
      // Named by their rdfs:label, never a number: "canine" the animal, and the rest by their own names.
      expect(await rows('kg', 'query', 'wnid:02083346-n rdfs:label ?name', '--snapshot', snapshot)).toEqual([
        { name: 'canine' },
        { name: 'canid' },
      ]);
      expect(await rows('kg', 'query', '?x rdfs:subClassOf canine', '--snapshot', snapshot)).toEqual(
        expect.arrayContaining([{ x: 'dog' }, { x: 'wolf' }, { x: 'fox' }]),
      );
      expect(await anima('kg', 'infer', '--snapshot', snapshot)).toMatchObject({ code: 0 });
      // Mars is an instance of planet (rdf:type), planet a celestial body: so Mars is one too, as rdf:type.
      expect(await rows('kg', 'query', '?x rdf:type wnid:09239740-n', '--snapshot', snapshot)).toEqual(
        expect.arrayContaining([{ x: 'Mars' }, { x: 'Jupiter' }]),
      );
      expect(await rows('kg', 'query', '?x is-a carnivore . ?x rdfs:label "dog"@en', '--snapshot', snapshot)).toEqual([
        { x: 'dog' },
      ]);

      // A relation alone lists its facts.
      expect(await rows('kg', 'query', 'rdfs:subClassOf', '--snapshot', snapshot)).toContainEqual({
        subject: 'dog',
        object: 'canine',
      });
      const prefixes = await anima('kg', 'prefixes', '--snapshot', snapshot);
      expect(prefixes.out).toContain('wnid:\thttp://wordnet-rdf.princeton.edu/id/\t(declared)\n');
      expect(prefixes.out).toContain('wdt:\thttp://www.wikidata.org/prop/direct/\n');
    },
  );

  it('exports every imported triple as the file stated it', { timeout: 60_000 }, async () => {
    const snapshot = join(folder, 'wordnet.json');
    await anima('kg', 'import', RDFS_FIXTURE, '--snapshot', snapshot);
    const exported = await anima('kg', 'export', '--snapshot', snapshot);
    const [original, roundTrip] = [new Store(), new Store()];
    original.load(await readFile(RDFS_FIXTURE, 'utf8'), { format: 'text/turtle' });
    roundTrip.load(exported.out, { format: 'application/n-triples' });
    expect(roundTrip.size).toBe(original.size);
    for (const quad of original.match()) expect(roundTrip.has(quad)).toBe(true);
  });

  it(
    'joins a second graph: its relations join known ones, a shared name is told apart, and linked only when asked',
    { timeout: 60_000 },
    async () => {
      const second = join(folder, 'wikidata-dogs.ttl');
      await writeFile(
        second,
        `@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
wd:Q144 rdfs:label "dog"@en, "chien"@fr ; wdt:P279 wd:Q39201 .
wd:Q39201 rdfs:label "pet"@en .
<http://other.example/Lassie> <http://other.example/is-a> wd:Q144 .
`,
      );
      const snapshot = join(folder, 'joined.json');
      await anima('kg', 'import', RDFS_FIXTURE, '--snapshot', snapshot);
      // The preview says, before anything is written or linked, what the file shares with the graph.
      const before = await readFile(snapshot);
      const preview = await anima('kg', 'import', second, '--snapshot', snapshot, '--dry-run');
      expect(preview).toMatchObject({
        code: 0,
        out: `${second}: 5 statements would add 5 new triples and raise 0 in confidence; nothing written (--dry-run)\n`,
      });
      expect(preview.error).toContain(
        'anima: 2 of its relations would join known ones: wdt:P279 → is-a, http://other.example/is-a → is-a\n',
      );
      expect(preview.error).toContain(
        'anima: 1 of its things are named as things the graph has (dog (pet) ~ dog); --link-same-labels links them as the same\n',
      );
      expect(await readFile(snapshot)).toEqual(before);

      const joined = await anima('kg', 'import', second, '--snapshot', snapshot);
      expect(joined.code).toBe(0);
      // Each relation in the file's own terms (its wdt: prefix).
      expect(joined.error).toContain(
        'anima: 2 of its relations join known ones: wdt:P279 → is-a, http://other.example/is-a → is-a\n',
      );
      expect(joined.error).toContain(
        'anima: 1 of its things are named as things the graph has (dog (pet) ~ dog); --link-same-labels links them as the same\n',
      );
      // Found by its name, told apart by its parent; the other dog is no pet.
      expect(await rows('kg', 'query', '?x is-a "dog (pet)"', '--snapshot', snapshot)).toEqual([{ x: 'Lassie' }]);
      expect(await rows('kg', 'query', '?x is-a wnid:02084071-n', '--snapshot', snapshot)).not.toContainEqual({
        x: 'Lassie',
      });

      const linked = join(folder, 'linked.json');
      await anima('kg', 'import', RDFS_FIXTURE, '--snapshot', linked);
      const withLinks = await anima('kg', 'import', second, '--snapshot', linked, '--link-same-labels');
      expect(withLinks.error).toContain(
        'anima: linked 1 things to those of the same name in the graph (owl:sameAs): dog (pet) ~ dog\n',
      );
      // One dog now: what is said of either is said of both.
      expect(await rows('kg', 'query', '?x is-a wnid:02084071-n', '--snapshot', linked)).toContainEqual({
        x: 'Lassie',
      });
      const everything = await rows('kg', 'query', '?x ?p ?o', '--snapshot', linked, '--limit', '10000');
      expect(everything.flatMap((row) => Object.values(row)).filter((label) => /-\d+$/u.test(label))).toEqual([]);
    },
  );

  it('says a SKOS thesaurus joins is-a in its own terms: skos:broader as is-a, skos:narrower as is-a read backwards', async () => {
    const preview = await anima('kg', 'import', SKOS_FIXTURE, '--snapshot', join(folder, 'cats.json'), '--dry-run');
    expect(preview.code).toBe(0);
    const [joins] = preview.error.split('\n').filter((line) => line.includes('would join known ones'));
    expect(joins).toContain('skos:broader → is-a');
    expect(joins).toContain('skos:narrower → is-a, read backwards');
    expect(joins).not.toContain('has-instance');
  });

  it("reaches a goal whose criteria use the file's own prefix and RDFS", { timeout: 60_000 }, async () => {
    const snapshot = join(folder, 'planets.json');
    const run = await anima(
      'run',
      '--kg',
      RDFS_FIXTURE,
      '--goal',
      'Find the planets',
      '--criteria',
      '?x rdf:type wnid:09394007-n, at least 5',
      '--max-cycles',
      '5',
      '--snapshot',
      snapshot,
    );
    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      /#1\tcompleted\tFind the planets\t\d+ findings\t\d+ answers to \?x rdf:type wnid:09394007-n, at least 5 needed/u,
    );
  });

  it("reads the reader's language from the environment", () => {
    expect(readerLanguage({ LANG: 'fr_FR.UTF-8' })).toBe('fr-FR');
    expect(readerLanguage({ LANG: 'C.UTF-8' })).toBeUndefined();
    expect(readerLanguage({})).toBeUndefined();
  });
});

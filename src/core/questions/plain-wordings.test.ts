import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { readGraphFile } from '#core/kg/import/read-graph-file.ts';
import { answerReading } from './answer.ts';
import { readQuestion } from './reading.ts';
import { lemmaVariants } from './words.ts';

// Wordings a person uses that the first reader misread: the passive, "-ing" forms, names with an adjective.

async function graphFrom(path: string): Promise<KnowledgeGraph> {
  const graph = new KnowledgeGraph();
  const batch = graph.batch({ now: 1 });
  await readGraphFile({ source: readFileSync(path, 'utf8'), format: 'turtle', batch });
  graph.apply(batch.delta);
  return graph;
}

let starter: KnowledgeGraph;
let countries: KnowledgeGraph;
beforeAll(async () => {
  starter = await graphFrom('public/starter-graph.ttl');
  countries = await graphFrom('tests/fixtures/public/countries.ttl');
});

function ask(graph: KnowledgeGraph, question: string) {
  const reading = readQuestion(graph, question);
  if (!reading.ok) throw new Error(reading.error[0]!.message);
  return { reading: reading.value, answer: answerReading(graph, reading.value) };
}

describe('plain wordings of questions over real graphs', () => {
  it('takes an "-ing" form as its verb, and "Count the ..." as counting', () => {
    expect(lemmaVariants('using')).toContain('use');
    expect(lemmaVariants('running')).toContain('run');
    const { reading, answer } = ask(countries, 'Count the countries using the euro');
    expect(reading.text).toBe('how many ?x with ?x is-a Country . ?x has-currency Euro (following is-a chains)');
    expect(answer).toMatchObject({ kind: 'count', value: 34 });
  });

  it('reads a passive yes-or-no question, or "the X of Y", as the relation between the two', () => {
    const euro = ask(countries, 'Is the euro used in Germany?');
    expect(euro.reading.text).toBe('whether Germany has-currency Euro');
    expect(euro.answer).toMatchObject({ kind: 'boolean', value: true });
    expect(ask(countries, 'Is the euro used in Switzerland?').answer).toMatchObject({ kind: 'boolean', value: false });
    const franc = ask(countries, 'Is the Swiss franc the currency of Switzerland?');
    expect(franc.reading.text).toBe('whether Switzerland has-currency Swiss Franc');
    expect(franc.answer).toMatchObject({ kind: 'boolean', value: true });
    // A participle between the relation's noun and "in" does not change its way round.
    expect(ask(countries, 'Is the euro the currency used in France?').reading.text).toBe(
      'whether France has-currency Euro',
    );
    expect(ask(countries, 'Is the euro the currency of Switzerland?').answer.value).toBe(false);
    expect(ask(countries, 'Is Spanish spoken in Argentina?').answer).toMatchObject({ kind: 'boolean', value: true });
  });

  it('says no only where the graph records the relation for the thing at all', () => {
    // The graph states no official language of Mexico: a "no" would deny what it never recorded.
    const { answer } = ask(countries, 'Is Spanish spoken in Mexico?');
    expect(answer.kind).toBe('none');
    expect(answer.reason).toContain('cannot say no of Mexico');
    // A relation the question names, which the graph records of none of them: no "no" either.
    expect(ask(starter, 'Is Mercury larger than Ganymede?').answer.reason).toContain(
      'records no larger-than of Mercury at all',
    );
    expect(ask(countries, 'Does Japan use the euro?').answer).toMatchObject({ kind: 'boolean', value: false });
  });

  it('says no only for the relation the question asks, not a narrower one the graph records', () => {
    // The graph records official languages: Spanish not official in the United States may still be spoken there.
    const { answer } = ask(countries, 'Is Spanish spoken in the United States?');
    expect(answer.kind).toBe('none');
    expect(answer.reason).toContain('does not say "official"');
    expect(ask(countries, 'Is English an official language of France?').answer.value).toBe(false);
    expect(ask(countries, 'Is the euro used in Switzerland?').answer.value).toBe(false);
  });

  it('takes a name before another as part of its name, not as a second thing to match', () => {
    // The graph calls the currency "Yen"; "Japanese" is a language, tied to the yen through Japan.
    const { reading, answer } = ask(countries, 'Which country uses the Japanese yen?');
    expect(reading.text).toBe('every ?x with ?x is-a Country . ?x has-currency Yen (following is-a chains)');
    expect(reading.matched.map((match) => match.words)).toContain('Japanese yen');
    expect(answer.entities.map((entity) => entity.label)).toEqual(['Japan']);
    // Nothing ties Chinese to the yen: both stay, and no country has both.
    expect(ask(countries, 'Which country uses the Chinese yen?').reading.text).toContain('official-language Chinese');
    // "Jupiter's" owns what follows; it is not part of its name.
    expect(ask(starter, "What is Jupiter's largest moon?").reading.matched.map((match) => match.words)).toContain(
      'Jupiter',
    );
  });

  it('reads a relation named between two things the way round its words say', () => {
    // The starter graph says Ganymede larger-than Mercury: that is no proof Mercury is larger.
    expect(ask(starter, 'Is Ganymede larger than Mercury?').answer).toMatchObject({ kind: 'boolean', value: true });
    const reverse = ask(starter, 'Is Mercury larger than Ganymede?');
    expect(reverse.reading.text).toBe('whether Mercury larger-than Ganymede');
    expect(reverse.answer.kind).toBe('none');
    expect(ask(starter, 'Is Europa a moon of Jupiter?').reading.text).toBe('whether Jupiter has-moon Europa');
  });

  it('turns the relation round for the passive and the possessive, not for a relation ending in "in"', () => {
    expect(ask(starter, 'Is Mars orbited by Phobos?').reading.text).toBe('whether Phobos orbits Mars');
    expect(ask(starter, 'Do whales live in the ocean?').reading.text).toBe('whether Whale lives-in Ocean');
    // "Germany's currency" is Germany has-currency, not "the yen is a currency".
    expect(ask(countries, "Is the yen Germany's currency?").answer).toMatchObject({ kind: 'boolean', value: false });
    expect(ask(countries, "Is the euro Germany's currency?").reading.text).toBe('whether Germany has-currency Euro');
    expect(ask(starter, "Is Phobos Jupiter's moon?").answer).toMatchObject({ kind: 'boolean', value: false });
  });

  it('asks a yes or no of two things, not of three joined by "and"', () => {
    // Only Switzerland of the two makes German official: a yes would be half true.
    const { answer } = ask(countries, 'Is German spoken in France and Switzerland?');
    expect(answer.kind).toBe('none');
    expect(answer.reason).toContain('German, France, Switzerland');
  });

  it('answers none naming a comparison the graph has no word or fact for', () => {
    for (const [graph, question, word] of [
      ['starter', 'Is Jupiter bigger than Mars?', '"bigger"'],
      ['countries', 'Is Germany bigger than France?', '"bigger"'],
      ['starter', 'What is the smallest planet?', '"smallest"'],
      ['countries', 'Which country has the most languages?', '"most"'],
    ] as const) {
      const { answer } = ask(graph === 'starter' ? starter : countries, question);
      expect(answer.kind, question).toBe('none');
      expect(answer.reason, question).toContain(word);
    }
  });

  it('reads "the largest planet" as the planet the graph gives that property', () => {
    const { reading, answer } = ask(starter, 'What is the largest planet?');
    expect(reading.text).toBe('every ?x with ?x is-a Planet . ?x has-property LargestPlanet (following is-a chains)');
    expect(answer.entities.map((entity) => entity.label)).toEqual(['Jupiter']);
    // A name that ends in no kind is still described by its own classes, never by who has it.
    expect(ask(starter, 'What is krill?').reading.query?.form).toBe('describe');
  });

  it('reads "what\'s" as "what is", and a British spelling', () => {
    expect(ask(starter, "What's a platypus?").answer.entities[0]?.label).toBe('Monotreme');
    expect(ask(starter, 'What colour is Mars?').answer.entities.map((entity) => entity.label)).toEqual(['Red']);
  });

  it('answers none, not an empty list, when two things share no class', () => {
    const { answer } = ask(starter, 'What do a whale and a planet have in common?');
    expect(answer.kind).toBe('none');
    expect(answer.reason).toBe('this graph puts Whale and Planet in no class together');
  });

  it('keeps every thing a list question names, not only the first relation it finds', () => {
    const { reading, answer } = ask(
      countries,
      'Which countries are using the euro and have German as an official language?',
    );
    expect(reading.text).toContain('has-currency Euro');
    // Switzerland and Liechtenstein have German but the Swiss franc.
    expect(answer.entities.map((entity) => entity.label).sort()).toEqual([
      'Austria',
      'Belgium',
      'Germany',
      'Luxembourg',
    ]);
  });

  it('answers none for "or", which patterns that hold together would read as "and"', () => {
    const { answer } = ask(countries, 'Which countries use the euro or the Swiss franc?');
    expect(answer.kind).toBe('none');
    expect(answer.reason).toContain('("or")');
  });
});

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { readGraphFile } from '#core/kg/import/read-graph-file.ts';
import { graphOf } from '#core/testing/graph-of.ts';
import { answerReading } from './answer.ts';
import { answerText } from './answer-view.ts';
import { readQuestion } from './reading.ts';

let starter: KnowledgeGraph;
beforeAll(async () => {
  starter = new KnowledgeGraph();
  const batch = starter.batch({ now: 1 });
  await readGraphFile({ source: readFileSync('public/starter-graph.ttl', 'utf8'), format: 'turtle', batch });
  starter.apply(batch.delta);
});

function ask(graph: KnowledgeGraph, question: string) {
  const reading = readQuestion(graph, question);
  if (!reading.ok) throw new Error(reading.error[0]!.message);
  return { reading: reading.value, answer: answerReading(graph, reading.value) };
}
const labels = (answer: { entities: { label: string }[] }) => answer.entities.map((entity) => entity.label).sort();

const countries = graphOf([
  ['AS', 'is-a', 'Country'],
  ['AS', 'has-currency', 'USD'],
  ['DE', 'is-a', 'Country'],
  ['DE', 'has-currency', 'Euro'],
  ['FR', 'is-a', 'Country'],
  ['FR', 'has-currency', 'Euro'],
  ['JP', 'is-a', 'Country'],
  ['JP', 'has-currency', 'Yen'],
  ['CH', 'is-a', 'Country'],
  ['CH', 'official-language', 'French'],
  ['CH', 'official-language', 'German'],
  ['Euro', 'is-a', 'Currency'],
  ['Yen', 'is-a', 'Currency'],
  ['USD', 'is-a', 'Currency'],
]);

describe('reading questions with the graph’s own names', () => {
  it('lists a class over its whole is-a closure, not only its direct members', () => {
    const { answer } = ask(starter, 'Find all mammals');
    expect(answer.kind).toBe('entities');
    // Whale is a Cetacean, which is a Mammal: known only through the chain.
    expect(labels(answer)).toEqual(expect.arrayContaining(['Whale', 'Dolphin', 'Lion', 'Cetacean']));
    expect(labels(answer)).not.toContain('Penguin');
  });

  it('answers yes with the chain of facts, and no with the reason', () => {
    const whale = ask(starter, 'Is a whale a mammal?').answer;
    expect(whale).toMatchObject({ kind: 'boolean', value: true });
    expect(answerText(starter, whale)).toBe('Yes: Whale subClassOf Cetacean; Cetacean subClassOf Mammal.');
    const bat = ask(starter, 'Is a bat a bird?').answer;
    expect(bat).toMatchObject({ kind: 'boolean', value: false });
    expect(bat.reason).toContain('Bat is-a Bird');
    // "Dolphin eats Fish" is no proof that a dolphin is a fish.
    expect(ask(starter, 'Are dolphins fish?').answer.value).toBe(false);
  });

  it('reads a description asked within a sentence, and an irregular verb', () => {
    expect(ask(starter, 'Tell me what a dolphin is').answer.entities[0]!.label).toBe('Cetacean');
    expect(ask(starter, 'How many moons has Mars got?').answer).toMatchObject({ kind: 'count', value: 2 });
  });

  it('counts, describes, and finds common ground, the nearest first', () => {
    expect(ask(starter, 'How many kinds of reptiles are there?').answer).toMatchObject({ kind: 'count', value: 9 });
    expect(labels(ask(starter, 'What is a dolphin?').answer)).toEqual(['Animal', 'Cetacean', 'Mammal', 'Vertebrate']);
    expect(ask(starter, 'What is a dolphin?').answer.entities[0]!.label).toBe('Cetacean');
    expect(ask(starter, 'What do a dog and a cat have in common?').answer.entities[0]!.label).toBe('DomesticAnimal');
  });

  it('names a relation by a paraphrase: the relation the named thing is the object of', () => {
    const { reading, answer } = ask(countries, 'Which countries use the Euro as currency?');
    expect(reading.text).toContain('has-currency Euro');
    expect(labels(answer)).toEqual(['DE', 'FR']);
    expect(labels(ask(countries, 'Which countries use the euro?').answer)).toEqual(['DE', 'FR']);
    expect(labels(ask(countries, 'What currency does JP use?').answer)).toEqual(['Yen']);
    expect(labels(ask(countries, 'What are the official languages of CH?').answer)).toEqual(['French', 'German']);
    expect(ask(countries, 'Is French an official language of CH?').answer.value).toBe(true);
    expect(ask(countries, 'How many countries use the euro?').answer.value).toBe(2);
  });

  it('never reads a stop word as a symbol, but a name written in capitals is one', () => {
    const { reading } = ask(countries, 'Which countries use the Euro as currency?');
    expect(reading.matched.flatMap((match) => match.symbols.map((symbol) => symbol.label))).not.toContain('AS');
    // Nor a stop word a verb's stem makes: "used" is "use", never "us" (the code US).
    const withUs = graphOf([
      ['US', 'has-currency', 'USD'],
      ['SE', 'has-currency', 'Krona'],
      ['SE', 'is-a', 'Country'],
    ]);
    expect(labels(ask(withUs, 'Which currency is used in SE?').answer)).toEqual(['Krona']);
    expect(labels(ask(countries, 'What currency does AS use?').answer)).toEqual(['USD']);
  });

  it('answers none, with the reason, for negations and words the graph does not know', () => {
    const negated = ask(starter, "Which birds can't fly?").answer;
    expect(negated.kind).toBe('none');
    expect(negated.reason).toContain('not');
    const unknown = ask(starter, 'Which birds are purple?');
    expect(unknown.answer.kind).toBe('none');
    expect(unknown.answer.reason).toContain('"purple"');
    expect(unknown.reading.unplaced).toEqual(['purple']);
  });

  it('lists an ambiguous word as a choice when the other words do not settle it', () => {
    const graph = graphOf([
      ['Bat', 'is-a', 'Mammal'],
      ['Bat (club)', 'is-a', 'Tool'],
      ['Dog', 'is-a', 'Mammal'],
    ]);
    expect(ask(graph, 'Is a bat a mammal?').answer.value).toBe(true);
    const { reading, answer } = ask(graph, 'What is a bat?');
    expect(answer.kind).toBe('none');
    expect(reading.choices?.[0]?.symbols.map((symbol) => symbol.label)).toEqual(['Bat', 'Bat (club)']);
  });

  it('knows what the graph learnt after its names were indexed', () => {
    const graph = graphOf([['Dog', 'is-a', 'Mammal']]);
    expect(ask(graph, 'Is a tux a penguin?').answer.kind).toBe('none');
    const batch = graph.batch({ now: 2 });
    const resolve = (value: string, role: 'subject' | 'predicate' | 'object') =>
      batch.resolve({ type: 'label', value }, role);
    batch.assert(resolve('Tux', 'subject'), resolve('is-a', 'predicate'), resolve('Penguin', 'object'), 1);
    graph.apply(batch.delta);
    expect(ask(graph, 'Is a tux a penguin?').answer).toMatchObject({ kind: 'boolean', value: true });
  });

  it('refuses bad input in one sentence naming the place', () => {
    for (const [question, message] of [
      ['', 'the question is empty'],
      ['x'.repeat(100_000), 'has 100000 characters, at most 1000'],
      ['😀 🦄 🎉', 'no words'],
      ['Какие птицы не летают?', 'Cyrillic script (at character 1'],
    ] as const) {
      const read = readQuestion(starter, question);
      expect(read.ok).toBe(false);
      if (!read.ok)
        expect(read.error[0]).toMatchObject({ path: 'question', message: expect.stringContaining(message) });
    }
  });
});

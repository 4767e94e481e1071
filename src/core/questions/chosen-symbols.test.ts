import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { readGraphFile } from '#core/kg/import/read-graph-file.ts';
import { graphOf } from '#core/testing/graph-of.ts';
import { answerReading } from './answer.ts';
import type { SymbolChoice } from '#core/records/goal.ts';
import { chosenSymbolsOf } from './chosen-symbols.ts';
import { readQuestion } from './reading.ts';

const animals = graphOf([
  ['Bat', 'is-a', 'Mammal'],
  ['Bat (club)', 'is-a', 'Tool'],
  ['Dog', 'is-a', 'Mammal'],
]);

function ask(question: string, choices: SymbolChoice[] = [], graph = animals) {
  const chosen = chosenSymbolsOf(graph, question, choices);
  if (!chosen.ok) throw new Error(chosen.error[0]!.message);
  const reading = readQuestion(graph, question, chosen.value);
  if (!reading.ok) throw new Error(reading.error[0]!.message);
  return { reading: reading.value, answer: answerReading(graph, reading.value) };
}
const labels = (answer: { entities: { label: string }[] }) => answer.entities.map((entity) => entity.label);
const idOf = (label: string, graph = animals) => graph.symbolByLabel(label)!.id;

describe('a symbol the user chose for an ambiguous word', () => {
  it('is read instead of asking which one is meant', () => {
    expect(ask('What is a bat?').reading.choices).toHaveLength(1);
    const club = ask('What is a bat?', [{ words: 'bat', symbol: idOf('Bat (club)') }]);
    expect(club.reading.choices).toBeUndefined();
    expect(club.reading.chosen).toEqual([{ words: 'bat', symbol: idOf('Bat (club)') }]);
    expect(labels(club.answer)).toEqual(['Tool']);
    expect(labels(ask('What is a bat?', [{ words: 'bat', symbol: 'Bat' }]).answer)).toEqual(['Mammal']);
  });

  it('overrides the guess the other words made', () => {
    expect(ask('Is a bat a mammal?').answer.value).toBe(true);
    expect(ask('Is a bat a mammal?', [{ words: 'Bat', symbol: 'Bat (club)' }]).answer.value).toBe(false);
  });

  it('is found by IRI, by name, or by the rdfs:label a graph names its things with', async () => {
    const graph = new KnowledgeGraph();
    const batch = graph.batch({ now: 1 });
    await readGraphFile({
      source: `@prefix ex: <http://example.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        ex:planet rdfs:label "Planet" . ex:element rdfs:label "Element" .
        ex:mercury-planet rdfs:subClassOf ex:planet ; rdfs:label "mercury" .
        ex:mercury-element rdfs:subClassOf ex:element ; rdfs:label "mercury", "Hg" .`,
      format: 'turtle',
      batch,
    });
    graph.apply(batch.delta);
    expect(ask('What is mercury?', [], graph).reading.choices?.[0]?.symbols).toHaveLength(2);
    const byIri = ask('What is mercury?', [{ words: 'mercury', symbol: 'http://example.org/mercury-element' }], graph);
    expect(labels(byIri.answer)).toEqual(['Element']);
    const byLabel = ask('What is mercury?', [{ words: 'mercury', symbol: 'Hg' }], graph);
    expect(labels(byLabel.answer)).toEqual(['Element']);
    const twoNamed = chosenSymbolsOf(graph, 'What is mercury?', [{ words: 'mercury', symbol: 'Mercury' }]);
    expect(twoNamed.ok ? [] : twoNamed.error[0]!.message).toBe(
      '"Mercury" names http://example.org/mercury-planet and http://example.org/mercury-element: give the IRI of the one you mean',
    );
  });

  it('picks the relation chosen where a thing is linked by several', () => {
    const japan = graphOf([
      ['JP', 'is-a', 'Country'],
      ['JP', 'has-currency', 'Yen'],
      ['JP', 'official-language', 'Japanese'],
    ]);
    const unsure = ask('What does JP have?', [], japan).reading;
    expect(unsure.choices).toEqual([
      {
        words: 'JP',
        symbols: [
          expect.objectContaining({ label: 'has-currency' }),
          expect.objectContaining({ label: 'official-language' }),
        ],
      },
    ]);
    // The choice is made for the words the reading listed it under: the relation, JP left as it is.
    const chosen = ask('What does JP have?', [{ words: 'JP', symbol: 'official-language' }], japan);
    expect(labels(chosen.answer)).toEqual(['Japanese']);
  });

  it('refuses a symbol the graph lacks, or words the question lacks, in one sentence naming the choice', () => {
    const refused = (choices: SymbolChoice[]) => {
      const chosen = chosenSymbolsOf(animals, 'What is a bat?', choices);
      return chosen.ok ? [] : chosen.error;
    };
    expect(refused([{ words: 'bat', symbol: 'Quicksilver' }])).toEqual([
      { path: 'chosenSymbols.0', message: 'there is no symbol "Quicksilver" in this graph' },
    ]);
    expect(
      refused([
        { words: 'bat', symbol: 'Bat' },
        { words: 'bat', symbol: 99_999 },
      ]),
    ).toEqual([{ path: 'chosenSymbols.1', message: 'there is no symbol 99999 in this graph' }]);
    expect(refused([{ words: 'wombat', symbol: 'Bat' }])).toEqual([
      { path: 'chosenSymbols.0', message: 'the question has no words "wombat" to choose a symbol for' },
    ]);
    expect(
      refused([
        { words: 'bat', symbol: 'Bat' },
        { words: 'Bats', symbol: 'Dog' },
      ])[0],
    ).toMatchObject({
      path: 'chosenSymbols.1',
      message: '"Bats" has a symbol chosen twice',
    });
  });
});

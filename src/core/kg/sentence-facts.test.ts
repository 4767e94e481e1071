import { describe, expect, it } from 'vitest';
import { factsOfText, sentencesOf, singular, wordsOfText } from './sentence-facts.ts';

const facts = (text: string) =>
  factsOfText(text).map(({ subject, predicate, object }) => `${subject} ${predicate} ${object}`);

describe('facts from simple sentences', () => {
  it('reads "is a", "is a kind of", "are" and "has" sentences', () => {
    expect(
      facts(
        'A dog is a mammal. The golden retriever is a kind of dog! Whales are mammals; Mars has two moons.\n\nMars has volcanoes. Olympus Mons is a volcano.',
      ),
    ).toEqual([
      'Dog is-a Mammal',
      'GoldenRetriever is-a Dog',
      'Whale is-a Mammal',
      'Mars has Moon',
      'Mars has Volcano',
      'OlympusMons is-a Volcano',
    ]);
  });

  it('leaves alone what it cannot read safely', () => {
    expect(
      facts(
        'It is a planet. Cats are cute. Mars is red. The probe that landed on Mars in 2021 has a drill. There are many moons.',
      ),
    ).toEqual([]);
    expect(facts('Bats are not birds. Venus has no moons. The dog has been sleeping. A whale is not a fish.')).toEqual(
      [],
    );
  });

  it('splits sentences at punctuation and blank lines, and strips Markdown bullets and headings', () => {
    expect(
      sentencesOf('# Notes\n\n- A dog is a mammal\n- Cats are mammals.\n1. Mars has craters\nand seas. Done'),
    ).toEqual(['Notes', 'A dog is a mammal', 'Cats are mammals', 'Mars has craters and seas', 'Done']);
    expect(facts('- A dog is a mammal.\n- Cats are mammals.\n1. Mars has craters.')).toEqual([
      'Dog is-a Mammal',
      'Cat is-a Mammal',
      'Mars has Crater',
    ]);
  });

  it("makes words singular the simple way, and knows a text's words", () => {
    expect(['volcanoes', 'moons', 'species', 'boxes', 'berries', 'glass', 'bus'].map(singular)).toEqual([
      'volcano',
      'moon',
      'species',
      'box',
      'berry',
      'glass',
      'bus',
    ]);
    expect(wordsOfText('Mars has volcanoes and CRATERS.')).toEqual(new Set(['mar', 'has', 'volcano', 'and', 'crater']));
  });

  it('spells a plural as the graph already does', () => {
    const known = new Set(['Horse', 'Shoe']);
    const read = (text: string) =>
      factsOfText(text, { isKnown: (label) => known.has(label) }).map(
        ({ subject, predicate, object }) => `${subject} ${predicate} ${object}`,
      );
    expect(read('Horses are mammals. Runners have shoes. Tortoises are reptiles.')).toEqual([
      'Horse is-a Mammal',
      'Runner has Shoe',
      'Tortoise is-a Reptile',
    ]);
  });
});

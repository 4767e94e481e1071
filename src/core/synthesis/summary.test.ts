import { describe, expect, it } from 'vitest';
import { MAMMALS } from './__fixtures__/mammals.ts';
import { BUILT_IN_GRAMMARS } from './built-in-grammars.ts';
import { MAX_WRITTEN_FACTS_PER_SECTION, SUMMARY_FROM_FACTS } from './outline.ts';
import type { SynthesisFinding, SynthesisInput } from './synthesis-input.ts';
import { synthesize } from './synthesize.ts';

const { narrative, formal, terse } = BUILT_IN_GRAMMARS;

const fact = (subject: string, predicate: string, object: string, isAnswer = false): SynthesisFinding => ({
  subject,
  predicate,
  object,
  confidence: 0.9,
  origin: 'stated',
  isAnswer,
});

/** "Find mammals" as a user ran it: 1,181 mammals, then 30 habitats and 17 diets. */
const BIG_GOAL: SynthesisInput = {
  ...MAMMALS,
  findings: [
    fact('Aardvark', 'is-a', 'Mammal', true),
    fact('Aardwolf', 'is-a', 'Mammal', true),
    fact('Bat', 'is-a', 'Mammal', true),
    ...Array.from({ length: 1_178 }, (_, index) => fact(`Mammal species ${index}`, 'is-a', 'Mammal', true)),
    ...Array.from({ length: 30 }, (_, index) => fact(`Creature ${index}`, 'lives_in', 'Forest')),
    ...Array.from({ length: 17 }, (_, index) => fact(`Grazer ${index}`, 'eats', 'Grass')),
  ],
  missing: [],
};

/** The summary block: from its "N facts by kind:" line to the first blank line (or the facts in terse). */
function summaryOf(text: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => / facts? by kind:$/.test(line));
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => !line.startsWith('- ') || line.includes(' -> ') || line.includes('(confidence'));
  return start < 0 ? [] : lines.slice(start, start + 1 + (end < 0 ? rest.length : end));
}

describe('the summary a long write-up opens with', () => {
  it('groups a big goal by kind with counts and the first names, in every built-in grammar', () => {
    for (const grammar of [narrative, formal, terse]) {
      expect(summaryOf(synthesize(BIG_GOAL, grammar))).toEqual([
        '1,228 facts by kind:',
        '- a kind of Mammal: 1,181 (Aardvark, Aardwolf, Bat, …)',
        '- lives in: 30 (Creature 0, Creature 1, Creature 2, …)',
        '- eats: 17 (Grazer 0, Grazer 1, Grazer 2, …)',
      ]);
    }
  });

  it('comes before the details: right after the overview, or first where there is none', () => {
    expect(synthesize(BIG_GOAL, terse).split('\n')[0]).toBe('1,228 facts by kind:');
    const paragraphs = synthesize(BIG_GOAL, narrative).split('\n\n');
    expect(paragraphs[0]).toMatch(
      /^As Scholar, I looked into the goal "Find mammals", which is complete\. I found 1,228 facts/,
    );
    expect(paragraphs[1]).toMatch(/^1,228 facts by kind:\n/);
    expect(paragraphs[2]).toMatch(/^As for what answers the goal, Aardvark is a Mammal/);
  });

  it('writes out a sample of each section and says how many more the findings list has', () => {
    const written = 2 * MAX_WRITTEN_FACTS_PER_SECTION; // the answers, and the other facts
    for (const grammar of [narrative, formal, terse]) {
      const text = synthesize(BIG_GOAL, grammar);
      expect(text).toContain(`Mammal species ${MAX_WRITTEN_FACTS_PER_SECTION - 4} `);
      expect(text).not.toContain(`Mammal species ${MAX_WRITTEN_FACTS_PER_SECTION - 3} `);
      // The habitats are not crowded out by the 1,181 answers.
      expect(text).toMatch(/Creature 0 (lives.in|-> lives_in)/);
      expect(text).toContain(
        `… and ${(1_228 - written).toLocaleString('en')} more facts, not written out here: the findings list shows them all.`,
      );
    }
    // The narrative stays a few short paragraphs, not a wall of connecting phrases.
    const connectors = synthesize(BIG_GOAL, narrative).match(/(Moreover|In addition|Also|Furthermore), /g) ?? [];
    expect(connectors.length).toBeLessThanOrEqual(written / 2);
  });

  it('counts the smaller groups together, classifications apart, and its counts add up to the findings', () => {
    const predicates = ['eats', 'lives-in', 'hunts', 'fears', 'sleeps-in', 'drinks', 'likes'];
    const findings = [
      ...predicates.flatMap((predicate, index) =>
        Array.from({ length: 10 - index }, (_, number) => fact(`Animal ${number}`, predicate, 'Something')),
      ),
      fact('Robin', 'is-a', 'Bird'),
      fact('Wren', 'is-a', 'Bird'),
      fact('Trout', 'rdf:type', 'Fish'),
    ];
    const lines = summaryOf(synthesize({ ...MAMMALS, findings, missing: [] }, formal));
    expect(lines).toEqual([
      '52 facts by kind:',
      '- eats: 10 (Animal 0, Animal 1, Animal 2, …)',
      '- lives in: 9 (Animal 0, Animal 1, Animal 2, …)',
      '- hunts: 8 (Animal 0, Animal 1, Animal 2, …)',
      '- fears: 7 (Animal 0, Animal 1, Animal 2, …)',
      '- sleeps in: 6 (Animal 0, Animal 1, Animal 2, …)',
      '- 3 other classifications',
      '- 9 other facts',
    ]);
    const counted = lines.slice(1).map((line) => Number(/(?:: |^- )([\d,]+)/.exec(line)?.[1]?.replaceAll(',', '')));
    expect(counted.reduce((sum, count) => sum + count, 0)).toBe(findings.length);
  });

  it('names a group only by the few first different things, and stays out of a short goal', () => {
    const findings = Array.from({ length: SUMMARY_FROM_FACTS + 1 }, () => fact('Dog', 'eats', 'Bone'));
    expect(summaryOf(synthesize({ ...MAMMALS, findings, missing: [] }, terse))).toEqual([
      '11 facts by kind:',
      '- eats: 11 (Dog, …)',
    ]);
    for (const grammar of [narrative, formal, terse]) {
      expect(synthesize(MAMMALS, grammar)).not.toMatch(/by kind:|not written out here/);
    }
  });
});

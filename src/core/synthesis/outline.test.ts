import { describe, expect, it } from 'vitest';
import { MAMMALS } from './__fixtures__/mammals.ts';
import { factKindOf } from './fact-kind.ts';
import { outlineFindings } from './outline.ts';
import type { SynthesisFinding, SynthesisInput } from './synthesis-input.ts';

const fact = (subject: string, predicate: string, object: string, isAnswer = false): SynthesisFinding => ({
  subject,
  predicate,
  object,
  confidence: 0.9,
  origin: 'stated',
  isAnswer,
});

const withFindings = (findings: SynthesisFinding[], missing: string[] = []): SynthesisInput => ({
  ...MAMMALS,
  findings,
  missing,
});

describe('factKindOf', () => {
  it('knows classification and part predicates however they are spelt', () => {
    expect(
      ['is-a', 'isA', 'instance-of', 'rdfs:subClassOf', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type'].map(
        factKindOf,
      ),
    ).toEqual(Array(5).fill('classification'));
    expect(['has-part', 'has_a', 'contains'].map(factKindOf)).toEqual(['part', 'part', 'part']);
    expect(factKindOf('part-of')).toBe('part_of');
    expect(factKindOf('breathes-with')).toBe('other');
    // A relation of another file named as a known one, told apart by its source, is still that relation.
    expect(['is-a · other.example', 'skos:broader', 'P279 · wdt'].map(factKindOf)).toEqual(
      Array(3).fill('classification'),
    );
  });
});

describe('outlineFindings', () => {
  it('puts the answers first, then classification, parts and other facts, leaving out empty sections', () => {
    const outline = outlineFindings(
      withFindings([
        fact('Lung', 'part-of', 'Mammal'),
        fact('Mammal', 'breathes-with', 'Lung'),
        fact('Dog', 'is-a', 'Mammal', true),
        fact('Mammal', 'is-a', 'Animal'),
      ]),
    );
    expect(
      outline.sections.map((section) => [
        section.kind,
        section.items.map((item) => `${item.subject} ${item.predicate} ${item.object}`),
      ]),
    ).toEqual([
      ['answers', ['Dog is-a Mammal']],
      ['classification', ['Mammal is-a Animal']],
      ['parts', ['Lung part-of Mammal']],
      ['other', ['Mammal breathes-with Lung']],
    ]);
  });

  it('keeps the facts about one subject together, in the order subjects first appear', () => {
    const outline = outlineFindings(
      withFindings([
        fact('Dog', 'eats', 'Meat'),
        fact('Cat', 'eats', 'Fish'),
        fact('Dog', 'chases', 'Cat'),
        fact('Cat', 'likes', 'Milk'),
      ]),
    );
    expect(outline.sections[0]?.items.map((item) => `${item.subject} ${item.object}`)).toEqual([
      'Dog Meat',
      'Dog Cat',
      'Cat Fish',
      'Cat Milk',
    ]);
  });

  it('states the goal, its status and how many facts and answers there are, and lists the gaps', () => {
    const outline = outlineFindings({
      ...MAMMALS,
      goal: { ...MAMMALS.goal, status: 'failed', statusReason: 'no more plans' },
    });
    expect(outline.overview).toEqual({
      goal: 'Find mammals',
      criteria: 'mammal, habitat',
      status: 'failed',
      statusReason: 'no more plans',
      factCount: 5,
      answerCount: 3,
    });
    expect(outline.gaps).toEqual(['habitat']);
  });

  it('knows the kind and origin of each item', () => {
    const [answers] = outlineFindings(MAMMALS).sections;
    expect(answers?.items.map(({ kind, origin, rule }) => ({ kind, origin, rule }))).toEqual([
      { kind: 'classification', origin: 'stated', rule: undefined },
      { kind: 'classification', origin: 'derived', rule: 'is-a-transitive' },
      { kind: 'classification', origin: 'proposed', rule: undefined },
    ]);
  });

  it('makes labels one plain line: breaks and controls collapse to a space, long labels are cut', () => {
    const outline = outlineFindings(
      withFindings(
        [fact('Dog\r\n- Fake\u2028bullet\t\u0000', 'is-a', `\u202E${'x'.repeat(500)}`)],
        [' habitat\n', '\n'],
      ),
    );
    const [item] = outline.sections[0]?.items ?? [];
    expect(item?.subject).toBe('Dog - Fake bullet');
    expect(item?.object).toHaveLength(200);
    expect(item?.object.endsWith('…')).toBe(true);
    expect(outline.gaps).toEqual(['habitat']);
  });

  it('keeps confidences within 0..1', () => {
    const outline = outlineFindings(
      withFindings([
        { ...fact('A', 'r', 'B'), confidence: 1.7 },
        { ...fact('C', 'r', 'D'), confidence: Number.NaN },
      ]),
    );
    expect(outline.sections[0]?.items.map((item) => item.confidence)).toEqual([1, 0]);
  });
});

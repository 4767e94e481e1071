import { describe, expect, it } from 'vitest';
import { MAMMALS } from './__fixtures__/mammals.ts';
import { BUILT_IN_GRAMMARS } from './built-in-grammars.ts';
import { grammarSchema } from './grammar.ts';
import type { SynthesisFinding, SynthesisInput } from './synthesis-input.ts';
import { synthesize } from './synthesize.ts';

const { narrative, formal, terse } = BUILT_IN_GRAMMARS;
const NO_FINDINGS = {
  ...MAMMALS,
  goal: { ...MAMMALS.goal, status: 'active' },
  findings: [],
  missing: [],
} satisfies SynthesisInput;

describe('the built-in grammars', () => {
  it('are valid grammars with every key written out (no defaults needed)', () => {
    for (const grammar of Object.values(BUILT_IN_GRAMMARS)) expect(grammarSchema.parse(grammar)).toEqual(grammar);
  });
});

describe('narrative', () => {
  const text = synthesize(MAMMALS, narrative);

  it('writes the mammal findings as flowing prose', () => {
    expect(text).toBe(
      [
        'As Scholar, I looked into the goal "Find mammals", which is complete. I found 5 facts, including 3 direct answers.',
        'As for what answers the goal, Dog is a Mammal, and Cat is a Mammal (inferred by the rule is-a-transitive). Moreover, Whale is a Mammal, though this is only a proposal (60% likely) and not yet confirmed.',
        'Turning to how things are classified, Mammal is an Animal.',
        'Regarding parts and wholes, Dog has Tail.',
        'I found nothing yet about "habitat".',
      ].join('\n\n'),
    );
  });

  it('has sentences ending in periods, connecting words, and no bullets or arrows', () => {
    const paragraphs = text.split('\n\n');
    expect(paragraphs.every((paragraph) => paragraph.endsWith('.') && !paragraph.includes('\n'))).toBe(true);
    expect(text).not.toMatch(/^\s*[-*•]/m);
    expect(text).not.toContain('->');
    expect(text).toMatch(/\b(Moreover|In addition|Also|Furthermore), /);
    expect(text).toContain(', and ');
  });

  it('says a repeated subject with a pronoun inside one sentence, and by name in the next', () => {
    const dog = {
      subject: 'Dog',
      confidence: 0.9,
      origin: 'stated',
      isAnswer: true,
    } satisfies Partial<SynthesisFinding>;
    const findings = [
      { ...dog, predicate: 'is-a', object: 'Mammal' },
      { ...dog, predicate: 'has-part', object: 'Tail' },
      { ...dog, predicate: 'eats', object: 'Meat' },
    ];
    expect(synthesize({ ...MAMMALS, findings }, narrative)).toContain(
      'As for what answers the goal, Dog is a Mammal, and it has Tail. Moreover, Dog eats Meat.',
    );
  });

  it('says plainly when nothing has been found yet', () => {
    expect(synthesize(NO_FINDINGS, narrative)).toBe(
      'As Scholar, I looked into the goal "Find mammals", which is still in progress. I found 0 facts, including 0 direct answers.\n\nI have found nothing yet.',
    );
  });
});

describe('formal', () => {
  const text = synthesize(MAMMALS, formal);

  it('writes the mammal findings as headed sections with one bullet a fact and every confidence', () => {
    expect(text).toBe(
      [
        'Prepared by Scholar\nGoal: Find mammals\nCriteria: mammal, habitat\nStatus: completed\nFindings: 5 facts, including 3 answers',
        'Answers\n- Dog is-a Mammal (confidence 0.95)\n- Cat is-a Mammal (confidence 0.90, derived by is-a-transitive)\n- Whale is-a Mammal (confidence 0.60, proposed, unconfirmed)',
        'Classification\n- Mammal is-a Animal (confidence 0.90)',
        'Parts and wholes\n- Dog has-part Tail (confidence 0.80)',
        'Gaps\n- nothing found for "habitat"',
      ].join('\n\n'),
    );
  });

  it('has a heading line before each block of bullets, and a confidence on every bullet', () => {
    const bullets = text.split('\n').filter((line) => line.startsWith('- '));
    expect(bullets).toHaveLength(MAMMALS.findings.length + MAMMALS.missing.length);
    expect(bullets.slice(0, MAMMALS.findings.length).every((line) => /\(confidence \d\.\d\d[,)]/.test(line))).toBe(
      true,
    );
    for (const heading of ['Answers', 'Classification', 'Parts and wholes', 'Gaps'])
      expect(text).toMatch(new RegExp(`(^|\\n\\n)${heading}\\n- `));
  });

  it('says plainly when nothing has been found yet', () => {
    expect(synthesize(NO_FINDINGS, formal)).toBe(
      'Prepared by Scholar\nGoal: Find mammals\nCriteria: mammal, habitat\nStatus: active\nFindings: 0 facts, including 0 answers\n\nNo findings yet.',
    );
  });
});

describe('terse', () => {
  it('writes exactly one line a fact and nothing else', () => {
    expect(synthesize(MAMMALS, terse)).toBe(
      [
        'Dog -> is-a -> Mammal [0.95]',
        'Cat -> is-a -> Mammal [0.90]',
        'Whale -> is-a -> Mammal [0.60]',
        'Mammal -> is-a -> Animal [0.90]',
        'Dog -> has-part -> Tail [0.80]',
      ].join('\n'),
    );
  });

  it('says plainly when nothing has been found yet', () => {
    expect(synthesize(NO_FINDINGS, terse)).toBe('No findings yet.');
  });
});

describe('the same findings in the three grammars', () => {
  const texts = {
    narrative: synthesize(MAMMALS, narrative),
    formal: synthesize(MAMMALS, formal),
    terse: synthesize(MAMMALS, terse),
  };

  it('read clearly differently', () => {
    expect(new Set(Object.values(texts)).size).toBe(3);
    expect(texts.terse.split('\n').every((line) => /^\S+ -> \S+ -> \S+ \[\d\.\d\d\]$/.test(line))).toBe(true);
    expect(texts.formal).not.toContain('->');
    expect(texts.narrative).not.toContain('\n- ');
  });

  it('put the answers first', () => {
    for (const text of Object.values(texts)) expect(text.indexOf('Whale')).toBeLessThan(text.indexOf('Animal'));
  });

  it('mark derived and proposed facts in narrative and formal', () => {
    expect(texts.narrative).toMatch(/Cat is a Mammal \(inferred by the rule is-a-transitive\)/);
    expect(texts.narrative).toMatch(/Whale is a Mammal, though this is only a proposal/);
    expect(texts.formal).toMatch(/Cat is-a Mammal \(.*derived by is-a-transitive\)/);
    expect(texts.formal).toMatch(/Whale is-a Mammal \(.*proposed, unconfirmed\)/);
  });

  it('mention the gaps in narrative and formal, and leave them out of terse', () => {
    expect(texts.narrative).toContain('habitat');
    expect(texts.formal).toContain('habitat');
    expect(texts.terse).not.toContain('habitat');
  });
});

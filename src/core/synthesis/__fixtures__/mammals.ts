import type { SynthesisInput } from '../synthesis-input.ts';

/** A small taxonomy goal: three answers (stated, derived, proposed), two other facts, one gap. */
export const MAMMALS = {
  goal: { description: 'Find mammals', criteria: 'mammal, habitat', status: 'completed' },
  findings: [
    { subject: 'Dog', predicate: 'is-a', object: 'Mammal', confidence: 0.95, origin: 'stated', isAnswer: true },
    { subject: 'Cat', predicate: 'is-a', object: 'Mammal', confidence: 0.9, origin: 'derived', rule: 'is-a-transitive', isAnswer: true },
    { subject: 'Whale', predicate: 'is-a', object: 'Mammal', confidence: 0.6, origin: 'proposed', isAnswer: true },
    { subject: 'Mammal', predicate: 'is-a', object: 'Animal', confidence: 0.9, origin: 'stated', isAnswer: false },
    { subject: 'Dog', predicate: 'has-part', object: 'Tail', confidence: 0.8, origin: 'stated', isAnswer: false },
  ],
  missing: ['habitat'],
  persona: { name: 'Scholar', traits: ['precise', 'curious'], tone: ['clear'] },
} satisfies SynthesisInput;

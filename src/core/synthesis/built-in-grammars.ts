import type { Grammar } from './grammar.ts';

// The built-ins are plain grammar values in the same format as custom grammar files (every key
// written out), so anything they do a custom grammar can do too; a test writes each one as TOML
// and reads it back with parseGrammar.

/** Flowing prose: topic phrases, connecting words, pronouns; derived and proposed facts said in words. */
const NARRATIVE = {
  name: 'narrative',
  layout: {
    kind: 'prose',
    join: ', and ',
    per_sentence: 2,
    pronoun: 'it',
    end: '.',
    list_separator: ', ',
    list_final: ' and ',
  },
  empty: 'I have found nothing yet.',
  overview: { text: 'I looked into the goal "{goal}", which is {status}. I found {facts}, including {answers}.' },
  openers: {
    persona: 'As {persona}, ',
    section: ['As for {heading}, ', 'Turning to {heading}, ', 'Regarding {heading}, '],
    connect: ['Moreover, ', 'In addition, ', 'Also, ', 'Furthermore, '],
  },
  nouns: { fact: ['fact', 'facts'], answer: ['direct answer', 'direct answers'] },
  status: {
    active: 'still in progress',
    suspended: 'on hold',
    waiting: 'waiting for an answer',
    completed: 'complete',
    failed: 'unsuccessful',
    abandoned: 'given up',
  },
  templates: {
    classification: '{subject} is {a} {object}',
    part: '{subject} has {object}',
    part_of: '{subject} is part of {object}',
    other: '{subject} {relation} {object}',
  },
  origins: {
    stated: '{fact}',
    derived: '{fact} (inferred by the rule {rule})',
    proposed: '{fact}, though this is only a proposal ({confidence} likely) and not yet confirmed',
  },
  confidence: { style: 'percent', decimals: 0 },
  headings: {
    answers: 'what answers the goal',
    classification: 'how things are classified',
    parts: 'parts and wholes',
    other: 'other relations',
    gaps: 'what is missing',
  },
  gaps: { intro: 'I found nothing yet about ', item: '"{gap}"' },
} satisfies Grammar;

/** Headed sections, one bullet a fact, every confidence and origin shown. */
const FORMAL = {
  name: 'formal',
  layout: { kind: 'sections', heading: '{heading}', bullet: '- ' },
  empty: 'No findings yet.',
  overview: { text: 'Goal: {goal}\nCriteria: {criteria}\nStatus: {status}\nFindings: {facts}, including {answers}' },
  openers: { persona: 'Prepared by {persona}\n', section: [], connect: [] },
  nouns: { fact: ['fact', 'facts'], answer: ['answer', 'answers'] },
  status: {
    active: 'active',
    suspended: 'suspended',
    waiting: 'waiting',
    completed: 'completed',
    failed: 'failed',
    abandoned: 'abandoned',
  },
  templates: {
    classification: '{subject} {predicate} {object}',
    part: '{subject} {predicate} {object}',
    part_of: '{subject} {predicate} {object}',
    other: '{subject} {predicate} {object}',
  },
  origins: {
    stated: '{fact} (confidence {confidence})',
    derived: '{fact} (confidence {confidence}, derived by {rule})',
    proposed: '{fact} (confidence {confidence}, proposed, unconfirmed)',
  },
  confidence: { style: 'decimal', decimals: 2 },
  headings: {
    answers: 'Answers',
    classification: 'Classification',
    parts: 'Parts and wholes',
    other: 'Other facts',
    gaps: 'Gaps',
  },
  gaps: { intro: '', item: 'nothing found for "{gap}"' },
} satisfies Grammar;

/** Facts only, one a line (`Dog -> is-a -> Mammal [0.95]`): no overview, no prose, no gaps. */
const TERSE = {
  name: 'terse',
  layout: { kind: 'lines' },
  empty: 'No findings yet.',
  overview: { text: '' },
  openers: { persona: '', section: [], connect: [] },
  nouns: { fact: ['fact', 'facts'], answer: ['answer', 'answers'] },
  status: {
    active: 'active',
    suspended: 'suspended',
    waiting: 'waiting',
    completed: 'completed',
    failed: 'failed',
    abandoned: 'abandoned',
  },
  templates: {
    classification: '{subject} -> {predicate} -> {object}',
    part: '{subject} -> {predicate} -> {object}',
    part_of: '{subject} -> {predicate} -> {object}',
    other: '{subject} -> {predicate} -> {object}',
  },
  origins: { stated: '{fact} [{confidence}]', derived: '{fact} [{confidence}]', proposed: '{fact} [{confidence}]' },
  confidence: { style: 'decimal', decimals: 2 },
  headings: {
    answers: 'Answers',
    classification: 'Classification',
    parts: 'Parts',
    other: 'Other facts',
    gaps: 'Gaps',
  },
  gaps: { intro: '', item: '' },
} satisfies Grammar;

/** The grammars a persona can name (`grammar_preference`): narrative, formal, terse. */
export const BUILT_IN_GRAMMARS = { narrative: NARRATIVE, formal: FORMAL, terse: TERSE } satisfies Record<
  string,
  Grammar
>;

export type BuiltInGrammarName = keyof typeof BUILT_IN_GRAMMARS;

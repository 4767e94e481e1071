import { z } from 'zod';
import { placeholdersIn } from './template.ts';

// The placeholders each kind of text can use (see README.md). Checked when a grammar is parsed,
// so a misspelt one is an error that names it instead of a literal `{sujbect}` in every text.
const ITEM_PLACEHOLDERS = ['subject', 'predicate', 'object', 'relation', 'a', 'confidence', 'rule'] as const;
const ORIGIN_PLACEHOLDERS = ['fact', ...ITEM_PLACEHOLDERS] as const;
const OVERVIEW_PLACEHOLDERS = ['goal', 'criteria', 'status', 'facts', 'answers'] as const;

/** Every placeholder of an item template (`templates.*`); origin templates add `{fact}`. */
export type ItemPlaceholder = (typeof ITEM_PLACEHOLDERS)[number];
/** Every placeholder of `overview.text`. */
export type OverviewPlaceholder = (typeof OVERVIEW_PLACEHOLDERS)[number];

const MAX_TEXT_LENGTH = 2_000;
const MAX_PHRASES = 100;

/** A piece of text that may use the given placeholders, and no others. */
function text(placeholders: readonly string[] = []) {
  return z
    .string()
    .max(MAX_TEXT_LENGTH)
    .superRefine((value, context) => {
      for (const name of placeholdersIn(value)) {
        if (placeholders.includes(name)) continue;
        const allowed =
          placeholders.length > 0
            ? `this text can use ${placeholders.map((known) => `{${known}}`).join(', ')}`
            : 'this text takes no placeholders';
        context.addIssue({
          code: 'custom',
          message: `unknown placeholder {${name}}: ${allowed} (write {{ and }} for literal braces)`,
        });
      }
    });
}

/** Several phrases cycled in order (the n-th use takes phrase n modulo their count). */
function phrases(placeholders: readonly string[] = []) {
  return z.array(text(placeholders)).max(MAX_PHRASES).default([]);
}

const proseLayoutSchema = z.strictObject({
  kind: z.literal('prose'),
  /** Joins the facts inside one sentence. */
  join: text().default(', and '),
  per_sentence: z.int().min(1).max(20).default(2),
  /** Replaces a subject named by the fact just before it in the same sentence ("" keeps the name). */
  pronoun: text().default(''),
  /** Ends every sentence. */
  end: text().default('.'),
  /** Join a list of gaps: "a, b and c". */
  list_separator: text().default(', '),
  list_final: text().default(' and '),
});

const sectionsLayoutSchema = z.strictObject({
  kind: z.literal('sections'),
  heading: text(['heading']).default('{heading}'),
  bullet: text().default('- '),
});

const linesLayoutSchema = z.strictObject({ kind: z.literal('lines') });

/**
 * A grammar: how the findings of a goal become text. One format for the built-ins and custom
 * grammar files alike (keys as written in TOML, hence snake case), so a custom grammar can do
 * whatever a built-in does. Only `name`, `layout` and `templates` are required; README.md
 * describes every key. Strict: an unknown key is an error, since a misspelt key would otherwise
 * silently fall back to its default.
 */
export const grammarSchema = z.strictObject({
  name: z.string().trim().min(1).max(64),
  /**
   * `prose`: each section a paragraph of sentences with connecting phrases; `sections`: headed
   * sections with one bullet a fact; `lines`: one line a fact, nothing between.
   */
  layout: z.discriminatedUnion('kind', [proseLayoutSchema, sectionsLayoutSchema, linesLayoutSchema]),
  /** Said in place of the facts when there are none. */
  empty: text().default('Nothing found yet.'),
  overview: z.strictObject({ text: text(OVERVIEW_PLACEHOLDERS).default('') }).prefault({}),
  openers: z
    .strictObject({
      /** Starts the overview when the text is written as a persona. */
      persona: text(['persona']).default(''),
      /** Start the sections of a prose text (the topic phrase). */
      section: phrases(['heading']),
      /** Start the second and later sentences of a prose section. */
      connect: phrases(),
    })
    .prefault({}),
  /** Singular and plural, for `{facts}` and `{answers}` ("1 fact", "4 facts"). */
  nouns: z
    .strictObject({
      fact: z.tuple([text(), text()]).default(['fact', 'facts']),
      answer: z.tuple([text(), text()]).default(['answer', 'answers']),
    })
    .prefault({}),
  /** The words for each goal status, for `{status}`. */
  status: z
    .strictObject({
      active: text().default('active'),
      suspended: text().default('suspended'),
      waiting: text().default('waiting'),
      completed: text().default('completed'),
      failed: text().default('failed'),
      abandoned: text().default('abandoned'),
    })
    .prefault({}),
  /** The text of a fact, by its kind. */
  templates: z.strictObject({
    classification: text(ITEM_PLACEHOLDERS),
    part: text(ITEM_PLACEHOLDERS),
    part_of: text(ITEM_PLACEHOLDERS),
    other: text(ITEM_PLACEHOLDERS),
  }),
  /** Wraps the text of a fact (`{fact}`) by its origin: how derived and proposed facts are marked. */
  origins: z
    .strictObject({
      stated: text(ORIGIN_PLACEHOLDERS).default('{fact}'),
      derived: text(ORIGIN_PLACEHOLDERS).default('{fact}'),
      proposed: text(ORIGIN_PLACEHOLDERS).default('{fact}'),
    })
    .prefault({}),
  /** How `{confidence}` is written: `decimal` 0.95, or `percent` 95%, with this many decimals. */
  confidence: z
    .strictObject({
      style: z.enum(['decimal', 'percent']).default('decimal'),
      decimals: z.int().min(0).max(4).default(2),
    })
    .prefault({}),
  /** Section headings: lines of their own in the `sections` layout, `{heading}` in section openers. */
  headings: z
    .strictObject({
      answers: text().default('Answers'),
      classification: text().default('Classification'),
      parts: text().default('Parts'),
      other: text().default('Other facts'),
      gaps: text().default('Gaps'),
    })
    .prefault({}),
  /** What was not found: an introduction and a text for each missing keyword ("" leaves gaps out). */
  gaps: z.strictObject({ intro: text().default(''), item: text(['gap']).default('{gap}') }).prefault({}),
});

/** A grammar with every key filled in (defaults applied). */
export type Grammar = z.infer<typeof grammarSchema>;

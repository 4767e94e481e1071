import { PART_TYPES, parseDecimal, TRAIT_TYPES } from '#core/api.ts';
import type { GuardrailView, PartView, SkillView, TraitView } from '#core/api.ts';
import { PART_TYPE_LABELS, TRAIT_TYPE_LABELS } from './persona-messages.ts';

/**
 * The forms of the Personas screen as data: which fields each kind of item has, how the form
 * holds them (text, as typed), and how they become the fields the catalog takes. The catalog
 * checks the fields; its problems come back with the field's key as their path.
 */

/** The kinds of item a form edits. */
export type ItemKind = 'persona' | 'part' | 'trait' | 'skill' | 'guardrail' | 'arc' | 'stage';

/** The library kinds, which link to personas. */
export type LibraryKind = 'part' | 'trait' | 'skill' | 'guardrail';
export const LIBRARY_KINDS = ['part', 'trait', 'skill', 'guardrail'] as const satisfies readonly LibraryKind[];

/** How a field is edited: one line, several, comma-separated tags, one entry per line, a choice, a number, a yes/no. */
export type FieldControl = 'text' | 'textarea' | 'tags' | 'lines' | 'choice' | 'number' | 'checkbox';

export type FieldSpec = {
  /** The catalog's name of the field, which problems name as their path. */
  key: string;
  label: string;
  control: FieldControl;
  hint?: string;
  /** The choices of a 'choice' field: value and label. */
  choices?: readonly { value: string; label: string }[];
};

/** A form's values as typed. */
export type Draft = Record<string, string | boolean>;

const partTypeChoices = PART_TYPES.map((type) => ({ value: type, label: PART_TYPE_LABELS[type] }));
const traitTypeChoices = TRAIT_TYPES.map((type) => ({ value: type, label: TRAIT_TYPE_LABELS[type] }));

const NAME: FieldSpec = {
  key: 'name',
  label: 'Name',
  control: 'text',
  hint: 'One line; how it is found, linked and overridden.',
};
const DESCRIPTION: FieldSpec = { key: 'description', label: 'Description', control: 'textarea' };
const TAGS: FieldSpec = { key: 'tags', label: 'Tags', control: 'tags', hint: 'Separated by commas.' };

/** The fields of each kind, in the order forms show them. */
export const ITEM_FIELDS = {
  persona: [
    NAME,
    DESCRIPTION,
    { key: 'summary', label: 'Summary', control: 'textarea', hint: 'What the summary view of the prompt starts with.' },
    {
      key: 'detail',
      label: 'Detail',
      control: 'textarea',
      hint: 'What the detail view starts with (the summary when empty).',
    },
    TAGS,
  ],
  part: [
    NAME,
    { key: 'type', label: 'Type', control: 'choice', choices: partTypeChoices },
    DESCRIPTION,
    { key: 'summary', label: 'Summary', control: 'textarea', hint: 'What the summary view shows.' },
    {
      key: 'content',
      label: 'Detail',
      control: 'textarea',
      hint: 'What the detail view shows (the summary when empty).',
    },
    TAGS,
  ],
  trait: [
    NAME,
    { key: 'type', label: 'Type', control: 'choice', choices: traitTypeChoices },
    DESCRIPTION,
    { key: 'instruction', label: 'Instruction', control: 'textarea', hint: 'How to apply it (the detail view).' },
    TAGS,
  ],
  skill: [NAME, DESCRIPTION, { key: 'content', label: 'Content', control: 'textarea', hint: 'The detail view.' }, TAGS],
  guardrail: [
    NAME,
    DESCRIPTION,
    { key: 'content', label: 'Content', control: 'textarea', hint: 'The detail view.' },
    { key: 'severity', label: 'Severity', control: 'number', hint: 'From 0 to 1.' },
    {
      key: 'triggers',
      label: 'Triggers',
      control: 'lines',
      hint: 'One per line; an action that matches one is vetoed (or waits for approval).',
    },
    { key: 'requireApproval', label: 'Ask for approval instead of blocking', control: 'checkbox' },
    TAGS,
  ],
  arc: [
    NAME,
    DESCRIPTION,
    { key: 'summary', label: 'Summary', control: 'textarea' },
    { key: 'stages', label: 'Stages', control: 'lines', hint: 'One name per line, in order.' },
  ],
  stage: [
    NAME,
    DESCRIPTION,
    { key: 'condition', label: 'Condition', control: 'textarea', hint: 'When to move on to the next stage.' },
  ],
} as const satisfies Record<ItemKind, readonly FieldSpec[]>;

/** The keys of a kind's fields, for telling field problems from the others. */
export function fieldKeys(kind: ItemKind): string[] {
  return ITEM_FIELDS[kind].map((field) => field.key);
}

/** An empty form of a kind: empty text, the first type, full severity. */
export function emptyDraft(kind: ItemKind): Draft {
  const draft: Draft = {};
  for (const field of ITEM_FIELDS[kind] as readonly FieldSpec[]) {
    if (field.control === 'checkbox') draft[field.key] = false;
    else if (field.control === 'choice')
      draft[field.key] = field.key === 'type' && kind === 'part' ? 'identity' : (field.choices?.[0]?.value ?? '');
    else if (field.control === 'number') draft[field.key] = '1';
    else draft[field.key] = '';
  }
  return draft;
}

/** A stored item as a form: lists joined as typed, numbers as text. */
export function draftOf(kind: ItemKind, item: Record<string, unknown>): Draft {
  const draft = emptyDraft(kind);
  for (const field of ITEM_FIELDS[kind] as readonly FieldSpec[]) {
    const value = item[field.key];
    if (value === undefined) continue;
    if (field.control === 'tags' && Array.isArray(value)) draft[field.key] = value.join(', ');
    else if (field.control === 'lines' && Array.isArray(value)) draft[field.key] = value.join('\n');
    else if (field.control === 'checkbox') draft[field.key] = value === true;
    else draft[field.key] = String(value);
  }
  return draft;
}

/** "calm, , kind " -> ["calm", "kind"]. */
export function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** One entry per line, blank lines dropped; an entry keeps its inner spaces. */
export function splitLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * A form as the fields the catalog takes. A number that is not one is sent as typed, so the
 * catalog says what is wrong with it, at its field. Arc stages are not a field: see {@link arcCreateOf}.
 */
export function fieldsOf(kind: ItemKind, draft: Draft): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const field of ITEM_FIELDS[kind] as readonly FieldSpec[]) {
    if (kind === 'arc' && field.key === 'stages') continue;
    const value = draft[field.key] ?? '';
    switch (field.control) {
      case 'checkbox':
        fields[field.key] = value === true;
        break;
      case 'tags':
        fields[field.key] = splitTags(String(value));
        break;
      case 'lines':
        fields[field.key] = splitLines(String(value));
        break;
      case 'number': {
        const text = String(value).trim();
        // Only a plain decimal is a number (not 0x1 nor 1e0); other text goes as typed, for the agent to refuse in words.
        fields[field.key] = parseDecimal(text) ?? text;
        break;
      }
      default:
        fields[field.key] = String(value);
    }
  }
  return fields;
}

/** An arc form as arcCreate's arguments: the arc's fields, and its stages by name. */
export function arcCreateOf(draft: Draft): { fields: Record<string, unknown>; stages: { name: string }[] } {
  return { fields: fieldsOf('arc', draft), stages: splitLines(String(draft.stages ?? '')).map((name) => ({ name })) };
}

/** A library item as lists get it. */
export type LibraryItem = { part: PartView; trait: TraitView; skill: SkillView; guardrail: GuardrailView };

/** The words of a library kind: its name, plural and title. */
export const LIBRARY_KIND_TEXT = {
  part: { singular: 'part', plural: 'parts', title: 'Parts' },
  trait: { singular: 'trait', plural: 'traits', title: 'Traits' },
  skill: { singular: 'skill', plural: 'skills', title: 'Skills' },
  guardrail: { singular: 'guardrail', plural: 'guardrails', title: 'Guardrails' },
} as const satisfies Record<LibraryKind, { singular: string; plural: string; title: string }>;

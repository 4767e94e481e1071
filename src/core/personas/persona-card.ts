import type { CharacterCard } from './character-card.ts';
import { BUNDLE_FORMAT, BUNDLE_VERSION, readBundle, type PersonaBundle } from './persona-bundle.ts';
import type { PartType } from '#core/records/persona-catalog.ts';
import type { Result } from '#core/result.ts';

/**
 * How a character card's prompt fields become parts, and back. A card field that is not a
 * prompt (greetings, lorebook, creator, version, assets, dates) is kept with the persona, and an
 * export writes it back, with Anima's whole bundle under `extensions.anima`.
 */
const CARD_PARTS = [
  { field: 'description', type: 'identity', label: 'description' },
  { field: 'personality', type: 'soul', label: 'personality' },
  { field: 'scenario', type: 'context', label: 'scenario' },
  { field: 'systemPrompt', type: 'system', label: 'system prompt' },
  { field: 'postHistoryInstructions', type: 'protocol', label: 'post-history instructions' },
  { field: 'exampleMessages', type: 'voice', label: 'example messages' },
] as const satisfies readonly { field: keyof CharacterCard; type: PartType; label: string }[];

/** The card fields kept as they are (written back on export), under their card names. */
const KEPT_FIELDS = {
  firstMessage: 'first_mes',
  alternateGreetings: 'alternate_greetings',
  creatorNotes: 'creator_notes',
  creator: 'creator',
  characterVersion: 'character_version',
} as const;

const SUMMARY_CHARS = 500;

/** A part's summary: the text when short, else its first paragraph, cut at a word near 500 characters. */
function summaryOf(text: string): string {
  if (text.length <= SUMMARY_CHARS) return text;
  const paragraph = text.split(/\r?\n\s*\r?\n/u)[0]!.trim();
  if (paragraph.length > 0 && paragraph.length <= SUMMARY_CHARS) return paragraph;
  const cut = paragraph.slice(0, SUMMARY_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > SUMMARY_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * A card as a bundle to import. A card Anima exported carries the whole bundle under
 * `extensions.anima`: that is read instead (with the card's name, should it have been renamed).
 */
export function bundleFromCard(card: CharacterCard): Result<PersonaBundle> {
  const { anima, ...extensions } = card.extensions;
  const kept = { extras: { ...card.extras, ...keptFields(card) }, extensions };
  const name = catalogNameOf(card.name);
  if (name === '')
    return { ok: false, error: [{ path: 'data.name', message: 'a card needs a name with some letters in it' }] };
  if (anima !== undefined) {
    const embedded = readBundle(anima);
    if (!embedded.ok)
      return {
        ok: false,
        error: embedded.error.map((problem) => ({
          ...problem,
          path: `data.extensions.anima${problem.path ? `.${problem.path}` : ''}`,
        })),
      };
    return fromCardChecked({ ...embedded.value, persona: { ...embedded.value.persona, name }, card: kept });
  }
  // Part names say whose they are: the card's name, shortened so the label always fits.
  const parts = CARD_PARTS.flatMap(({ field, type, label }) => {
    const text = card[field];
    if (text.trim() === '') return [];
    const summary = summaryOf(text);
    const owner = name.slice(0, MAX_NAME_CHARS - label.length - 2).trimEnd();
    return [
      {
        name: `${owner}: ${label}`,
        type,
        description: `The card's ${label}.`,
        summary,
        content: summary === text ? '' : text,
        tags: [],
      },
    ];
  });
  const bundle: PersonaBundle = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    persona: {
      name,
      description: card.creatorNotes.slice(0, 2000),
      summary: '',
      detail: '',
      tags: catalogTagsOf(card.tags),
    },
    parts,
    links: parts.map((part) => ({ part: part.name, priority: 0, pinned: false })),
    traits: [],
    skills: [],
    guardrails: [],
    card: kept,
  };
  return fromCardChecked(bundle);
}

/** The bundle schema checks names, lengths and caps with their places. */
function fromCardChecked(bundle: PersonaBundle): Result<PersonaBundle> {
  const checked = readBundle(bundle);
  return checked.ok
    ? checked
    : {
        ok: false,
        error: checked.error.map((problem) => ({ ...problem, message: `${problem.message} (from the card)` })),
      };
}

const MAX_NAME_CHARS = 120;
const MAX_TAG_CHARS = 60;

/** A card's name as a catalog name: one line, spaces collapsed, at most 120 characters (cards allow more). */
function catalogNameOf(name: string): string {
  return name
    .replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ')
    .trim()
    .slice(0, MAX_NAME_CHARS)
    .trimEnd();
}

/** A card's tags as catalog tags: blank ones dropped, long ones cut, each once, at most 50. */
function catalogTagsOf(tags: readonly string[]): string[] {
  const cleaned = tags
    .map((tag) => tag.replace(/\s+/gu, ' ').trim().slice(0, MAX_TAG_CHARS).trimEnd())
    .filter((tag) => tag !== '');
  return [...new Set(cleaned)].slice(0, 50);
}

function keptFields(card: CharacterCard): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(KEPT_FIELDS).flatMap(([field, cardName]) => {
      const value = card[field as keyof typeof KEPT_FIELDS];
      return (Array.isArray(value) ? value.length > 0 : value !== '') ? [[cardName, value]] : [];
    }),
  );
}

const partText = (part: PersonaBundle['parts'][number]) => (part.content.trim() !== '' ? part.content : part.summary);

/**
 * A persona bundle as a character card: each card prompt field from the persona's parts of its
 * type (other types join the description), the kept card fields written back, and the bundle
 * under `extensions.anima` so Anima reads the card back whole.
 */
export function cardFromBundle(bundle: PersonaBundle): CharacterCard {
  const linked = bundle.links.map((link) => bundle.parts.find((part) => part.name === link.part)!);
  const mapped = new Set<PartType>(CARD_PARTS.map((entry) => entry.type));
  const textOf = (type: PartType) =>
    linked
      .filter((part) => part.type === type)
      .map(partText)
      .join('\n\n');
  const others = linked.filter((part) => !mapped.has(part.type)).map(partText);
  const extras = { ...(bundle.card?.extras ?? {}) };
  const take = <T>(cardName: string, fallback: T): T => {
    const value = extras[cardName];
    delete extras[cardName];
    return (value as T | undefined) ?? fallback;
  };
  const { card: _card, ...anima } = bundle;
  return {
    spec: 'v3',
    name: bundle.persona.name,
    description: [textOf('identity'), ...others].filter((text) => text !== '').join('\n\n'),
    personality: textOf('soul'),
    scenario: textOf('context'),
    systemPrompt: [bundle.persona.summary, textOf('system')].filter((text) => text.trim() !== '').join('\n\n'),
    postHistoryInstructions: textOf('protocol'),
    exampleMessages: textOf('voice'),
    firstMessage: take('first_mes', ''),
    alternateGreetings: take<string[]>('alternate_greetings', []),
    creatorNotes: take('creator_notes', bundle.persona.description),
    creator: take('creator', ''),
    characterVersion: take('character_version', ''),
    tags: bundle.persona.tags,
    extensions: { ...(bundle.card?.extensions ?? {}), anima },
    extras,
  };
}

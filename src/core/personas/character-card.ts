import { z } from 'zod';
import { readJson } from '#core/safe-json.ts';
import { base64FromBytes, bytesFromBase64 } from '#core/base64.ts';
import { decodeUtf8Text } from '#core/text-bytes.ts';
import { describeProblem, problemsFromZod, type Problem, type Result } from '#core/result.ts';
import { isPng, placeholderPng, readPngText, writePngText, type PngTextChunk } from './png-text.ts';
import { keptFieldsSchema } from '#core/records/persona-catalog.ts';

/**
 * Reads and writes character cards, the persona format of the roleplay ecosystem (SillyTavern,
 * RisuAI, chub.ai): V1 (TavernAI, fields at the JSON root), V2
 * (github.com/malfoyslastname/character-card-spec-v2, fields under `data`) and V3
 * (github.com/kwaroran/character-card-spec-v3, V2 plus a few fields), as JSON or as a PNG whose
 * `chara` (V2) and `ccv3` (V3) tEXt chunks hold the card as base64 of UTF-8 JSON.
 *
 * Reading is lenient: only the fields Anima maps are checked, everything else is kept verbatim
 * (the specs forbid destroying unknown data) and written back on export. Text is never
 * interpreted: `{{char}}` macros, HTML and CRLF line breaks come back exactly as they came in.
 */

/** The largest JSON card read, in UTF-8 bytes: long lorebooks fit, a pasted novel does not. */
export const MAX_CARD_JSON_BYTES = 2 * 2 ** 20;
/** The most characters one text field of a card holds. */
export const MAX_CARD_FIELD_CHARS = 100_000;
const MAX_NAME_CHARS = 1_000;
const MAX_TAG_CHARS = 1_000;
const MAX_LIST_ITEMS = 1_000;

/** A card as Anima holds it: the fields it maps under its own names, the rest kept for export. */
export type CharacterCard = {
  /** The version it was read from; cards are always written as V3. */
  spec: 'v1' | 'v2' | 'v3';
  name: string;
  description: string;
  personality: string;
  scenario: string;
  firstMessage: string;
  exampleMessages: string;
  systemPrompt: string;
  postHistoryInstructions: string;
  creatorNotes: string;
  alternateGreetings: string[];
  tags: string[];
  creator: string;
  characterVersion: string;
  /** Other applications' data (`data.extensions`), kept as read. */
  extensions: Record<string, unknown>;
  /** Every other field of the card (character_book, nickname, assets, group_only_greetings, dates...), kept as read. */
  extras: Record<string, unknown>;
  /** The PNG it came from (the same bytes, not a copy). */
  image?: Uint8Array;
};

const textField = (max = MAX_CARD_FIELD_CHARS) => z.string().max(max, `at most ${max} characters`).nullish();
const textList = (max: number) =>
  z
    .array(z.string().max(max, `at most ${max} characters`))
    .max(MAX_LIST_ITEMS, `at most ${MAX_LIST_ITEMS} items`)
    .nullish();

/** The V1 fields; V2 and V3 nest the same ones under `data`. */
const v1Fields = {
  name: z
    .string({ error: (issue) => (issue.input === undefined ? 'a card needs a name' : undefined) })
    .max(MAX_NAME_CHARS, `at most ${MAX_NAME_CHARS} characters`)
    .refine((name) => name.trim() !== '', 'a card needs a name'),
  description: textField(),
  personality: textField(),
  scenario: textField(),
  first_mes: textField(),
  mes_example: textField(),
};

/** A V1 card (TavernAI): its fields at the root of the JSON; other root fields are kept as extras. */
export const characterCardV1Schema = z.looseObject(v1Fields);

/** The `data` of a V2 card, as far as Anima reads it; other fields (character_book...) are kept as extras. */
const v2DataSchema = z.looseObject({
  ...v1Fields,
  creator_notes: textField(),
  system_prompt: textField(),
  post_history_instructions: textField(),
  alternate_greetings: textList(MAX_CARD_FIELD_CHARS),
  tags: textList(MAX_TAG_CHARS),
  creator: textField(),
  // Some editors write the version as a number.
  character_version: z
    .union([z.string().max(MAX_NAME_CHARS, `at most ${MAX_NAME_CHARS} characters`), z.number()])
    .nullish(),
  extensions: keptFieldsSchema.nullish(),
});

/** A V2 card. `spec_version` is not checked: the spec promises later 2.x versions stay compatible. */
export const characterCardV2Schema = z.looseObject({ spec: z.literal('chara_card_v2'), data: v2DataSchema });

/**
 * A V3 card. Its own fields (nickname, creator_notes_multilingual, source, group_only_greetings,
 * assets, creation_date, modification_date) are not read, so not checked: they are kept as
 * extras and written back as they came. `spec_version` is not checked either: V3 asks
 * applications to import newer 3.x cards.
 */
export const characterCardV3Schema = z.looseObject({ spec: z.literal('chara_card_v3'), data: v2DataSchema });

/** The `data` keys Anima maps to its own fields; every other key is an extra. */
const MAPPED_KEYS = new Set(Object.keys(v2DataSchema.shape));

/** V3 fields written after the V2 ones, in the order of the V3 spec: group_only_greetings always (V3 requires it), the others when the card has them. */
const V3_KEYS = [
  'assets',
  'nickname',
  'creator_notes_multilingual',
  'source',
  'group_only_greetings',
  'creation_date',
  'modification_date',
];

/** The PNG chunks a card travels in, the preferred first. */
const CARD_CHUNKS = ['ccv3', 'chara'] as const;

/**
 * Reads a character card from a file's bytes (a PNG, or JSON as UTF-8) or from JSON text, and
 * says what is wrong, and where, when it cannot. In a PNG the `ccv3` chunk wins when it holds
 * a valid card (as V3 asks), else `chara`.
 */
export function readCharacterCard(input: { bytes: Uint8Array } | { text: string }): Result<CharacterCard> {
  if ('text' in input) return readCardJson(input.text);
  const { bytes } = input;
  if (isPng(bytes)) return readCardPng(bytes);
  if (!startsWithBrace(bytes)) return problem('neither a PNG image nor a JSON character card');
  if (bytes.length > MAX_CARD_JSON_BYTES) return tooLarge();
  const text = decodeUtf8Text(bytes);
  return text.ok ? readCardJson(text.value) : text;
}

/** The card as V3 JSON: fixed key order, two-space indent and a final newline, so the same card always gives the same bytes. */
export function writeCharacterCardJson(card: CharacterCard): string {
  return `${JSON.stringify(cardJson(card, 'v3'), null, 2)}\n`;
}

/**
 * The card as a PNG: the given image, else the card's own, else a placeholder coloured after
 * its name, with a `ccv3` chunk (V3) and a `chara` chunk (the same data as a V2 card, for older
 * readers) replacing any it had.
 *
 * Throws when the image is not a sound PNG: images come from `readCharacterCard`, which has
 * checked them (check another with `readPngText` first).
 */
export function writeCharacterCardPng(card: CharacterCard, image?: Uint8Array): Uint8Array {
  const written = writePngText(image ?? card.image ?? placeholderPng(card.name), [
    { keyword: 'chara', text: base64FromBytes(new TextEncoder().encode(JSON.stringify(cardJson(card, 'v2')))) },
    { keyword: 'ccv3', text: base64FromBytes(new TextEncoder().encode(JSON.stringify(cardJson(card, 'v3')))) },
  ]);
  if (!written.ok)
    throw new Error(
      `the image for the card "${card.name}" is not a sound PNG: ${written.error.map(describeProblem).join('; ')}`,
    );
  return written.value;
}

function readCardPng(bytes: Uint8Array): Result<CharacterCard> {
  const chunks = readPngText(bytes);
  if (!chunks.ok) return chunks;
  let preferredFailure: Problem[] | undefined;
  for (const keyword of CARD_CHUNKS) {
    const chunk = chunks.value.find((candidate) => candidate.keyword === keyword);
    if (!chunk) continue;
    const card = readCardChunk(chunk);
    if (card.ok) return { ok: true, value: { ...card.value, image: bytes } };
    preferredFailure ??= card.error;
  }
  return preferredFailure
    ? { ok: false, error: preferredFailure }
    : problem('the PNG holds no character card: it has no chara or ccv3 text chunk');
}

function readCardChunk(chunk: PngTextChunk): Result<CharacterCard> {
  const where = `the ${chunk.keyword} chunk`;
  if (chunk.kind === 'compressed')
    return problem(
      `${where} is compressed (${chunk.chunkType}), which Anima does not read; cards store it uncompressed in tEXt`,
    );
  const bytes = bytesFromBase64(chunk.text);
  if (bytes === undefined) return problem(`${where} is not base64 text`);
  if (bytes.length > MAX_CARD_JSON_BYTES) return tooLarge();
  const text = decodeUtf8Text(bytes);
  // A line inside a base64 chunk means nothing to the user: the chunk is the place.
  const card = text.ok ? readCardJson(text.value) : problem<CharacterCard>(text.error[0]!.message);
  if (card.ok) return card;
  return {
    ok: false,
    error: card.error.map((found) =>
      found.path
        ? { ...found, path: `${found.path} (in ${where})` }
        : { ...found, message: `in ${where}, ${found.message}` },
    ),
  };
}

function readCardJson(text: string): Result<CharacterCard> {
  // A string has at most as many UTF-16 units as UTF-8 bytes: only a short one needs encoding to be measured.
  if (text.length > MAX_CARD_JSON_BYTES || new TextEncoder().encode(text).length > MAX_CARD_JSON_BYTES)
    return tooLarge();
  const json = readJson(text, { maxBytes: MAX_CARD_JSON_BYTES });
  if (!json.ok) return json;
  if (!isRecord(json.value)) return problem('a character card is a JSON object');
  const root = json.value;
  const spec = root.spec;
  if (spec === undefined) return fromV1(root);
  if (spec !== 'chara_card_v2' && spec !== 'chara_card_v3') {
    return {
      ok: false,
      error: [
        {
          path: 'spec',
          message: `${JSON.stringify(spec)} is not a card spec Anima reads (chara_card_v2 or chara_card_v3, or none for V1)`,
        },
      ],
    };
  }
  if (!isRecord(root.data))
    return { ok: false, error: [{ path: 'data', message: 'a V2 or V3 card keeps its fields in a data object' }] };
  return fromData(spec === 'chara_card_v2' ? 'v2' : 'v3', root, root.data);
}

function fromV1(root: Record<string, unknown>): Result<CharacterCard> {
  const parsed = characterCardV1Schema.safeParse(root);
  if (!parsed.success) return { ok: false, error: problemsFromZod(parsed.error) };
  const fields = parsed.data;
  const extras = entriesExcept(root, new Set(Object.keys(v1Fields)));
  const tooDeep = keptTooDeep(extras, undefined);
  if (tooDeep) return tooDeep;
  return {
    ok: true,
    value: {
      ...emptyCard(),
      spec: 'v1',
      name: fields.name,
      description: fields.description ?? '',
      personality: fields.personality ?? '',
      scenario: fields.scenario ?? '',
      firstMessage: fields.first_mes ?? '',
      exampleMessages: fields.mes_example ?? '',
      extras,
    },
  };
}

/** Kept fields (other applications' data) nested deeper than the files that carry them may hold, as a problem at the card's place. */
function keptTooDeep(extras: Record<string, unknown>, path: string | undefined): Result<never> | undefined {
  const checked = keptFieldsSchema.safeParse(extras);
  return checked.success
    ? undefined
    : { ok: false, error: [{ ...(path !== undefined ? { path } : {}), message: checked.error.issues[0]!.message }] };
}

/** A V2 or V3 card; extensions and extras come from the parsed JSON itself, not zod's copy, so nothing in them is rebuilt. */
function fromData(
  spec: 'v2' | 'v3',
  root: Record<string, unknown>,
  data: Record<string, unknown>,
): Result<CharacterCard> {
  const parsed = (spec === 'v2' ? characterCardV2Schema : characterCardV3Schema).safeParse(root);
  if (!parsed.success) return { ok: false, error: problemsFromZod(parsed.error) };
  const fields = parsed.data.data;
  const extras = entriesExcept(data, MAPPED_KEYS);
  const tooDeep = keptTooDeep(extras, 'data');
  if (tooDeep) return tooDeep;
  return {
    ok: true,
    value: {
      spec,
      name: fields.name,
      description: fields.description ?? '',
      personality: fields.personality ?? '',
      scenario: fields.scenario ?? '',
      firstMessage: fields.first_mes ?? '',
      exampleMessages: fields.mes_example ?? '',
      systemPrompt: fields.system_prompt ?? '',
      postHistoryInstructions: fields.post_history_instructions ?? '',
      creatorNotes: fields.creator_notes ?? '',
      alternateGreetings: fields.alternate_greetings ?? [],
      tags: fields.tags ?? [],
      creator: fields.creator ?? '',
      characterVersion: String(fields.character_version ?? ''),
      extensions: isRecord(data.extensions) ? data.extensions : {},
      extras,
    },
  };
}

/** The card as JSON of the given version; V2 carries the same data (V3 fields included) under its own spec. */
function cardJson(card: CharacterCard, version: 'v2' | 'v3'): Record<string, unknown> {
  const extras = Object.entries(card.extras).filter(([key]) => !MAPPED_KEYS.has(key));
  const extra = (key: string) => extras.filter(([extraKey]) => extraKey === key);
  // Object.fromEntries defines properties, so an extra named "__proto__" stays a plain key.
  const entries: [string, unknown][] = [
    ['name', card.name],
    ['description', card.description],
    ['personality', card.personality],
    ['scenario', card.scenario],
    ['first_mes', card.firstMessage],
    ['mes_example', card.exampleMessages],
    ['creator_notes', card.creatorNotes],
    ['system_prompt', card.systemPrompt],
    ['post_history_instructions', card.postHistoryInstructions],
    ['alternate_greetings', card.alternateGreetings],
    ...extra('character_book'),
    ['tags', card.tags],
    ['creator', card.creator],
    ['character_version', card.characterVersion],
    ['extensions', card.extensions],
    // V3 makes group_only_greetings required.
    ...V3_KEYS.flatMap((key) =>
      key === 'group_only_greetings' && extra(key).length === 0 ? [[key, []] satisfies [string, unknown]] : extra(key),
    ),
    ...extras.filter(([key]) => key !== 'character_book' && !V3_KEYS.includes(key)),
  ];
  const data = Object.fromEntries(entries);
  return version === 'v3'
    ? { spec: 'chara_card_v3', spec_version: '3.0', data }
    : { spec: 'chara_card_v2', spec_version: '2.0', data };
}

function emptyCard(): Omit<CharacterCard, 'spec' | 'name'> {
  return {
    description: '',
    personality: '',
    scenario: '',
    firstMessage: '',
    exampleMessages: '',
    systemPrompt: '',
    postHistoryInstructions: '',
    creatorNotes: '',
    alternateGreetings: [],
    tags: [],
    creator: '',
    characterVersion: '',
    extensions: {},
    extras: {},
  };
}

/** The entries of an object other than the given keys, in their order, as a new object. */
function entriesExcept(record: Record<string, unknown>, keys: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.has(key)));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether the first byte after a UTF-8 byte order mark and whitespace is `{`. */
function startsWithBrace(bytes: Uint8Array): boolean {
  let index = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (bytes[index] === 0x20 || bytes[index] === 0x09 || bytes[index] === 0x0a || bytes[index] === 0x0d) index++;
  return bytes[index] === 0x7b;
}

function tooLarge(): Result<CharacterCard> {
  return problem(`the card's JSON is larger than ${MAX_CARD_JSON_BYTES / 2 ** 20} MiB, the most Anima reads`);
}

function problem<T>(message: string): Result<T> {
  return { ok: false, error: [{ message }] };
}

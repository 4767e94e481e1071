import { crc32, placeholderPng } from '../png-text.ts';

/**
 * Character cards and PNGs in the formats other applications write, built from the published
 * specs (V1: TavernAI fields at the root; V2: github.com/malfoyslastname/character-card-spec-v2;
 * V3: github.com/kwaroran/character-card-spec-v3), for tests that must pass without the real
 * files in ../shared.
 */

/** A V1 card as TavernAI and early SillyTavern wrote it: the six fields and app data at the root. */
export const V1_CARD = {
  name: 'Ada',
  description: '{{char}} is a patient mathematics tutor.',
  personality: 'precise, warm',
  scenario: '{{user}} is stuck on a proof.',
  first_mes: 'Show me where it breaks.',
  mes_example: '<START>\n{{user}}: Why?\n{{char}}: Let us check the base case.',
  avatar: 'none',
  talkativeness: '0.5',
  fav: false,
};

/** A V2 card with every V2 field, an embedded lorebook, and V1 duplicates at the root as SillyTavern writes them. */
export const V2_CARD = {
  name: 'Bram',
  description: 'Old root copy, ignored when data is there.',
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Bram',
    description: '{{char}} keeps the lighthouse on the northern cape.',
    personality: 'gruff, loyal',
    scenario: 'A storm has cut the island off.',
    first_mes: 'Shut the door, the wind bites.',
    mes_example: '<START>\n{{user}}: Is the light working?\n{{char}}: Always.',
    creator_notes: 'Works best with slow-burn stories.',
    system_prompt: 'Write {{char}} in the third person.',
    post_history_instructions: 'Keep replies under 200 words.',
    alternate_greetings: ['The lamp flickers.', 'Another ship tonight?'],
    character_book: {
      name: 'Northern cape',
      extensions: {},
      entries: [{ keys: ['lighthouse'], content: 'Built in 1851.', extensions: {}, enabled: true, insertion_order: 100, position: 'before_char' }],
    },
    tags: ['fantasy', 'slice of life'],
    creator: 'fixture',
    character_version: '1.2',
    extensions: { talkativeness: '0.5', depth_prompt: { prompt: '', depth: 4, role: 'system' } },
  },
};

/** A V3 card with every V3 field and extension keys namespaced with slashes, as the V2 spec recommends. */
export const V3_CARD = {
  spec: 'chara_card_v3',
  spec_version: '3.0',
  data: {
    name: 'Cleo',
    description: '{{char}} navigates a generation ship.',
    personality: 'calm',
    scenario: 'Year 212 of the voyage.',
    first_mes: 'Course holds.',
    mes_example: '',
    creator_notes: 'English notes.',
    system_prompt: '',
    post_history_instructions: '',
    alternate_greetings: [],
    tags: ['sci-fi'],
    creator: 'fixture',
    character_version: '3.0.0',
    extensions: { 'risuai/emotions': ['calm', 'alarmed'], 'chub/alt_expressions': {}, 'depth_prompt': { depth: 4 } },
    group_only_greetings: ['Crew, to the bridge.'],
    assets: [{ type: 'icon', uri: 'ccdefault:', name: 'main', ext: 'png' }],
    nickname: 'Navigator',
    creator_notes_multilingual: { en: 'English notes.', ja: '日本語のノート。' },
    source: ['https://example.com/cleo'],
    creation_date: 1703462400,
    modification_date: 1703548800,
  },
};

/** A card whose fields hold markup and script: text to keep as it is, never to interpret. */
export const HTML_CARD = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    ...V2_CARD.data,
    name: '<b>Mallory</b>',
    description: '<script>alert("card")</script><img src=x onerror="alert(1)">',
    first_mes: '</textarea><iframe src="javascript:alert(2)"></iframe>\r\n*waves*',
    creator_notes: '<a href="javascript:void(0)">notes</a> & &amp; \u0000 \u2028',
  },
};

/** The payload of a card chunk: the card's JSON as UTF-8, in base64. */
export function cardChunkText(card: unknown): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(JSON.stringify(card))) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A chunk to add by hand: its type and data (the length and CRC are computed). */
export type RawChunk = { type: string; data: Uint8Array };

/** The data of a tEXt chunk: a Latin-1 keyword, a zero byte, Latin-1 text. */
export function tEXt(keyword: string, text: string): RawChunk {
  return { type: 'tEXt', data: Uint8Array.from(`${keyword}\0${text}`, (character) => character.charCodeAt(0)) };
}

/** An uncompressed iTXt chunk: keyword, flags, language tag and translated keyword, UTF-8 text. */
export function iTXt(keyword: string, text: string): RawChunk {
  const encoder = new TextEncoder();
  return { type: 'iTXt', data: concatenate([encoder.encode(keyword), Uint8Array.of(0, 0, 0), encoder.encode('ja'), Uint8Array.of(0), encoder.encode(keyword), Uint8Array.of(0), encoder.encode(text)]) };
}

/** A zTXt chunk holding the given deflate stream. */
export function zTXt(keyword: string, deflated: Uint8Array): RawChunk {
  return { type: 'zTXt', data: concatenate([new TextEncoder().encode(keyword), Uint8Array.of(0, 0), deflated]) };
}

/** A PNG (the placeholder unless given) with chunks added just before IEND, each with a correct CRC. */
export function pngWith(chunks: readonly RawChunk[], png: Uint8Array = placeholderPng('fixture')): Uint8Array {
  const iendStart = png.length - 12;
  return concatenate([png.subarray(0, iendStart), ...chunks.map(encodeChunk), png.subarray(iendStart)]);
}

/** A PNG whose chunks are the given ones in order, between the signature and nothing else: for malformed files. */
export function pngOfChunks(chunks: readonly RawChunk[]): Uint8Array {
  return concatenate([placeholderPng('fixture').subarray(0, 8), ...chunks.map(encodeChunk)]);
}

/** A V2 card PNG the way SillyTavern wrote cards before V3: only a `chara` chunk. */
export function v2CardPng(card: unknown = V2_CARD): Uint8Array {
  return pngWith([tEXt('chara', cardChunkText(card))]);
}

/** A copy of a PNG with one byte of IHDR's data changed, so its CRC no longer matches. */
export function withBadChecksum(png: Uint8Array): Uint8Array {
  const damaged = png.slice();
  damaged[16] = damaged[16]! ^ 0xff; // the first byte of the width
  return damaged;
}

function encodeChunk({ type, data }: RawChunk): Uint8Array {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(Uint8Array.from(type, (character) => character.charCodeAt(0)), 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

function concatenate(parts: readonly Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

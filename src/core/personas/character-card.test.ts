import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { describeProblem, type Result } from '#core/result.ts';
import {
  cardChunkText,
  HTML_CARD,
  pngWith,
  tEXt,
  V1_CARD,
  V2_CARD,
  V3_CARD,
  v2CardPng,
  withBadChecksum,
  zTXt,
} from './__fixtures__/character-cards.ts';
import {
  MAX_CARD_FIELD_CHARS,
  MAX_CARD_JSON_BYTES,
  readCharacterCard,
  writeCharacterCardJson,
  writeCharacterCardPng,
  type CharacterCard,
} from './character-card.ts';
import { placeholderPng, readPngText } from './png-text.ts';

function read(input: { bytes: Uint8Array } | { text: string }): CharacterCard {
  const card = readCharacterCard(input);
  if (!card.ok) throw new Error(card.error.map(describeProblem).join('; '));
  return card.value;
}

const readJson = (json: unknown) => read({ text: JSON.stringify(json) });

function problemsOf(result: Result<unknown>): string {
  return result.ok ? 'read fine' : result.error.map(describeProblem).join('; ');
}

/** The JSON in one text chunk of a card PNG. */
function chunkJson(
  png: Uint8Array,
  keyword: string,
): { spec: string; spec_version: string; data: Record<string, unknown> } {
  const chunks = readPngText(png);
  const chunk = chunks.ok ? chunks.value.find((candidate) => candidate.keyword === keyword) : undefined;
  if (chunk?.kind !== 'text') throw new Error(`no ${keyword} text chunk`);
  return JSON.parse(Buffer.from(chunk.text, 'base64').toString('utf8'));
}

const withoutImage = ({ image: _image, ...card }: CharacterCard) => card;

describe('reading a character card', () => {
  it('reads a V2 PNG with only a chara chunk, keeping its lorebook and extensions for export', () => {
    const png = v2CardPng();
    const card = read({ bytes: png });
    expect(card).toEqual({
      spec: 'v2',
      name: 'Bram',
      description: '{{char}} keeps the lighthouse on the northern cape.',
      personality: 'gruff, loyal',
      scenario: 'A storm has cut the island off.',
      firstMessage: 'Shut the door, the wind bites.',
      exampleMessages: '<START>\n{{user}}: Is the light working?\n{{char}}: Always.',
      systemPrompt: 'Write {{char}} in the third person.',
      postHistoryInstructions: 'Keep replies under 200 words.',
      creatorNotes: 'Works best with slow-burn stories.',
      alternateGreetings: ['The lamp flickers.', 'Another ship tonight?'],
      tags: ['fantasy', 'slice of life'],
      creator: 'fixture',
      characterVersion: '1.2',
      extensions: V2_CARD.data.extensions,
      extras: { character_book: V2_CARD.data.character_book },
      image: png,
    });
  });

  it('prefers the ccv3 chunk to chara when a PNG has both', () => {
    const png = pngWith([tEXt('chara', cardChunkText(V2_CARD)), tEXt('ccv3', cardChunkText(V3_CARD))]);
    expect(read({ bytes: png })).toMatchObject({ spec: 'v3', name: 'Cleo' });
    const ccv3First = pngWith([tEXt('ccv3', cardChunkText(V3_CARD)), tEXt('chara', cardChunkText(V2_CARD))]);
    expect(read({ bytes: ccv3First })).toMatchObject({ spec: 'v3', name: 'Cleo' });
  });

  it('falls back to chara when the ccv3 chunk is broken, and names the ccv3 chunk when both are', () => {
    const brokenCcv3 = { ...V3_CARD, data: { ...V3_CARD.data, name: '' } };
    expect(
      read({ bytes: pngWith([tEXt('ccv3', cardChunkText(brokenCcv3)), tEXt('chara', cardChunkText(V2_CARD))]) }),
    ).toMatchObject({ spec: 'v2', name: 'Bram' });
    expect(
      read({ bytes: pngWith([tEXt('ccv3', '%%% not base64'), tEXt('chara', cardChunkText(V2_CARD))]) }),
    ).toMatchObject({ name: 'Bram' });
    expect(
      problemsOf(
        readCharacterCard({ bytes: pngWith([tEXt('ccv3', cardChunkText(brokenCcv3)), tEXt('chara', 'e30=')]) }),
      ),
    ).toBe('at data.name (in the ccv3 chunk): a card needs a name');
    expect(problemsOf(readCharacterCard({ bytes: pngWith([tEXt('chara', '%%%')]) }))).toBe(
      'the chara chunk is not base64 text',
    );
    expect(problemsOf(readCharacterCard({ bytes: pngWith([tEXt('chara', btoa('\u00ff\u00fe'))]) }))).toBe(
      'in the chara chunk, the file is not UTF-8 text: the byte 0xFF at offset 0 (counting from 0) does not start a UTF-8 character; save the file as UTF-8',
    );
    expect(problemsOf(readCharacterCard({ bytes: pngWith([tEXt('chara', btoa('{"name": '))]) }))).toBe(
      'line 1, column 10, at $.name (in the chara chunk): a value was expected, but the end of the text was found',
    );
  });

  it('reads a V1 card, its fields at the root, keeping the other root fields', () => {
    expect(readJson(V1_CARD)).toEqual({
      spec: 'v1',
      name: 'Ada',
      description: '{{char}} is a patient mathematics tutor.',
      personality: 'precise, warm',
      scenario: '{{user}} is stuck on a proof.',
      firstMessage: 'Show me where it breaks.',
      exampleMessages: '<START>\n{{user}}: Why?\n{{char}}: Let us check the base case.',
      systemPrompt: '',
      postHistoryInstructions: '',
      creatorNotes: '',
      alternateGreetings: [],
      tags: [],
      creator: '',
      characterVersion: '',
      extensions: {},
      extras: { avatar: 'none', talkativeness: '0.5', fav: false },
    });
  });

  it('reads a V3 card, its own fields kept as extras and extension keys with slashes as they are', () => {
    const card = readJson(V3_CARD);
    expect(card).toMatchObject({ spec: 'v3', name: 'Cleo', characterVersion: '3.0.0', tags: ['sci-fi'] });
    expect(card.extensions).toEqual({
      'risuai/emotions': ['calm', 'alarmed'],
      'chub/alt_expressions': {},
      depth_prompt: { depth: 4 },
    });
    expect(card.extras).toEqual({
      group_only_greetings: ['Crew, to the bridge.'],
      assets: [{ type: 'icon', uri: 'ccdefault:', name: 'main', ext: 'png' }],
      nickname: 'Navigator',
      creator_notes_multilingual: { en: 'English notes.', ja: '日本語のノート。' },
      source: ['https://example.com/cleo'],
      creation_date: 1703462400,
      modification_date: 1703548800,
    });
  });

  it('reads JSON given as bytes, with or without a byte order mark, and text with one', () => {
    const json = JSON.stringify(V3_CARD);
    expect(read({ bytes: new TextEncoder().encode(`\n  ${json}`) }).name).toBe('Cleo');
    expect(read({ bytes: Buffer.concat([Uint8Array.of(0xef, 0xbb, 0xbf), Buffer.from(json)]) }).name).toBe('Cleo');
    expect(read({ text: `\uFEFF${json}` }).name).toBe('Cleo');
  });

  it('is lenient on what other applications leave out or add', () => {
    const sparse = readJson({
      spec: 'chara_card_v2',
      spec_version: '2.1',
      data: { name: 'Sparse', creator_notes: null, character_version: 2, future_field: { x: 1 } },
    });
    expect(sparse).toMatchObject({
      spec: 'v2',
      name: 'Sparse',
      description: '',
      creatorNotes: '',
      characterVersion: '2',
      alternateGreetings: [],
      extensions: {},
      extras: { future_field: { x: 1 } },
    });
    expect(readJson({ ...V3_CARD, spec_version: '3.4' }).spec).toBe('v3');
  });

  it('keeps markup, script, macros and CRLF line breaks as plain text', () => {
    const card = readJson(HTML_CARD);
    expect(card.name).toBe('<b>Mallory</b>');
    expect(card.description).toBe('<script>alert("card")</script><img src=x onerror="alert(1)">');
    expect(card.firstMessage).toBe('</textarea><iframe src="javascript:alert(2)"></iframe>\r\n*waves*');
    expect(card.creatorNotes).toBe('<a href="javascript:void(0)">notes</a> & &amp; \u0000 \u2028');
    const exported = JSON.parse(writeCharacterCardJson(card));
    expect(exported.data.description).toBe(card.description);
    expect(exported.data.first_mes).toBe(card.firstMessage);
  });

  it('keeps a "__proto__" key as a plain key without touching any prototype', () => {
    const text =
      '{"spec":"chara_card_v2","data":{"name":"P","extensions":{"__proto__":{"polluted":true}},"__proto__":{"polluted":true}}}';
    const card = read({ text });
    expect(Object.keys(card.extensions)).toEqual(['__proto__']);
    expect(Object.keys(card.extras)).toEqual(['__proto__']);
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.getPrototypeOf(card.extras)).toBe(Object.prototype);
    const written = writeCharacterCardJson(card);
    expect(written).toContain('"__proto__": {');
    expect(writeCharacterCardJson(read({ text: written }))).toBe(written);
  });
});

describe('refusing what is not a card Anima can read', () => {
  it('says a file is neither a PNG nor JSON, or a PNG is damaged, truncated or holds no card', () => {
    expect(problemsOf(readCharacterCard({ bytes: new TextEncoder().encode('GIF89a...') }))).toBe(
      'neither a PNG image nor a JSON character card',
    );
    expect(problemsOf(readCharacterCard({ bytes: withBadChecksum(v2CardPng()) }))).toBe(
      'chunk 1 (IHDR) has a bad checksum: the file is damaged',
    );
    const png = v2CardPng();
    expect(problemsOf(readCharacterCard({ bytes: png.subarray(0, png.length - 100) }))).toBe(
      'the PNG is truncated in chunk 3 (tEXt)',
    );
    expect(problemsOf(readCharacterCard({ bytes: placeholderPng('Ada') }))).toBe(
      'the PNG holds no character card: it has no chara or ccv3 text chunk',
    );
    expect(
      problemsOf(readCharacterCard({ bytes: pngWith([zTXt('chara', deflateSync(cardChunkText(V2_CARD)))]) })),
    ).toBe('the chara chunk is compressed (zTXt), which Anima does not read; cards store it uncompressed in tEXt');
  });

  it('says where a card breaks the rules: the path of the field and what is wrong', () => {
    expect(problemsOf(readCharacterCard({ text: '{"name": "Ada",}' }))).toBe(
      'line 1, column 16, at $: a key in double quotes was expected, but "}" was found',
    );
    expect(problemsOf(readCharacterCard({ text: '["Ada"]' }))).toBe('a character card is a JSON object');
    expect(problemsOf(readCharacterCard({ text: '{"spec": "chara_card_v9", "data": {}}' }))).toBe(
      'at spec: "chara_card_v9" is not a card spec Anima reads (chara_card_v2 or chara_card_v3, or none for V1)',
    );
    expect(problemsOf(readCharacterCard({ text: '{"spec": "chara_card_v2", "name": "Ada"}' }))).toBe(
      'at data: a V2 or V3 card keeps its fields in a data object',
    );
    expect(problemsOf(readCharacterCard({ text: '{"description": "no name"}' }))).toBe('at name: a card needs a name');
    expect(
      problemsOf(readCharacterCard({ text: JSON.stringify({ ...V2_CARD, data: { ...V2_CARD.data, name: '   ' } }) })),
    ).toBe('at data.name: a card needs a name');
    const wrongTypes = { ...V2_CARD, data: { ...V2_CARD.data, tags: ['ok', 7], extensions: [], first_mes: 3 } };
    expect(problemsOf(readCharacterCard({ text: JSON.stringify(wrongTypes) }))).toMatch(
      /at data\.first_mes: .*expected string.*; at data\.tags\.1: .*expected string.*; at data\.extensions: .*expected record/,
    );
  });

  it('refuses oversize input: a field, the JSON and the PNG, saying which', () => {
    const longField = { ...V3_CARD, data: { ...V3_CARD.data, description: 'x'.repeat(MAX_CARD_FIELD_CHARS + 1) } };
    expect(problemsOf(readCharacterCard({ text: JSON.stringify(longField) }))).toBe(
      `at data.description: at most ${MAX_CARD_FIELD_CHARS} characters`,
    );
    const longGreeting = {
      ...V3_CARD,
      data: { ...V3_CARD.data, alternate_greetings: ['ok', 'x'.repeat(MAX_CARD_FIELD_CHARS + 1)] },
    };
    expect(problemsOf(readCharacterCard({ text: JSON.stringify(longGreeting) }))).toBe(
      `at data.alternate_greetings.1: at most ${MAX_CARD_FIELD_CHARS} characters`,
    );
    const hugeJson = JSON.stringify({
      ...V3_CARD,
      data: { ...V3_CARD.data, extensions: { padding: 'x'.repeat(MAX_CARD_JSON_BYTES) } },
    });
    expect(problemsOf(readCharacterCard({ text: hugeJson }))).toBe(
      "the card's JSON is larger than 2 MiB, the most Anima reads",
    );
    expect(problemsOf(readCharacterCard({ bytes: new TextEncoder().encode(hugeJson) }))).toBe(
      "the card's JSON is larger than 2 MiB, the most Anima reads",
    );
    // Multi-byte characters count as UTF-8 bytes: a million of them is 3 MB.
    const wideJson = JSON.stringify({
      ...V3_CARD,
      data: { ...V3_CARD.data, extensions: { padding: '語'.repeat(1_000_000) } },
    });
    expect(problemsOf(readCharacterCard({ text: wideJson }))).toBe(
      "the card's JSON is larger than 2 MiB, the most Anima reads",
    );
    const hugePng = new Uint8Array(8 * 2 ** 20 + 1);
    hugePng.set(v2CardPng());
    expect(problemsOf(readCharacterCard({ bytes: hugePng }))).toBe(
      'the PNG is larger than 8 MiB, the most Anima reads',
    );
  });

  it("refuses other applications' data nested deeper than the files that keep it may hold", () => {
    const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);
    expect(problemsOf(readCharacterCard({ text: JSON.stringify({ name: 'Deep', avatar: nested(31) }) }))).toBe(
      'read fine',
    );
    expect(problemsOf(readCharacterCard({ text: JSON.stringify({ name: 'Deep', avatar: nested(32) }) }))).toBe(
      "other applications' data nested deeper than 32 levels is more than Anima keeps",
    );
    // A "__proto__" key is kept as data, and counted like any other.
    expect(problemsOf(readCharacterCard({ text: `{"name":"Deep","__proto__":${JSON.stringify(nested(40))}}` }))).toBe(
      "other applications' data nested deeper than 32 levels is more than Anima keeps",
    );
    expect(
      problemsOf(
        readCharacterCard({
          text: JSON.stringify({ ...V3_CARD, data: { ...V3_CARD.data, extensions: { x: nested(40) } } }),
        }),
      ),
    ).toBe("at data.extensions: other applications' data nested deeper than 32 levels is more than Anima keeps");
  });

  it('refuses JSON nested deeper than any card, before it can overflow the stack', () => {
    const deep = `{"name":"Deep","avatar":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(problemsOf(readCharacterCard({ text: deep }))).toBe(
      'line 1, column 88: the JSON nests deeper than 64 levels, more than any file Anima writes',
    );
  });
});

describe('writing a character card', () => {
  it('writes V3 JSON with a fixed key order, two-space indent and a final newline', () => {
    const text = writeCharacterCardJson(readJson(V2_CARD));
    expect(text.endsWith('}\n')).toBe(true);
    expect(
      text.startsWith('{\n  "spec": "chara_card_v3",\n  "spec_version": "3.0",\n  "data": {\n    "name": "Bram",'),
    ).toBe(true);
    const json = JSON.parse(text);
    expect(Object.keys(json)).toEqual(['spec', 'spec_version', 'data']);
    expect(Object.keys(json.data)).toEqual([
      'name',
      'description',
      'personality',
      'scenario',
      'first_mes',
      'mes_example',
      'creator_notes',
      'system_prompt',
      'post_history_instructions',
      'alternate_greetings',
      'character_book',
      'tags',
      'creator',
      'character_version',
      'extensions',
      'group_only_greetings',
    ]);
    expect(json.data.group_only_greetings).toEqual([]);
    expect(json.data.character_book).toEqual(V2_CARD.data.character_book);
  });

  it('writes the V3 fields after the V2 ones in the order of the spec, then any other extras', () => {
    const card = readJson(V3_CARD);
    const json = JSON.parse(writeCharacterCardJson({ ...card, extras: { zeta: 1, ...card.extras, alpha: 2 } }));
    expect(Object.keys(json.data).slice(14)).toEqual([
      'assets',
      'nickname',
      'creator_notes_multilingual',
      'source',
      'group_only_greetings',
      'creation_date',
      'modification_date',
      'zeta',
      'alpha',
    ]);
    expect(json.data).toEqual({ ...V3_CARD.data, zeta: 1, alpha: 2 });
  });

  it('writes a PNG with a ccv3 (V3) and a chara (V2) chunk holding the same data, on a placeholder when there is no image', () => {
    const card = withoutImage(readJson(V3_CARD));
    const png = writeCharacterCardPng(card);
    const ccv3 = chunkJson(png, 'ccv3');
    const chara = chunkJson(png, 'chara');
    expect([ccv3.spec, ccv3.spec_version, chara.spec, chara.spec_version]).toEqual([
      'chara_card_v3',
      '3.0',
      'chara_card_v2',
      '2.0',
    ]);
    expect(chara.data).toEqual(ccv3.data);
    expect(ccv3).toEqual(JSON.parse(writeCharacterCardJson(card)));
    expect(
      Buffer.compare(png.subarray(0, placeholderPng('Cleo').length - 12), placeholderPng('Cleo').subarray(0, -12)),
    ).toBe(0);
  });

  it("writes onto the given image, else the card's own, replacing the card chunks it had", () => {
    const card = read({ bytes: v2CardPng() });
    const onOwn = writeCharacterCardPng({ ...card, name: 'Renamed' });
    const chunks = readPngText(onOwn);
    expect(chunks.ok && chunks.value.map((chunk) => chunk.keyword)).toEqual(['chara', 'ccv3']);
    expect(chunkJson(onOwn, 'ccv3').data.name).toBe('Renamed');
    const portrait = pngWith([tEXt('Comment', 'a portrait')], placeholderPng('portrait'));
    const onGiven = writeCharacterCardPng(card, portrait);
    const givenChunks = readPngText(onGiven);
    expect(givenChunks.ok && givenChunks.value.map((chunk) => chunk.keyword)).toEqual(['Comment', 'chara', 'ccv3']);
    expect(() => writeCharacterCardPng(card, withBadChecksum(portrait))).toThrow(
      'the image for the card "Bram" is not a sound PNG: chunk 1 (IHDR) has a bad checksum',
    );
  });
});

describe('round trips', () => {
  const sources: [string, CharacterCard][] = [
    ['V1 JSON', readJson(V1_CARD)],
    ['V2 PNG', read({ bytes: v2CardPng() })],
    ['V3 JSON', readJson(V3_CARD)],
    ['markup', readJson(HTML_CARD)],
  ];

  it.each(sources)('reads back what it wrote from a %s card, and writes the same bytes again', (_source, original) => {
    const canonical = read({ text: writeCharacterCardJson(original) });
    expect(read({ text: writeCharacterCardJson(canonical) })).toEqual(canonical);
    expect(withoutImage(read({ bytes: writeCharacterCardPng(canonical) }))).toEqual(canonical);
    expect(writeCharacterCardJson(read({ text: writeCharacterCardJson(original) }))).toBe(
      writeCharacterCardJson(original),
    );
    const png = writeCharacterCardPng(original);
    expect(Buffer.compare(writeCharacterCardPng(read({ bytes: png })), png)).toBe(0);
  });

  it('keeps a V3 card as it was, image aside', () => {
    const card = readJson(V3_CARD);
    expect(read({ text: writeCharacterCardJson(card) })).toEqual(card);
    expect(withoutImage(read({ bytes: writeCharacterCardPng(card) }))).toEqual(card);
  });
});

/** Real files from elsewhere (tests/fixtures/public/README.md): a V3 card RisuAI wrote, and libpng's test image. */
const publicFixture = (name: string) =>
  readFileSync(new URL(`../../../tests/fixtures/public/${name}`, import.meta.url));
const RISU_CARD_TEXT = publicFixture('risuai-ccardlib-nieun.ccv3.json').toString('utf8');

describe('a real V3 card RisuAI wrote', () => {
  it("reads it with RisuAI's extensions, assets, lorebook and Korean notes kept, and writes back the same JSON", () => {
    const card = read({ text: RISU_CARD_TEXT });
    expect(card).toMatchObject({ spec: 'v3', name: 'Nieun', tags: ['Temerosa'], exampleMessages: '', personality: '' });
    expect(card.alternateGreetings).toHaveLength(3);
    expect(card.firstMessage).toContain('{{img::');
    expect(card.creatorNotes).toContain('# `ko`\n동경하던 영웅의 추악한 진실을');
    expect(Object.keys(card.extensions)).toEqual(['risuai', 'depth_prompt']);
    expect(card.extensions.risuai).toMatchObject({ license: 'CC BY 4.0', viewScreen: 'none' });
    expect((card.extras.character_book as { entries: unknown[] }).entries).toHaveLength(66);
    expect((card.extras.assets as { type: string; uri: string }[])[0]).toEqual({
      type: 'icon',
      uri: 'ccdefault:',
      name: 'main',
      ext: 'png',
    });
    expect(card.extras).toMatchObject({
      nickname: '',
      creation_date: 0,
      modification_date: 0,
      group_only_greetings: [],
    });
    expect(JSON.parse(writeCharacterCardJson(card))).toEqual(JSON.parse(RISU_CARD_TEXT));
    expect(read({ bytes: new TextEncoder().encode(RISU_CARD_TEXT) })).toEqual(card);
  });

  it("goes into libpng's test image as ccv3 and chara chunks, the image's own chunks kept, and reads back the same", () => {
    const image = new Uint8Array(publicFixture('libpng-pngtest.png'));
    const card = read({ text: RISU_CARD_TEXT });
    const png = writeCharacterCardPng(card, image);
    const chunks = readPngText(png);
    expect(chunks.ok && chunks.value.map((chunk) => `${chunk.chunkType} ${chunk.keyword}`)).toEqual([
      'tEXt Title',
      'zTXt Description',
      'tEXt chara',
      'tEXt ccv3',
    ]);
    expect(chunkJson(png, 'ccv3')).toEqual(JSON.parse(RISU_CARD_TEXT));
    expect(chunkJson(png, 'chara')).toMatchObject({
      spec: 'chara_card_v2',
      data: { name: 'Nieun', character_book: card.extras.character_book },
    });
    const back = read({ bytes: png });
    expect(back.image).toBe(png);
    expect(withoutImage(back)).toEqual(withoutImage(card));
  });
});

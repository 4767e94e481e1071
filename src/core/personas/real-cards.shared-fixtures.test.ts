import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedFixtures } from '../../../tests/unit/shared-fixtures.ts';
import { describeProblem } from '#core/result.ts';
import { testService } from '#core/testing/test-database.ts';
import {
  readCharacterCard,
  writeCharacterCardJson,
  writeCharacterCardPng,
  type CharacterCard,
} from './character-card.ts';
import { readPngText, writePngText } from './png-text.ts';

/**
 * Cards that SillyTavern and tavern_kit wrote (shared/fixtures/public/cards, which the repository
 * may not hold): run only with ANIMA_SHARED_FIXTURES set. The real files the repository holds are
 * read in character-card.test.ts, png-text.test.ts and persona-card.test.ts.
 */
const cards = sharedFixtures('cards');
const file = (name: string) => new Uint8Array(readFileSync(path.join(cards, name)));
const decoded = (name: string) => JSON.parse(readFileSync(path.join(cards, 'decoded', name), 'utf8'));

function read(input: { bytes: Uint8Array } | { text: string }): CharacterCard {
  const card = readCharacterCard(input);
  if (!card.ok) throw new Error(card.error.map(describeProblem).join('; '));
  return card.value;
}

const withoutImage = ({ image: _image, ...card }: CharacterCard) => card;

describe('the text chunks of real character card PNGs', () => {
  it('finds chara and ccv3 in Seraphina and only chara in Coding Sensei, and rewrites them unchanged', () => {
    const seraphina = file('default_Seraphina.png');
    const sensei = file('default_CodingSensei.png');
    const seraphinaText = readPngText(seraphina);
    expect(seraphinaText.ok && seraphinaText.value.map((chunk) => `${chunk.chunkType} ${chunk.keyword}`)).toEqual([
      'tEXt chara',
      'tEXt ccv3',
    ]);
    const senseiText = readPngText(sensei);
    expect(senseiText.ok && senseiText.value.map((chunk) => chunk.keyword)).toEqual(['chara']);
    for (const png of [seraphina, sensei]) {
      const untouched = writePngText(png, []);
      expect(untouched.ok && Buffer.compare(untouched.value, png)).toBe(0);
    }
  });
});

describe('real character cards', () => {
  it('reads Seraphina from its ccv3 chunk, lorebook, extensions and macros kept, and exports the same data', () => {
    const png = file('default_Seraphina.png');
    const card = read({ bytes: png });
    const ccv3 = decoded('default_Seraphina.ccv3.json');
    expect(card).toMatchObject({ spec: 'v3', name: 'Seraphina', tags: [] });
    expect(card.image).toBe(png);
    expect(card.description).toContain('{{char}}');
    expect(card.extensions).toEqual({
      talkativeness: '0.5',
      fav: false,
      world: 'Eldoria',
      depth_prompt: { prompt: '', depth: 4, role: 'system' },
    });
    expect((card.extras.character_book as { entries: unknown[] }).entries).toHaveLength(4);
    expect(withoutImage(card)).toEqual(withoutImage(read({ text: JSON.stringify(ccv3) })));
    expect(JSON.parse(writeCharacterCardJson(card)).data).toEqual(ccv3.data);
    const exported = writeCharacterCardPng(card);
    expect(Buffer.compare(exported.subarray(0, 33 + 12 + 511505), png.subarray(0, 33 + 12 + 511505))).toBe(0);
    expect(withoutImage(read({ bytes: exported }))).toEqual(withoutImage(card));
  });

  it('reads Coding Sensei from its only chunk, chara, with CRLF line breaks and a code fence kept', () => {
    const card = read({ bytes: file('default_CodingSensei.png') });
    const chara = decoded('default_CodingSensei.chara.json');
    expect(card).toMatchObject({ spec: 'v2', name: 'Coding Sensei' });
    expect(card.firstMessage).toBe(chara.data.first_mes);
    expect(card.firstMessage).toContain('\r\n\r\n```js\r\nfunction HelloWorld() {\r\n');
    expect(JSON.parse(writeCharacterCardJson(card)).data).toEqual({ ...chara.data, group_only_greetings: [] });
  });

  it('reads the tavern_kit V3 card with every V3 field and writes back the same JSON data', () => {
    const text = readFileSync(path.join(cards, 'tavern_kit_full_v3_card.json'), 'utf8');
    const card = read({ text });
    expect(card).toMatchObject({ spec: 'v3', name: 'Nova', extensions: { 'tavern_kit/v3_test': { verified: true } } });
    expect(card.extras).toMatchObject({
      nickname: 'Captain Nova',
      creator_notes_multilingual: { ja: 'すべての仕様フィールドを持つV3カード。' },
      creation_date: 1703462400,
    });
    expect(JSON.parse(writeCharacterCardJson(card))).toEqual(JSON.parse(text));
    expect(read({ bytes: file('tavern_kit_full_v3_card.json') })).toEqual(card);
  });
});

describe('real cards imported into the persona catalog', () => {
  it('imports Seraphina (ccv3 with a lorebook) and Coding Sensei (chara only, CRLF), and exports them again', async () => {
    const { service } = testService();
    await service.open({});
    const imported = async (fileName: string, data: string | Uint8Array) => {
      const result = await service.personaImport({ fileName, data });
      if (!result.ok) throw new Error(JSON.stringify(result.problems));
      return result.item;
    };
    expect((await imported('default_Seraphina.png', file('default_Seraphina.png'))).name).toBe('Seraphina');
    expect((await imported('default_CodingSensei.png', file('default_CodingSensei.png'))).name).toBe('Coding Sensei');
    expect(
      (
        await imported(
          'tavern_kit_full_v3_card.json',
          readFileSync(path.join(cards, 'tavern_kit_full_v3_card.json'), 'utf8'),
        )
      ).name,
    ).toBe('Nova');
    const exported = await service.personaExport({ name: 'Seraphina', format: 'card-png' });
    const card =
      exported.ok && exported.data instanceof Uint8Array ? readCharacterCard({ bytes: exported.data }) : undefined;
    expect(card?.ok && card.value.extras).toHaveProperty('character_book');
  });
});

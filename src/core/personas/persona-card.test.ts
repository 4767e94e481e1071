import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentApi } from '#core/api.ts';
import { testService } from '#core/testing/test-database.ts';
import { V2_CARD, V3_CARD, v2CardPng, HTML_CARD } from './__fixtures__/character-cards.ts';
import { readCharacterCard, writeCharacterCardPng } from './character-card.ts';
import { readPngText } from './png-text.ts';

async function fresh(): Promise<AgentApi> {
  const { service } = testService();
  await service.open({});
  return service;
}

async function imported(service: AgentApi, fileName: string, data: string | Uint8Array, asName?: string) {
  const result = await service.personaImport({ fileName, data, ...(asName ? { asName } : {}) });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.item;
}

describe('character cards in the persona catalog', () => {
  it('previews a V2 card JSON as parts, keeping greetings, lorebook and extensions, then imports it', async () => {
    const service = await fresh();
    const check = await service.personaImportCheck({ fileName: 'bram.json', data: JSON.stringify(V2_CARD) });
    if (!check.ok) throw new Error(JSON.stringify(check.problems));
    expect(check.preview).toMatchObject({
      format: 'card-v2',
      persona: { name: 'Bram', description: 'Works best with slow-burn stories.', tags: ['fantasy', 'slice of life'] },
      hasImage: false,
    });
    expect(check.preview.items.map((item) => [item.name, item.type, item.state])).toEqual([
      ['Bram: description', 'identity', 'new'],
      ['Bram: personality', 'soul', 'new'],
      ['Bram: scenario', 'context', 'new'],
      ['Bram: system prompt', 'system', 'new'],
      ['Bram: post-history instructions', 'protocol', 'new'],
      ['Bram: example messages', 'voice', 'new'],
    ]);
    expect(check.preview.kept).toEqual(
      expect.arrayContaining([
        'alternate_greetings',
        'character_book',
        'first_mes',
        'extensions.depth_prompt',
        'extensions.talkativeness',
      ]),
    );
    expect(await imported(service, 'bram.json', JSON.stringify(V2_CARD))).toMatchObject({ name: 'Bram', parts: 6 });
    const prompt = await service.personaGet({ name: 'Bram' });
    expect(prompt.ok && prompt.assembled.text).toContain(
      '## Identity\n{{char}} keeps the lighthouse on the northern cape.',
    );
  });

  it('exports a card back with its kept fields and Anima data under extensions.anima, and reads that back whole', async () => {
    const service = await fresh();
    await imported(service, 'bram.json', JSON.stringify(V2_CARD));
    await service.traitCreate({ fields: { name: 'gruff', type: 'social', description: 'Few words.' } });
    await service.personaLink({ persona: 'Bram', kind: 'trait', name: 'gruff' });
    const exported = await service.personaExport({ name: 'Bram', format: 'card-json' });
    if (!exported.ok || typeof exported.data !== 'string') throw new Error('no card');
    expect(exported.fileName).toBe('bram.card.json');
    const card = JSON.parse(exported.data);
    expect(card).toMatchObject({
      spec: 'chara_card_v3',
      data: {
        name: 'Bram',
        description: '{{char}} keeps the lighthouse on the northern cape.',
        personality: 'gruff, loyal',
        first_mes: 'Shut the door, the wind bites.',
        alternate_greetings: ['The lamp flickers.', 'Another ship tonight?'],
        character_book: { name: 'Northern cape' },
        extensions: { talkativeness: '0.5', anima: { format: 'anima-persona', traits: [{ name: 'gruff' }] } },
      },
    });
    // Into another catalog: the embedded bundle brings the trait too; exporting again gives the same bytes.
    const other = await fresh();
    expect(await imported(other, 'bram.card.json', exported.data)).toMatchObject({ name: 'Bram', parts: 6, traits: 1 });
    const again = await other.personaExport({ name: 'Bram', format: 'card-json' });
    expect(again.ok && again.data).toBe(exported.data);
  });

  it('imports a PNG card with its image, and exports a PNG card on the same image with ccv3 and chara chunks', async () => {
    const service = await fresh();
    const png = v2CardPng();
    const check = await service.personaImportCheck({ fileName: 'bram.png', data: png });
    expect(check).toMatchObject({ ok: true, preview: { format: 'card-v2', hasImage: true } });
    await imported(service, 'bram.png', png);
    const exported = await service.personaExport({ name: 'Bram', format: 'card-png' });
    if (!exported.ok || !(exported.data instanceof Uint8Array)) throw new Error('no png');
    expect(exported).toMatchObject({ fileName: 'bram.card.png', mediaType: 'image/png' });
    const chunks = readPngText(exported.data);
    expect(chunks.ok && chunks.value.map((chunk) => chunk.keyword).sort()).toEqual(['ccv3', 'chara']);
    const card = readCharacterCard({ bytes: exported.data });
    expect(card.ok && card.value).toMatchObject({ spec: 'v3', name: 'Bram', personality: 'gruff, loyal' });
  });

  it('imports a card under another name, its parts named after it', async () => {
    const service = await fresh();
    await imported(service, 'cleo.json', JSON.stringify(V3_CARD));
    expect(await service.personaImport({ fileName: 'cleo.json', data: JSON.stringify(V3_CARD) })).toMatchObject({
      ok: false,
      reason: 'name-taken',
    });
    expect(await imported(service, 'cleo.json', JSON.stringify(V3_CARD), 'Cleo II')).toMatchObject({ name: 'Cleo II' });
    expect((await service.partList({ text: 'Cleo II:' })).items.length).toBeGreaterThan(0);
  });

  it('keeps markup in a card as plain text', async () => {
    const service = await fresh();
    await imported(service, 'html.json', JSON.stringify(HTML_CARD));
    const prompt = await service.personaGet({ name: HTML_CARD.data.name });
    expect(prompt.ok && prompt.assembled.text).toContain('# <b>Mallory</b>');
    expect(prompt.ok && prompt.assembled.text).toContain(
      '<script>alert("card")</script><img src=x onerror="alert(1)">',
    );
  });

  it('refuses what is not a card, and a card without a name, saying where', async () => {
    const service = await fresh();
    expect(await service.personaImportCheck({ fileName: 'x.json', data: '{"hello": 1}' })).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(await service.personaImportCheck({ fileName: 'x.png', data: Uint8Array.of(1, 2, 3) })).toMatchObject({
      ok: false,
      problems: [{ message: 'neither a PNG image nor a JSON character card' }],
    });
    expect(
      await service.personaImportCheck({
        fileName: 'x.json',
        data: JSON.stringify({ spec: 'chara_card_v2', data: { description: 'no name' } }),
      }),
    ).toMatchObject({ ok: false, problems: [{ path: 'data.name' }] });
  });

  it("imports a real V3 card RisuAI wrote, as JSON and inside libpng's test image, and exports it with its lorebook", async () => {
    const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/public/${name}`, import.meta.url));
    const text = fixture('risuai-ccardlib-nieun.ccv3.json').toString('utf8');
    const service = await fresh();
    const check = await service.personaImportCheck({ fileName: 'nieun.json', data: text });
    if (!check.ok) throw new Error(JSON.stringify(check.problems));
    expect(check.preview).toMatchObject({
      format: 'card-v3',
      persona: { name: 'Nieun', tags: ['Temerosa'] },
      hasImage: false,
    });
    expect(check.preview.kept).toEqual(expect.arrayContaining(['character_book', 'assets', 'extensions.risuai']));
    expect(await imported(service, 'nieun.json', text)).toMatchObject({ name: 'Nieun' });
    const card = readCharacterCard({ text });
    if (!card.ok) throw new Error('unreadable');
    const png = writeCharacterCardPng(card.value, new Uint8Array(fixture('libpng-pngtest.png')));
    expect(await imported(service, 'nieun.png', png, 'Nieun in PNG')).toMatchObject({ name: 'Nieun in PNG' });
    const exported = await service.personaExport({ name: 'Nieun in PNG', format: 'card-png' });
    const again =
      exported.ok && exported.data instanceof Uint8Array ? readCharacterCard({ bytes: exported.data }) : undefined;
    expect(again?.ok && again.value.extras.character_book).toEqual(card.value.extras.character_book);
    expect(again?.ok && again.value.extensions.risuai).toEqual(card.value.extensions.risuai);
  });
});

describe('cards with flaws other applications let through', () => {
  it('imports a card with blank and long tags, a multi-line or very long name, and long fields, tidied', async () => {
    const service = await fresh();
    const longName = `Sir ${'Reginald '.repeat(20)}the Third`;
    const card = {
      spec: 'chara_card_v2',
      spec_version: '2.0',
      data: {
        ...V2_CARD.data,
        name: `  ${longName}\nof Somewhere  `,
        tags: ['', '  ', 'fantasy', 'fantasy', 'x'.repeat(80)],
        description: 'd'.repeat(80_000),
      },
    };
    const check = await service.personaImportCheck({ fileName: 'sir.json', data: JSON.stringify(card) });
    if (!check.ok) throw new Error(JSON.stringify(check.problems));
    const { persona } = check.preview;
    expect(persona.name.length).toBeLessThanOrEqual(120);
    expect(persona.name).toMatch(/^Sir Reginald /);
    expect(persona.name).not.toMatch(/\n/);
    expect(persona.tags).toEqual(['fantasy', 'x'.repeat(60)]);
    expect(new Set(check.preview.items.map((item) => item.name)).size).toBe(check.preview.items.length);
    const imported = await service.personaImport({ fileName: 'sir.json', data: JSON.stringify(card) });
    expect(imported).toMatchObject({ ok: true, item: { name: persona.name } });
    // The persona can be used by its name: shown, exported.
    expect(await service.personaGet({ name: persona.name })).toMatchObject({ ok: true });
  });

  it('gives a card carrying an Anima bundle a catalog name too', async () => {
    const service = await fresh();
    await imported(service, 'bram.json', JSON.stringify(V2_CARD));
    const exported = await service.personaExport({ name: 'Bram', format: 'card-json' });
    if (!exported.ok || typeof exported.data !== 'string') throw new Error('no card');
    const card = JSON.parse(exported.data);
    card.data.name = '  Evil\nName  ';
    const other = await fresh();
    expect(await imported(other, 'evil.json', JSON.stringify(card))).toMatchObject({ name: 'Evil Name' });
    expect(await other.personaDelete({ name: 'Evil Name' })).toEqual({ ok: true });
  });
});

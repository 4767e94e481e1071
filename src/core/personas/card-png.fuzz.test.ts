import { expect, test } from 'vitest';
import { describeProblem } from '#core/result.ts';
import { below, fuzzCaseCount, mutateBytes, pick, runFuzzKind, type Random } from '#core/testing/fuzz.ts';
import { CARD_DOCUMENTS, CARD_KEYS, jsonCaseText, refusalText } from '#core/testing/json-fuzz.ts';
import { testService } from '#core/testing/test-database.ts';
import { readCharacterCard, writeCharacterCardJson, writeCharacterCardPng } from './character-card.ts';
import { placeholderPng, writePngText } from './png-text.ts';

const CASES = fuzzCaseCount();
/** Imports into the database are slower than reading: every 20th case goes through the service as well. */
const DATABASE_EVERY = 20;

/** Base64 of bytes, as card writers store a card in a chunk. */
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** Valid card PNGs: each card written by Anima (ccv3 and chara chunks). */
const CARD_PNGS = CARD_DOCUMENTS.map((document) => {
  const card = readCharacterCard({ text: JSON.stringify(document) });
  if (!card.ok) throw new Error('a base card is invalid');
  return writeCharacterCardPng(card.value);
});

/**
 * A PNG case: a sound PNG whose card chunk holds a broken card (base64 of broken JSON, of bytes
 * that are not UTF-8, or not base64 at all), a valid card PNG with its bytes damaged, or noise.
 */
function pngCase(random: Random): Uint8Array {
  const roll = random();
  if (roll < 0.6) {
    const json = new TextEncoder().encode(jsonCaseText(random, CARD_DOCUMENTS, CARD_KEYS));
    const payload = pick(random, ['base64', 'base64', 'base64', 'not-utf8', 'not-base64']);
    const text =
      payload === 'base64'
        ? base64(json)
        : payload === 'not-utf8'
          ? base64(Uint8Array.from([...json.subarray(0, 20), 0xff, 0xfe, ...json.subarray(20)]))
          : `%%${base64(json).slice(3)}`;
    const keywords = pick(random, [['ccv3'], ['chara'], ['ccv3', 'chara'], ['chara', 'ccv3']]);
    const written = writePngText(
      pick(random, [placeholderPng('fuzz'), pick(random, CARD_PNGS)]),
      keywords.map((keyword) => ({ keyword, text })),
    );
    if (!written.ok) throw new Error('the generator wrote an unsound PNG');
    return written.value;
  }
  if (roll < 0.95) {
    let bytes = pick(random, CARD_PNGS);
    for (let count = 1 + below(random, 3); count > 0; count--) bytes = mutateBytes(random, bytes);
    return bytes;
  }
  return Uint8Array.from({ length: below(random, 300) }, (_, index) =>
    index < 8 && random() < 0.8 ? [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a][index]! : below(random, 256),
  );
}

// About 2 s per 1,000 cases here (a fifth of it the imports); the timeout leaves room for 10,000 on a loaded machine.
test(
  `card PNG reading survives ${CASES} random and broken images, and a refused import writes nothing`,
  { timeout: 300_000 },
  async () => {
    const { service } = testService();
    const report = await runFuzzKind({
      kind: 'card PNG',
      seed: 0xca4d_0002,
      generate: (random, index) => ({ bytes: pngCase(random), index }),
      describe: ({ bytes }) => `${bytes.length} bytes: ${Buffer.from(bytes.subarray(0, 300)).toString('base64')}`,
      read: async ({ bytes, index }) => {
        const card = readCharacterCard({ bytes });
        if (index % DATABASE_EVERY === 0) {
          const before = await service.personaList({});
          const imported = await service.personaImport({ fileName: 'card.png', data: bytes });
          if (!imported.ok && JSON.stringify(await service.personaList({})) !== JSON.stringify(before))
            throw new Error('a refused import changed the catalog');
          if (imported.ok !== card.ok && !(card.ok && !imported.ok && imported.reason === 'name-taken'))
            throw new Error(`the service and the reader disagree: ${JSON.stringify(imported).slice(0, 300)}`);
        }
        return card.ok ? {} : { refused: refusalText(card.error) };
      },
      checkAccepted: ({ bytes }) => {
        const card = readCharacterCard({ bytes });
        if (!card.ok) return 'read differently the second time';
        const again = readCharacterCard({ bytes: writeCharacterCardPng(card.value) });
        if (!again.ok) return `its export is refused: ${again.error.map(describeProblem).join('; ')}`;
        return writeCharacterCardJson(again.value) === writeCharacterCardJson(card.value)
          ? undefined
          : 'its export does not read back the same';
      },
    });
    expect(report.failures).toEqual([]);
    expect(report.accepted).toBeGreaterThan(CASES / 20);
    expect(report.refused).toBeGreaterThan(CASES / 5);
  },
);

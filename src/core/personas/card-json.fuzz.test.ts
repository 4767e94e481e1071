import { expect, test } from 'vitest';
import { describeProblem } from '#core/result.ts';
import { fuzzCaseCount, runFuzzKind } from '#core/testing/fuzz.ts';
import { CARD_DOCUMENTS, CARD_KEYS, jsonCaseText, refusalText } from '#core/testing/json-fuzz.ts';
import { testService } from '#core/testing/test-database.ts';
import { readCharacterCard, writeCharacterCardJson } from './character-card.ts';

const CASES = fuzzCaseCount();
/** Imports into the database are slower than reading: every 20th case goes through the service as well. */
const DATABASE_EVERY = 20;

// About 1 s per 1,000 cases here (a fifth of it the imports); the timeout leaves room for 10,000 on a loaded machine.
test(
  `card JSON reading survives ${CASES} random and broken cards, and a refused import writes nothing`,
  { timeout: 180_000 },
  async () => {
    const { service } = testService();
    const report = await runFuzzKind({
      kind: 'card JSON',
      seed: 0xca4d_0001,
      generate: (random, index) => ({ text: jsonCaseText(random, CARD_DOCUMENTS, CARD_KEYS), index }),
      describe: ({ text }) => JSON.stringify(text),
      read: async ({ text, index }) => {
        const card = readCharacterCard({ text });
        if (index % DATABASE_EVERY === 0) {
          const before = await service.personaList({});
          const imported = await service.personaImport({ fileName: 'card.json', data: text });
          if (!imported.ok && JSON.stringify(await service.personaList({})) !== JSON.stringify(before))
            throw new Error('a refused import changed the catalog');
          if (imported.ok !== card.ok && !(card.ok && !imported.ok && imported.reason === 'name-taken'))
            throw new Error(`the service and the reader disagree: ${JSON.stringify(imported).slice(0, 300)}`);
        }
        return card.ok ? {} : { refused: refusalText(card.error) };
      },
      checkAccepted: ({ text }) => {
        const card = readCharacterCard({ text });
        if (!card.ok) return 'read differently the second time';
        const written = writeCharacterCardJson(card.value);
        const again = readCharacterCard({ text: written });
        if (!again.ok) return `its export is refused: ${again.error.map(describeProblem).join('; ')}`;
        return writeCharacterCardJson(again.value) === written ? undefined : 'its export does not read back the same';
      },
    });
    expect(report.failures).toEqual([]);
    expect(report.accepted).toBeGreaterThan(CASES / 20);
    expect(report.refused).toBeGreaterThan(CASES / 5);
  },
);

import { isDeepStrictEqual } from 'node:util';
import { expect, test } from 'vitest';
import { describeProblem } from '#core/result.ts';
import { readJson } from '#core/safe-json.ts';
import { fuzzCaseCount, runFuzzKind } from '#core/testing/fuzz.ts';
import { jsonCaseText, refusalText } from '#core/testing/json-fuzz.ts';
import { buildMentorCatalog } from '#core/testing/mentor-catalog.ts';
import { testService } from '#core/testing/test-database.ts';
import { MAX_IMPORT_BYTES } from '#core/api/persona-contract.ts';
import { bundleText, readBundle } from './persona-bundle.ts';

const CASES = fuzzCaseCount();
/** Imports into the database are slower than reading: every 20th case goes through the service as well. */
const DATABASE_EVERY = 20;
const BUNDLE_KEYS = [
  'format',
  'version',
  'persona',
  'parts',
  'links',
  'traits',
  'skills',
  'guardrails',
  'arc',
  'name',
  'part',
  'stages',
  'currentStage',
];

/** A bundle file as the import reads it: JSON, then the bundle's rules. */
function readBundleText(text: string) {
  const json = readJson(text, { maxBytes: MAX_IMPORT_BYTES });
  return json.ok ? readBundle(json.value) : json;
}

// About 1.5 s per 1,000 cases here (most of it the imports); the timeout leaves room for 10,000 on a loaded machine.
test(
  `persona bundle reading survives ${CASES} random and broken bundles, and a refused import writes nothing`,
  { timeout: 300_000 },
  async () => {
    const source = testService();
    await buildMentorCatalog(source.service);
    const exported = await source.service.personaExport({ name: 'Mentor', format: 'bundle' });
    if (!exported.ok || typeof exported.data !== 'string') throw new Error('the mentor was not exported');
    const documents = [
      JSON.parse(exported.data),
      {
        format: 'anima-persona',
        version: 1,
        persona: { name: 'Bare', description: '', summary: '', detail: '', tags: [] },
        parts: [],
        links: [],
        traits: [],
        skills: [],
        guardrails: [],
      },
    ];
    const { service } = testService();

    const report = await runFuzzKind({
      kind: 'persona bundle',
      seed: 0xb0_0d1e,
      generate: (random, index) => ({ text: jsonCaseText(random, documents, BUNDLE_KEYS), index }),
      describe: ({ text }) => JSON.stringify(text),
      read: async ({ text, index }) => {
        const bundle = readBundleText(text);
        if (index % DATABASE_EVERY === 0) {
          const before = await service.personaList({});
          const imported = await service.personaImport({ fileName: 'fuzz.persona.json', data: text });
          if (!imported.ok && JSON.stringify(await service.personaList({})) !== JSON.stringify(before))
            throw new Error('a refused import changed the catalog');
          if (imported.ok) {
            // What was imported exports as the same bundle (items the catalog already had are reused, so only the persona is compared whole).
            const back = await service.personaExport({ name: imported.item.name, format: 'bundle' });
            const read = back.ok && typeof back.data === 'string' ? readBundleText(back.data) : undefined;
            if (!read?.ok || !bundle.ok || !isDeepStrictEqual(read.value.persona, bundle.value.persona))
              throw new Error('an imported bundle does not export the same persona');
          }
        }
        return bundle.ok ? {} : { refused: refusalText(bundle.error) };
      },
      checkAccepted: ({ text }) => {
        const bundle = readBundleText(text);
        if (!bundle.ok) return 'read differently the second time';
        const again = readBundleText(bundleText(bundle.value));
        if (!again.ok) return `its text is refused: ${again.error.map(describeProblem).join('; ')}`;
        return isDeepStrictEqual(again.value, bundle.value) ? undefined : 'its text does not read back the same';
      },
    });
    expect(report.failures).toEqual([]);
    expect(report.accepted).toBeGreaterThan(CASES / 20);
    expect(report.refused).toBeGreaterThan(CASES / 5);
  },
);

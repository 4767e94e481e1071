import { expect, test } from 'vitest';
import { below, fuzzCaseCount, pick, runFuzzKind, type Random } from '#core/testing/fuzz.ts';
import { graphFileFuzzKind, randomPieces } from '#core/testing/graph-file-fuzz.ts';

const VALID_FILES = [
  'subject,predicate,object,confidence\nDog,is-a,Mammal\nCat,is-a,Mammal,0.9\n"Golden, Retriever",is-a,Dog\n',
  '# a comment\n"The ""Red"" Planet",has-note,"line one\nline two"\r\nMars,is-a,Planet,1.0\n\nVenus , is-a , Planet , 0.25 \n',
  'Zoé,likes,導物,0\n😀,is-a,emoji\nhttp://e.org/x,links,urn:anima:kg#y\n',
];

const PIECES = [
  ',',
  '"',
  '""',
  '\n',
  '\r\n',
  '#',
  ' ',
  'Dog',
  'is-a',
  'Mammal',
  '0.5',
  '1',
  '0x1',
  '1e-1',
  'Infinity',
  '-0',
  '.5',
  '1_0',
  'é',
  '導',
];

const field = (random: Random) => {
  const text = pick(random, [
    'Dog',
    'is-a',
    'Mammal',
    'Zoé',
    'two words',
    'a,b',
    'say "hi"',
    'line\nbreak',
    '導物',
    '😀',
    '',
  ]);
  return /[",\n]/.test(text) || random() < 0.2 ? `"${text.replaceAll('"', '""')}"` : text;
};
const confidence = (random: Random) =>
  pick(random, [
    '0',
    '1',
    '0.5',
    '1.0',
    '0.125',
    ' 0.3 ',
    '0x1',
    '1e-1',
    'Infinity',
    'NaN',
    '-0',
    '.5',
    '2',
    '0b1',
    '1_0',
    '+1',
    '',
  ]);

/** Random records, mostly well-formed, with confidences good and bad. */
function randomFile(random: Random): string {
  const header = random() < 0.3 ? ['subject,predicate,object,confidence'] : [];
  const records = Array.from({ length: below(random, 10) }, () => {
    if (random() < 0.1) return randomPieces(random, PIECES, 40);
    const fields = [field(random), field(random), field(random)];
    if (random() < 0.5) fields.push(confidence(random));
    return fields.join(',');
  });
  return [...header, ...records].join(pick(random, ['\n', '\r\n']));
}

const CASES = fuzzCaseCount();

// About 2 s per 1,000 cases here, database imports included; the timeout leaves room for 10,000 on a loaded machine.
test(`CSV reading survives ${CASES} random and broken files`, { timeout: 300_000 }, async () => {
  const kind = graphFileFuzzKind({
    kind: 'CSV',
    format: 'csv',
    seed: 0xc5f_0000,
    validFiles: VALID_FILES,
    alphabet: PIECES,
    randomFile,
  });
  const report = await runFuzzKind(kind);
  expect(report.failures).toEqual([]);
  expect(report.accepted).toBeGreaterThan(CASES / 10);
  expect(report.refused).toBeGreaterThan(CASES / 10);
  expect(kind.storedCases()).toBeGreaterThan(CASES / 50);
});

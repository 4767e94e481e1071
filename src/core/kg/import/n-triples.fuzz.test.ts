import { expect, test } from 'vitest';
import { below, fuzzCaseCount, pick, runFuzzKind, type Random } from '#core/testing/fuzz.ts';
import { graphFileFuzzKind, randomPieces } from '#core/testing/graph-file-fuzz.ts';

const VALID_FILES = [
  [
    '<http://example.org/Dog> <http://example.org/is-a> <http://example.org/Mammal> .',
    '<http://example.org/Dog> <http://www.w3.org/2000/01/rdf-schema#label> "chien"@fr .',
    '<http://example.org/Mars> <http://example.org/moons> "2"^^<http://www.w3.org/2001/XMLSchema#integer> .',
    '_:b1 <http://example.org/says> "a \\"quoted\\" line\\nbreak \\u00e9 \\U0001F600" .',
    '# a comment',
    '<urn:anima:kg#Cat> <urn:anima:kg#is-a> <urn:anima:kg#Mammal> .',
    '',
  ].join('\n'),
  '<http://e.org/a> <http://e.org/b> <http://e.org/c> .\r\n<http://e.org/a> <http://e.org/b> "d" .\r\n',
  '<http://e.org/%C3%A9> <http://e.org/b> "導\\t😀" . # trailing comment\n',
];

const PIECES = [
  '<http://e.org/',
  '<urn:anima:kg#',
  '>',
  ' ',
  '"',
  '\\"',
  '\\u00E9',
  '\\U0001F600',
  '\\n',
  '@en',
  '^^',
  '_:b',
  ' .',
  '\n',
  '#',
  'x',
  'Dog',
  '1',
  '<',
  '.',
];

const iri = (random: Random) =>
  `<${pick(random, ['http://e.org/', 'urn:anima:kg#', 'https://x.test/a/', 'mailto:'])}${pick(random, ['Dog', 'Cat', 'is-a', 'é', '%20', 'a\\u0020b', ''])}${below(random, 5)}>`;
const literal = (random: Random) =>
  `"${pick(random, ['x', '', 'two words', '\\"q\\"', 'é導😀', '\\n', '\\\\'])}"${pick(random, ['', '', '@en', '@fr-BE', '^^<http://www.w3.org/2001/XMLSchema#integer>', '^^<http://e.org/type>'])}`;
const term = (random: Random, role: 'subject' | 'predicate' | 'object') =>
  role === 'predicate'
    ? iri(random)
    : pick(random, [iri, iri, (r: Random) => `_:b${below(r, 5)}`, ...(role === 'object' ? [literal, literal] : [])])(
        random,
      );

/** Random statements, mostly valid, sometimes with junk between. */
function randomFile(random: Random): string {
  return Array.from({ length: below(random, 12) }, () =>
    random() < 0.85
      ? `${term(random, 'subject')} ${term(random, 'predicate')} ${term(random, 'object')} .`
      : randomPieces(random, PIECES, 80),
  ).join(pick(random, ['\n', '\r\n', '\n\n']));
}

const CASES = fuzzCaseCount();

// About 2 s per 1,000 cases here, database imports included; the timeout leaves room for 10,000 on a loaded machine.
test(`N-Triples reading survives ${CASES} random and broken files`, { timeout: 300_000 }, async () => {
  const kind = graphFileFuzzKind({
    kind: 'N-Triples',
    format: 'n-triples',
    seed: 0x17_0000,
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

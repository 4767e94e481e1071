import { expect, test } from 'vitest';
import { below, fuzzCaseCount, pick, runFuzzKind, type Random } from '#core/testing/fuzz.ts';
import { graphFileFuzzKind, randomPieces } from '#core/testing/graph-file-fuzz.ts';

const VALID_FILES = [
  [
    '@prefix : <http://example.org/zoo#> .',
    '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
    '@base <http://example.org/base/> .',
    ':GoldenRetriever :is-a :Dog ; rdfs:label "golden retriever"@en , "Golden"@de .',
    ':Dog :is-a :Canine .',
    '<relative> a :Thing ; :count 3 ; :weight 2.5 ; :ok true .',
    '[ :name "anonymous" ] :knows _:someone .',
    ':list :items ( :a :b "c" ) .',
    ':text :says """two',
    'lines""" .',
    '# a comment',
    '',
  ].join('\n'),
  'PREFIX ex: <urn:anima:kg#>\nex:Cat ex:is-a ex:Mammal .\r\nex:Cat ex:note \'single "quotes"\' .\n',
  '<http://e.org/a> <http://e.org/b> "é導😀\\u00e9"^^<http://www.w3.org/2001/XMLSchema#string> .\n',
];

const PIECES = [
  '@prefix',
  'PREFIX',
  ' : ',
  ':a',
  ':b',
  'ex:',
  '<http://e.org/',
  '>',
  ' ',
  '"',
  '"""',
  "'",
  ';',
  ',',
  ' .',
  '[',
  ']',
  '(',
  ')',
  'a',
  '_:b',
  '@en',
  '^^',
  '\n',
  '#',
  '1',
  '2.5',
  'true',
  '\\u00E9',
];

const name = (random: Random) =>
  pick(random, [':Dog', ':is-a', 'ex:Cat', '<http://e.org/x>', '<rel>', 'a', ':é', `:n${below(random, 5)}`]);
const object = (random: Random) =>
  pick(random, [
    name(random),
    `"${pick(random, ['x', 'two words', 'é導😀', '\\"q\\"'])}"${pick(random, ['', '@en', '^^<http://e.org/t>'])}`,
    String(below(random, 100)),
    '2.5',
    'true',
    `_:b${below(random, 3)}`,
    '[ :p :o ]',
    '( :a :b )',
  ]);

/** Random statements under two prefixes, mostly valid, sometimes with junk between. */
function randomFile(random: Random): string {
  const statements = Array.from({ length: below(random, 10) }, () => {
    if (random() < 0.15) return randomPieces(random, PIECES, 60);
    const predicate = () => (name(random) === 'a' ? 'a' : pick(random, [':is-a', 'ex:note', '<http://e.org/p>', 'a']));
    return `${pick(random, [':Dog', 'ex:Cat', '<http://e.org/s>', `_:b${below(random, 3)}`, '[ :p :o ]'])} ${predicate()} ${object(random)}${random() < 0.3 ? ` ; ${predicate()} ${object(random)}` : ''}${random() < 0.2 ? ` , ${object(random)}` : ''} .`;
  });
  return ['@prefix : <http://example.org/> .', 'PREFIX ex: <urn:anima:kg#>', ...statements].join(
    pick(random, ['\n', '\r\n', '\n\n']),
  );
}

const CASES = fuzzCaseCount();

// About 2 s per 1,000 cases here, database imports included; the timeout leaves room for 10,000 on a loaded machine.
test(`Turtle reading survives ${CASES} random and broken files`, { timeout: 300_000 }, async () => {
  const kind = graphFileFuzzKind({
    kind: 'Turtle',
    format: 'turtle',
    seed: 0x771e_0000,
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

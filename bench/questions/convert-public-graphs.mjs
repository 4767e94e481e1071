/**
 * Converts two real public data sets that Debian ships into the small graphs the question
 * evaluation reads (tests/fixtures/public/, see its README for sources and licences):
 *
 * - countries.ttl: every country of ISO 3166-1 (iso-codes: names), the currencies each uses now
 *   and the languages official in it (Unicode CLDR's supplementalData.xml), with the ISO 4217 and
 *   ISO 639 names of those currencies and languages. Countries are `rdf:type` Country.
 * - wordnet-vertebrates.ttl: the mammal and bird subtrees of WordNet 3.0's nouns, as
 *   rdfs:subClassOf up to animal, each synset named by its words (rdfs:label).
 *
 * Run after `apt-get install iso-codes unicode-cldr-core wordnet-base`:
 *   node bench/questions/convert-public-graphs.mjs
 */
import { readFileSync, writeFileSync } from 'node:fs';

const ISO = '/usr/share/iso-codes/json';
const CLDR = '/usr/share/unicode/cldr/common/supplemental/supplementalData.xml';
const WORDNET = '/usr/share/wordnet/data.noun';
const OUT = 'tests/fixtures/public';

const literal = (text) => JSON.stringify(text);

function countries() {
  const countryList = JSON.parse(readFileSync(`${ISO}/iso_3166-1.json`, 'utf8'))['3166-1'];
  const currencies = new Map(
    JSON.parse(readFileSync(`${ISO}/iso_4217.json`, 'utf8'))['4217'].map((entry) => [entry.alpha_3, entry.name]),
  );
  const languages639 = JSON.parse(readFileSync(`${ISO}/iso_639-3.json`, 'utf8'))['639-3'];
  const languageName = new Map();
  for (const entry of languages639) {
    languageName.set(entry.alpha_3, entry.name);
    if (entry.alpha_2) languageName.set(entry.alpha_2, entry.name);
  }
  const xml = readFileSync(CLDR, 'utf8');
  // Current legal tender: a currency of the region with no end date and not marked tender="false".
  const usedCurrencies = new Map();
  for (const region of xml.matchAll(/<region iso3166="([A-Z]{2})">([\s\S]*?)<\/region>/g)) {
    const current = [...region[2].matchAll(/<currency ([^>]*)\/>/g)]
      .map((match) => match[1])
      .filter((attributes) => !/\bto="/.test(attributes) && !/tender="false"/.test(attributes));
    usedCurrencies.set(
      region[1],
      current.map((attributes) => /iso4217="([A-Z]{3})"/.exec(attributes)[1]),
    );
  }
  const officialLanguages = new Map();
  for (const territory of xml.matchAll(/<territory type="([A-Z]{2})"[^>]*>([\s\S]*?)<\/territory>/g)) {
    const official = [
      ...territory[2].matchAll(/<languagePopulation type="([a-z]{2,3})"[^>]*officialStatus="official"/g),
    ].map((match) => match[1]);
    officialLanguages.set(territory[1], official);
  }
  const lines = [
    '# Countries (ISO 3166-1, from Debian iso-codes 4.15.0), their current currencies and official',
    '# languages (Unicode CLDR 41 supplementalData.xml, from Debian unicode-cldr-core 41-0.1), named',
    '# as ISO 4217 and ISO 639-3 name them. Made by bench/questions/convert-public-graphs.mjs.',
    '@prefix : <urn:anima:kg#> .',
    '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
    '@prefix country: <urn:iso:3166-1#> .',
    '@prefix currency: <urn:iso:4217#> .',
    '@prefix language: <urn:iso:639-3#> .',
    '',
  ];
  const usedCurrencyCodes = new Set();
  const usedLanguageCodes = new Set();
  for (const country of countryList) {
    const code = country.alpha_2;
    const names = [...new Set([country.common_name, country.name].filter(Boolean))];
    const facts = [`a :Country`, `rdfs:label ${names.map(literal).join(', ')}`];
    const spent = (usedCurrencies.get(code) ?? []).filter((currency) => currencies.has(currency));
    if (spent.length > 0) facts.push(`:has-currency ${spent.map((currency) => `currency:${currency}`).join(', ')}`);
    for (const currency of spent) usedCurrencyCodes.add(currency);
    const official = (officialLanguages.get(code) ?? []).filter((language) => languageName.has(language));
    if (official.length > 0)
      facts.push(`:official-language ${official.map((language) => `language:${language}`).join(', ')}`);
    for (const language of official) usedLanguageCodes.add(language);
    lines.push(`country:${code} ${facts.join(' ;\n    ')} .`);
  }
  lines.push('');
  for (const currency of [...usedCurrencyCodes].sort())
    lines.push(`currency:${currency} a :Currency ; rdfs:label ${literal(currencies.get(currency))} .`);
  lines.push('');
  for (const language of [...usedLanguageCodes].sort())
    lines.push(`language:${language} a :Language ; rdfs:label ${literal(languageName.get(language))} .`);
  writeFileSync(`${OUT}/countries.ttl`, `${lines.join('\n')}\n`);
}

function wordnet() {
  const synsets = new Map();
  for (const line of readFileSync(WORDNET, 'utf8').split('\n')) {
    if (line.length === 0 || line.startsWith(' ')) continue;
    const fields = line.slice(0, line.indexOf(' | ') === -1 ? undefined : line.indexOf(' | ')).split(' ');
    const wordCount = Number.parseInt(fields[3], 16);
    const words = Array.from({ length: wordCount }, (_, index) =>
      fields[4 + 2 * index].replace(/\(.*\)$/, '').replaceAll('_', ' '),
    );
    let at = 4 + 2 * wordCount;
    const pointerCount = Number.parseInt(fields[at++], 10);
    const pointers = Array.from({ length: pointerCount }, () => {
      const pointer = { symbol: fields[at], offset: fields[at + 1], pos: fields[at + 2] };
      at += 4;
      return pointer;
    });
    synsets.set(fields[0], { words, pointers });
  }
  const below = (root) => {
    const found = new Set([root]);
    const queue = [root];
    while (queue.length > 0)
      for (const pointer of synsets.get(queue.shift()).pointers)
        if ((pointer.symbol === '~' || pointer.symbol === '~i') && pointer.pos === 'n' && !found.has(pointer.offset)) {
          found.add(pointer.offset);
          queue.push(pointer.offset);
        }
    return found;
  };
  const MAMMAL = '01861778';
  const BIRD = '01503061';
  const VERTEBRATE = '01471682';
  const kept = new Set([...below(MAMMAL), ...below(BIRD), VERTEBRATE, '01466257', '00015388']);
  const lines = [
    '# The mammal and bird subtrees of the WordNet 3.0 noun database (Debian wordnet-base 1:3.0-37),',
    '# up to animal: each synset by its offset, its words as rdfs:label, its hypernyms (and instance',
    '# hypernyms) as rdfs:subClassOf. Made by bench/questions/convert-public-graphs.mjs.',
    '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
    '@prefix wn: <urn:wordnet:3.0:noun#> .',
    '',
  ];
  for (const offset of [...kept].sort()) {
    const synset = synsets.get(offset);
    const parents = synset.pointers
      .filter((pointer) => (pointer.symbol === '@' || pointer.symbol === '@i') && kept.has(pointer.offset))
      .map((pointer) => `wn:${pointer.offset}`);
    const facts = [`rdfs:label ${[...new Set(synset.words)].map(literal).join(', ')}`];
    if (parents.length > 0) facts.push(`rdfs:subClassOf ${parents.join(', ')}`);
    lines.push(`wn:${offset} ${facts.join(' ; ')} .`);
  }
  writeFileSync(`${OUT}/wordnet-vertebrates.ttl`, `${lines.join('\n')}\n`);
}

countries();
wordnet();

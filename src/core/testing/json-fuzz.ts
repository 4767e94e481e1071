import { describeProblem, type Problem } from '#core/result.ts';
import { below, mutateText, ODD_CHARACTERS, pick, refusalProblem, type Random } from './fuzz.ts';

/**
 * Cases for the fuzz tests of JSON file kinds (snapshots, catalogs, bundles, cards): a valid
 * document changed where it counts (a key removed or given twice, a value of another type, one
 * nested too deep, a number too large), its text cut or spliced, or random JSON-ish text.
 */

const JSON_CHARACTERS = [...'{}[]:,"\\ \n0123456789.-+eEtruefalsnl', 'true', 'null', '\\u', '\\ud800', '1e400', '0x1F'];

/** A random JSON value of every kind a reader meets, nested at most `depth` more levels. */
export function randomJsonValue(random: Random, depth = 2): unknown {
  switch (below(random, depth > 0 ? 9 : 6)) {
    case 0:
      return pick(random, [
        '',
        'x',
        'Ada',
        '  ',
        '\u0000\u0001',
        '{{char}}',
        '<b>bold</b>',
        '😀',
        '\uFEFF',
        'a'.repeat(below(random, 3000)),
        pick(random, ODD_CHARACTERS),
      ]);
    case 1:
      return pick(random, [
        0,
        -1,
        1,
        0.5,
        -0.0,
        1e21,
        2 ** 53 + 2,
        1.7976931348623157e308,
        5e-324,
        255,
        256,
        1_700_000_000_000,
      ]);
    case 2:
      return below(random, 1000) - 100;
    case 3:
      return random() < 0.5;
    case 4:
      return null;
    case 5:
      return pick(random, [
        'chara_card_v2',
        'chara_card_v3',
        'anima-persona',
        'anima-catalog',
        'anima-snapshot',
        'tone',
        'narrative',
        'active',
        'entity',
      ]);
    case 6:
      return Array.from({ length: below(random, 4) }, () => randomJsonValue(random, depth - 1));
    case 7:
      // Object.fromEntries defines keys, so "__proto__" stays a plain key.
      return Object.fromEntries(
        Array.from({ length: below(random, 4) }, () => [
          pick(random, ['name', 'id', 'data', 'format', 'version', '__proto__', 'x', '']),
          randomJsonValue(random, depth - 1),
        ]),
      );
    default: {
      // Deeper than any reader allows, now and then.
      let value: unknown = 1;
      for (let level = below(random, 80); level > 0; level--) value = [value];
      return value;
    }
  }
}

/** A refusal's problems as the harness judges them: the first that is not a sentence (so it fails), else the first. */
export function refusalText(problems: readonly Problem[]): string {
  const described = problems.map(describeProblem);
  return described.find((text) => refusalProblem(text) !== undefined) ?? described[0] ?? '';
}

type Container = Record<string, unknown> | unknown[];

/** Sets an own key, even "__proto__" (an assignment would set the prototype instead). */
function setKey(container: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Up to `limit` containers of a value, with the keys (or indexes) in them, found without recursion. */
function containersOf(root: unknown, limit = 4000): Container[] {
  const found: Container[] = [];
  const pending: unknown[] = [root];
  while (pending.length > 0 && found.length < limit) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    found.push(next as Container);
    pending.push(...Object.values(next));
  }
  return found;
}

/** One change to a parsed document (a deep copy is changed): a key dropped, renamed or given a value of another kind; an item repeated or dropped. */
export function mutateJsonDocument(random: Random, document: unknown): unknown {
  const copy: unknown = structuredClone(document);
  const containers = containersOf(copy);
  if (containers.length === 0) return randomJsonValue(random);
  const container = pick(random, containers);
  const keys = Object.keys(container);
  if (Array.isArray(container)) {
    const index = below(random, container.length + 1);
    switch (below(random, 3)) {
      case 0:
        container.splice(index, 1);
        break;
      case 1:
        container.splice(index, 0, structuredClone(container[index] ?? randomJsonValue(random)));
        break;
      default:
        container[Math.min(index, Math.max(container.length - 1, 0))] = randomJsonValue(random);
    }
    return copy;
  }
  const key = keys.length > 0 ? pick(random, keys) : 'x';
  switch (below(random, 4)) {
    case 0:
      delete container[key];
      break;
    case 1:
      setKey(container, `${key}${pick(random, ['_', 'X', ' ', '2'])}`, container[key]);
      delete container[key];
      break;
    case 2:
      setKey(container, pick(random, ['extra', 'name', 'id', '__proto__', 'sha256']), randomJsonValue(random));
      break;
    default:
      setKey(container, key, randomJsonValue(random));
  }
  return copy;
}

/** A key given twice: `,"key":value` inserted before one of the text's closing braces, naming a key the object may have. */
export function withRepeatedKey(random: Random, text: string, keys: readonly string[]): string {
  const braces = [...text.matchAll(/\}/g)].map((match) => match.index);
  if (braces.length === 0) return text;
  const at = pick(random, braces);
  return `${text.slice(0, at)},${JSON.stringify(pick(random, keys))}:${JSON.stringify(randomJsonValue(random, 1))}${text.slice(at)}`;
}

/**
 * A case for a JSON file kind, from valid documents: changed structurally (and written compact or
 * indented), changed as text (cut, spliced, odd characters), a key repeated, or random text.
 */
export function jsonCaseText(random: Random, documents: readonly unknown[], keys: readonly string[]): string {
  const roll = random();
  const document = pick(random, documents);
  if (roll < 0.05) return Array.from({ length: below(random, 200) }, () => pick(random, JSON_CHARACTERS)).join('');
  if (roll < 0.5) {
    let changed = document;
    for (let count = 1 + below(random, 3); count > 0; count--) changed = mutateJsonDocument(random, changed);
    return JSON.stringify(changed, null, random() < 0.5 ? 2 : undefined) ?? 'null';
  }
  const text = JSON.stringify(document, null, random() < 0.5 ? 2 : undefined);
  if (roll < 0.6) return withRepeatedKey(random, text, keys);
  if (roll < 0.65) return `\uFEFF${text}`;
  let mutated = text;
  for (let count = 1 + below(random, 3); count > 0; count--) mutated = mutateText(random, mutated, JSON_CHARACTERS);
  return mutated;
}

/** Cards of each spec, with the fields Anima maps and some it only keeps. */
export const CARD_DOCUMENTS: readonly unknown[] = [
  {
    name: 'Ada',
    description: 'A mathematician.',
    personality: 'precise',
    scenario: 'a study',
    first_mes: 'Hello.',
    mes_example: '<START>',
    creator: 'x',
  },
  {
    spec: 'chara_card_v2',
    spec_version: '2.0',
    data: {
      name: 'Bram',
      description: 'A {{char}} of few words.',
      personality: 'calm',
      scenario: '',
      first_mes: 'Hm.',
      mes_example: '',
      creator_notes: 'notes',
      system_prompt: 'Be brief.',
      post_history_instructions: '',
      alternate_greetings: ['Hi', 'Yo'],
      character_book: { entries: [{ keys: ['sea'], content: 'The sea is grey.' }] },
      tags: ['quiet', 'sailor'],
      creator: 'someone',
      character_version: '1.2',
      extensions: { depth_prompt: { depth: 4, prompt: 'x' } },
    },
  },
  {
    spec: 'chara_card_v3',
    spec_version: '3.0',
    data: {
      name: 'Cleo',
      description: 'Line one\r\nline two',
      alternate_greetings: [],
      tags: [],
      extensions: {},
      group_only_greetings: ['Hello all'],
      nickname: 'C',
      assets: [{ type: 'icon', uri: 'ccdefault:', name: 'main', ext: 'png' }],
    },
  },
];
/** Keys a card has, to repeat. */
export const CARD_KEYS = [
  'name',
  'spec',
  'data',
  'description',
  'tags',
  'extensions',
  'alternate_greetings',
  'character_version',
];

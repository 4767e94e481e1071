import { isDeepStrictEqual } from 'node:util';
import { TomlDate } from 'smol-toml';
import { expect, test } from 'vitest';
import { describeProblem, type Problem } from '#core/result.ts';
import {
  below,
  fuzzCaseCount,
  mutateBytes,
  ODD_CHARACTERS,
  pick,
  runFuzzKind,
  seededRandom,
  type Random,
} from '#core/testing/fuzz.ts';
import { testService } from '#core/testing/test-database.ts';
import { decodeUtf8Text } from '#core/text-bytes.ts';
import { CAPABILITIES, DANGER_LEVELS } from '#core/records/capability.ts';
import {
  defaultPsyche,
  dominantArchetype,
  psycheSchema,
  type Psyche,
  type ShadowPattern,
} from '#core/records/psyche.ts';
import { parsePsycheToml } from './psyche-toml-read.ts';
import { psycheToToml } from './psyche-toml-write.ts';
import { shadowPolicyProblems } from './shadow.ts';

const PSYCHES = 2_000;
const SEED = 0x5eed_0000;

const TOML_CHARACTERS = [...'[]{}=".\'#,\n \\-_0123456789abcdefghijklmnopqrstuvwxyzABCZ+:eE'];

function randomText(random: Random): string {
  const length = below(random, 300);
  let text = '';
  for (let index = 0; index < length; index++) {
    const roll = random();
    text +=
      roll < 0.1
        ? pick(random, ODD_CHARACTERS)
        : roll < 0.6
          ? pick(random, TOML_CHARACTERS)
          : String.fromCharCode(32 + below(random, 95));
  }
  return text;
}

const HEADERS = [
  '[persona]',
  '[shadow]',
  '[[shadow.veto_patterns]]',
  '[[shadow.bias_patterns]]',
  '[archetypes]',
  '[self_integration]',
  '[grammar]',
  '[persona.voice]',
  '[other]',
  '[[list]]',
];
const KEYS = [
  'name',
  'grammar_preference',
  'traits',
  'tone',
  'triggers',
  'action_triggers',
  'capability_triggers',
  'danger_level_threshold',
  'severity',
  'explanation',
  'require_approval',
  'sage',
  'healer',
  'explorer',
  'guardian',
  'individuation_level',
  'last_evolution_cycle',
  'shadow_encounters',
  'encounters_at_last_evolution',
  'rebalance_count',
  'dominant_archetype',
  'source',
  'veto_patterns',
  'bias_patterns',
  'persona',
  'mood',
  '"quoted key"',
  'a.b',
];

function randomValue(random: Random, depth = 0): string {
  switch (below(random, depth > 2 ? 9 : 12)) {
    case 0:
      return String(below(random, 1000) - 100);
    case 1:
      return random().toFixed(below(random, 6));
    case 2:
      return pick(random, [
        'nan',
        'inf',
        '-inf',
        '-0.0',
        '1e400',
        '9007199254740993',
        '0x1F',
        '1_000',
        '2.',
        '1.0',
        '1',
        '0',
      ]);
    case 3:
      return JSON.stringify(randomText(random).slice(0, 20));
    case 4:
      return JSON.stringify(
        pick(random, [
          'Scholar',
          'narrative',
          'terse',
          'ProcessExec',
          'network',
          'Critical',
          'safe',
          'sage',
          'briefing',
          'path/to/x.toml',
          '',
        ]),
      );
    case 5:
      return pick(random, ['true', 'false']);
    case 6:
      return pick(random, ['1979-05-27', '1979-05-27T07:32:00Z', '07:32:00', '1979-05-27T07:32:00']);
    case 7:
      return `'${randomText(random)
        .replace(/['\n\r]/g, '')
        .slice(0, 20)}'`;
    case 8:
      return `"""\n${randomText(random).slice(0, 40)}"""`;
    case 9:
      return `[${Array.from({ length: below(random, 4) }, () => randomValue(random, depth + 1)).join(', ')}]`;
    case 10:
      return `{ ${Array.from({ length: below(random, 3) }, (_, index) => `k${index} = ${randomValue(random, depth + 1)}`).join(', ')} }`;
    default:
      return `["${pick(random, ['ReadKg', 'WriteFilesystem', 'UserInteraction', 'Teleport', 'llm', 'readFiles'])}"]`;
  }
}

function randomTomlLines(random: Random): string {
  return Array.from({ length: 1 + below(random, 30) }, () => {
    const roll = random();
    if (roll < 0.25) return pick(random, HEADERS);
    if (roll < 0.3) return pick(random, ['', '# comment', '   ']);
    return `${pick(random, KEYS)} = ${randomValue(random)}`;
  }).join('\n');
}

function featurePsyche(): Psyche {
  const psyche = defaultPsyche();
  return {
    ...psyche,
    persona: { ...psyche.persona, grammarPreference: 'briefing', traits: ['a "quote"', 'ünïcödé'] },
    grammar: { name: 'briefing', source: '[openers]\nfirst = "Briefly:"\nquotes = """x"""\n' },
    extras: {
      '': { version: 1 },
      persona: { mood: 'calm', voice: { pitch: 2.5 } },
      'shadow.veto_patterns.0': { tags: ['x'] },
    },
  };
}

const VALID_FILES = [
  psycheToToml(defaultPsyche()),
  psycheToToml(featurePsyche()),
  `[persona]\nname = "Scholar"\ngrammar_preference = "narrative"\ntraits = ["precise"]\ntone = ["clear"]\n\n[shadow]\n\n[[shadow.veto_patterns]]\nname = "destructive_action"\ncapability_triggers = ["ProcessExec"]\ndanger_level_threshold = "Critical"\naction_triggers = ["delete all", "rm -rf"]\nseverity = 1.0\nexplanation = "No."\n\n[[shadow.bias_patterns]]\nname = "filesystem_write"\ncapability_triggers = ["WriteFilesystem"]\naction_triggers = []\nseverity = 0.3\nexplanation = "Risky."\n\n[archetypes]\nhealer = 0.5\nsage = 0.7\nguardian = 0.4\nexplorer = 0.5\n\n[self_integration]\nindividuation_level = 0.1\nlast_evolution_cycle = 0\nshadow_encounters = 0\nrebalance_count = 0\ndominant_archetype = "sage"\n`,
  '[archetypes]\nhealer = 0.3\nsage = 0.4\nguardian = 0.3\nexplorer = 0.9\n',
];

/** Triggers with nothing visible once normalised, in TOML: each must be refused. */
const INVISIBLE_TRIGGERS = [
  '"\\u200b\\u200b"',
  '"   "',
  '"\\u3000\\t"',
  "'\\u200b'",
  '"\\ufeff\\u00ad"',
  '"\\U000E0041"',
  '""',
  '"\\u2060\\n"',
];

function mutate(random: Random, text: string): string {
  const lines = text.split('\n');
  const line = () => below(random, lines.length);
  switch (below(random, 9)) {
    case 8: {
      // A pattern's triggers become invisible ones, or a pattern loses everything it fires on.
      const index = lines.findIndex((content) =>
        /^(?:action_)?triggers = |^capability_triggers = |^danger_level_threshold = /.test(content),
      );
      if (index < 0) return text;
      lines[index] =
        random() < 0.7 ? `triggers = [${pick(random, INVISIBLE_TRIGGERS)}${random() < 0.3 ? ', "rm -rf"' : ''}]` : '';
      return lines.join('\n');
    }
    case 0:
      lines.splice(line(), 1);
      return lines.join('\n');
    case 1: {
      const index = line();
      lines.splice(index, 0, lines[index] ?? '');
      return lines.join('\n');
    }
    case 2: {
      const [first, second] = [line(), line()];
      [lines[first], lines[second]] = [lines[second] ?? '', lines[first] ?? ''];
      return lines.join('\n');
    }
    case 3: {
      const position = below(random, text.length + 1);
      return text.slice(0, position) + pick(random, [...TOML_CHARACTERS, ...ODD_CHARACTERS]) + text.slice(position + 1);
    }
    case 4: {
      // Another type of value under a key: a number where a string was, a table where a list was.
      const index = line();
      const content = lines[index] ?? '';
      const equals = content.indexOf(' = ');
      if (equals > 0) lines[index] = `${content.slice(0, equals)} = ${randomValue(random)}`;
      return lines.join('\n');
    }
    case 5: {
      const position = below(random, text.length + 1);
      return text.slice(0, position) + pick(random, ODD_CHARACTERS) + text.slice(position);
    }
    case 6:
      return text.slice(0, below(random, text.length + 1));
    default: {
      const index = line();
      lines.splice(index, 0, random() < 0.5 ? pick(random, HEADERS) : `${pick(random, KEYS)} = ${randomValue(random)}`);
      return lines.join('\n');
    }
  }
}

function caseText(random: Random): string {
  const roll = random();
  if (roll < 0.2) return randomText(random);
  if (roll < 0.45) return randomTomlLines(random);
  let text = pick(random, VALID_FILES);
  const mutations = 1 + below(random, 4);
  for (let count = 0; count < mutations; count++) text = mutate(random, text);
  return text;
}

const CASES = fuzzCaseCount();

// About 0.15 s per 1,000 cases here; the timeout leaves room for 10,000 on a loaded machine.
test(`psyche.toml reading survives ${CASES} random and broken files`, { timeout: 60_000 }, async () => {
  const bases = [defaultPsyche(), featurePsyche()];
  const report = await runFuzzKind({
    kind: 'psyche.toml',
    seed: SEED,
    generate: (random) => ({ text: caseText(random), base: pick(random, bases) }),
    describe: ({ text }) => JSON.stringify(text),
    read: ({ text, base }) => {
      const outcome = parsePsycheToml(text, base);
      if (outcome.warnings.some((warning) => !warning.message)) throw new Error('a warning without a message');
      if (outcome.ok) return {};
      const unplaced = unplacedProblem(outcome.problems);
      if (unplaced) throw new Error(`a refusal that names no line: ${describeProblem(unplaced)}`);
      // A refusal without problems, or any problem without words, fails as a message-less refusal.
      return { refused: outcome.problems.some((problem) => !problem.message) ? '' : outcome.problems[0]?.message };
    },
    checkAccepted: ({ text, base }) => {
      const outcome = parsePsycheToml(text, base);
      if (!outcome.ok) return 'read differently the second time';
      const validated = psycheSchema.safeParse(outcome.psyche);
      if (!validated.success) return `the psyche breaks the schema: ${validated.error.message}`;
      const neverFiring = shadowPolicyProblems(outcome.psyche.shadow);
      if (neverFiring.length > 0) return `a pattern that can never fire was accepted: ${neverFiring[0]!.message}`;
      const exported = psycheToToml(outcome.psyche);
      const again = parsePsycheToml(exported, defaultPsyche());
      if (!again.ok || !isDeepStrictEqual(again.psyche, outcome.psyche) || psycheToToml(again.psyche) !== exported)
        return 'the export does not read back the same';
      return undefined;
    },
  });
  expect(report.failures).toEqual([]);
  // Both paths are exercised, not just refusals.
  expect(report.accepted).toBeGreaterThan(CASES / 20);
  expect(report.refused).toBeGreaterThan(CASES / 2);
});

/** A problem that should name its line and does not: only what is about the file as a whole may go without. */
function unplacedProblem(problems: readonly Problem[]): Problem | undefined {
  const isWholeFile = (message: string) =>
    message.startsWith('not a psyche file') || /^the file is \d+ KB/.test(message);
  return problems.length === 0
    ? { message: '(no problem given)' }
    : problems.find((problem) => problem.line === undefined && !isWholeFile(problem.message));
}

const encoder = new TextEncoder();

// About 1.5 s per 1,000 cases here, imports into the test database included; the timeout leaves room for 10,000 on a loaded machine.
test(
  `psyche.toml files as bytes survive ${CASES} cases: strict UTF-8, patterns that can fire, no partial import`,
  { timeout: 120_000 },
  async () => {
    const { service } = testService({ idPrefix: 'psyche-fuzz' });
    const { session } = await service.open({});
    const sessionId = session.id;
    let imported = 0;
    const report = await runFuzzKind({
      kind: 'psyche.toml bytes',
      seed: SEED + 2,
      generate: (random) => {
        let text = pick(random, VALID_FILES);
        for (let count = below(random, 3); count >= 0; count--) text = mutate(random, text);
        const bytes = encoder.encode(text);
        // Broken bytes are where text that is not UTF-8 comes from: Latin-1 among them.
        if (random() < 0.1) return Uint8Array.from(text, (character) => character.charCodeAt(0) & 0xff);
        return random() < 0.35 ? mutateBytes(random, bytes) : bytes;
      },
      describe: (bytes) => `${bytes.length} bytes: ${JSON.stringify(new TextDecoder().decode(bytes.subarray(0, 500)))}`,
      read: async (bytes, random) => {
        const decoded = decodeUtf8Text(bytes);
        const problems = decoded.ok ? undefined : decoded.error;
        const outcome = decoded.ok ? parsePsycheToml(decoded.value, defaultPsyche()) : undefined;
        const refusal = problems ?? (outcome && !outcome.ok ? outcome.problems : undefined);
        if (refusal) {
          const unplaced = unplacedProblem(refusal);
          if (unplaced) throw new Error(`a refusal that names no line: ${describeProblem(unplaced)}`);
        }
        if (outcome?.ok) {
          const neverFiring = shadowPolicyProblems(outcome.psyche.shadow);
          if (neverFiring.length > 0)
            throw new Error(`a pattern that can never fire was accepted: ${neverFiring[0]!.message}`);
        }
        // A seeded twentieth goes through the service: a refused import leaves the psyche and its history as they were.
        if (decoded.ok && random() < 0.05) {
          imported++;
          const before = await service.psycheHistory({ sessionId });
          const current = await service.psycheGet({ sessionId });
          const result = await service.psycheImport({ sessionId, toml: decoded.value, fileName: 'fuzz.toml' });
          const after = await service.psycheHistory({ sessionId });
          if (!result.ok) {
            if (after.versions.length !== before.versions.length) throw new Error('a refused import added a version');
            if (!isDeepStrictEqual((await service.psycheGet({ sessionId })).psyche, current.psyche))
              throw new Error('a refused import changed the psyche');
          } else if (after.versions.length !== Math.max(before.versions.length, 1) + 1)
            throw new Error('an import did not add exactly one version');
        }
        return refusal ? { refused: refusal.map(describeProblem).join('; ') } : {};
      },
    });
    expect(report.failures).toEqual([]);
    expect(report.accepted).toBeGreaterThan(CASES / 20);
    expect(report.refused).toBeGreaterThan(CASES / 5);
    expect(imported).toBeGreaterThan(CASES / 50);
  },
);

/** Text of every kind a user might type: quotes, backslashes, TOML delimiters, control characters, emoji. */
function randomWords(random: Random, minimum: number, maximum: number): string {
  const pieces = [
    'a',
    'Z',
    ' ',
    '"',
    "'",
    "'''",
    '"""',
    '\\',
    '\n',
    '\r\n',
    '\t',
    '\u0001',
    '\u007f',
    '#',
    '[',
    ']',
    '=',
    '.',
    '—',
    '導',
    '😀',
    'é',
    '\uFFFD',
    '\u2028',
  ];
  let text = '';
  const length = minimum + below(random, maximum - minimum + 1);
  while (text.length < length) text += pick(random, pieces);
  // Cut to length without splitting an emoji into a lone surrogate.
  return text.slice(0, length).replace(/[\uD800-\uDBFF]$/, 'x');
}

const randomUnit = (random: Random) => pick(random, [0, 1, 0.5, 0.1 + 0.2, random(), 1e-9, 0.95]);
const randomCount = (random: Random) => pick(random, [0, 1, 42, below(random, 1e6), Number.MAX_SAFE_INTEGER]);

function randomExtraValue(random: Random, depth = 0): unknown {
  switch (below(random, depth > 1 ? 5 : 7)) {
    case 0:
      return randomWords(random, 0, 12);
    // What a psyche can hold: what survives IndexedDB and JSON (nan, inf and dates never reach extras).
    case 1:
      return pick(random, [0, -1, 2.5, 1e21, 2 ** 60, 0.1 + 0.2]);
    case 2:
      return random() < 0.5;
    case 3:
      return below(random, 1000);
    case 4:
      return new TomlDate(
        new Date(Date.UTC(2000 + below(random, 30), below(random, 12), 1 + below(random, 28), below(random, 24))),
      ).toISOString();
    case 5:
      return Array.from({ length: below(random, 3) }, () => randomExtraValue(random, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: below(random, 3) }, (_, index) => [
          `${randomWords(random, 0, 4)}${index}`,
          randomExtraValue(random, depth + 1),
        ]),
      );
  }
}

function randomPattern(random: Random): ShadowPattern {
  const threshold = random() < 0.5 ? pick(random, DANGER_LEVELS) : undefined;
  // A trigger needs a visible character: prefixed so spaces alone never make one.
  const triggers = Array.from({ length: below(random, 4) }, () => `t${randomWords(random, 0, 20)}`);
  const capabilityTriggers = Array.from({ length: below(random, 3) }, () => pick(random, CAPABILITIES));
  // A pattern needs something to fire on.
  if (triggers.length === 0 && capabilityTriggers.length === 0 && threshold === undefined)
    triggers.push(`t${randomWords(random, 0, 20)}`);
  return {
    name: randomWords(random, 1, 30),
    triggers,
    capabilityTriggers,
    ...(threshold ? { dangerThreshold: threshold } : {}),
    severity: randomUnit(random),
    explanation: randomWords(random, 0, 60),
    requireApproval: random() < 0.5,
  };
}

/** A random psyche the model accepts, with unknown keys where an import would keep them. */
function randomPsyche(random: Random): Psyche {
  const archetypes = {
    sage: randomUnit(random),
    healer: randomUnit(random),
    explorer: randomUnit(random),
    guardian: randomUnit(random),
  };
  const vetoPatterns = Array.from({ length: below(random, 3) }, () => randomPattern(random));
  const biasPatterns = Array.from({ length: below(random, 3) }, () => randomPattern(random));
  const tablePaths = [
    '',
    'persona',
    'shadow',
    'archetypes',
    'self_integration',
    ...vetoPatterns.map((_, index) => `shadow.veto_patterns.${index}`),
  ];
  const extras: Psyche['extras'] = {};
  for (const path of tablePaths) {
    if (random() < 0.3) extras[path] = { [`extra_${randomWords(random, 0, 6)}`]: randomExtraValue(random) };
  }
  const shadowEncounters = randomCount(random);
  return {
    persona: {
      name: randomWords(random, 1, 40),
      grammarPreference: pick(random, ['narrative', 'formal', 'terse', randomWords(random, 1, 20)]),
      traits: Array.from({ length: below(random, 4) }, () => randomWords(random, 0, 20)),
      tone: Array.from({ length: below(random, 4) }, () => randomWords(random, 0, 20)),
    },
    shadow: { vetoPatterns, biasPatterns },
    archetypes,
    selfIntegration: {
      individuationLevel: randomUnit(random),
      lastEvolutionCycle: randomCount(random),
      shadowEncounters,
      encountersAtLastEvolution: Math.min(shadowEncounters, randomCount(random)),
      rebalanceCount: randomCount(random),
      dominantArchetype: dominantArchetype(archetypes),
    },
    ...(random() < 0.5
      ? { grammar: { name: `g${randomWords(random, 0, 20)}`, source: randomWords(random, 0, 200) } }
      : {}),
    extras,
  };
}

// About 5 s on a busy 2-core machine, but 25 s inside the whole suite beside two CPU-bound processes: the
// timeout leaves room for that, as its neighbours' do.
test(`any of ${PSYCHES} random valid psyches survives export and import exactly`, { timeout: 90_000 }, () => {
  const random = seededRandom(SEED + 1);
  const failures: string[] = [];
  for (let index = 0; index < PSYCHES && failures.length < 5; index++) {
    const psyche = randomPsyche(random);
    if (!psycheSchema.safeParse(psyche).success || shadowPolicyProblems(psyche.shadow).length > 0)
      throw new Error(`the generator made an invalid psyche (case ${index})`);
    const exported = psycheToToml(psyche);
    const outcome = parsePsycheToml(exported, featurePsyche());
    if (!outcome.ok) failures.push(`case ${index}: refused: ${JSON.stringify(outcome.problems)}\n${exported}`);
    else if (!isDeepStrictEqual(outcome.psyche, psyche))
      failures.push(`case ${index}: read back differently\n${exported}`);
    else if (psycheToToml(outcome.psyche) !== exported)
      failures.push(`case ${index}: exported differently the second time`);
  }
  expect(failures).toEqual([]);
});

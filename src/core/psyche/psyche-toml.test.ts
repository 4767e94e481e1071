import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { describeProblem } from '#core/result.ts';
import { otherBase } from '#core/testing/other-base-psyche.ts';
import { defaultPsyche, psycheSchema, type Psyche } from '#core/records/psyche.ts';
import { MAX_PSYCHE_TOML_BYTES, parsePsycheToml, type PsycheTomlOutcome } from './psyche-toml-read.ts';
import { psycheToToml } from './psyche-toml-write.ts';
import { judgeAction } from './shadow.ts';
import { locateTomlKeys, nearestLine } from '#core/toml/key-lines.ts';

/** A psyche using every feature the file can carry. */
function everyFeaturePsyche(): Psyche {
  return {
    persona: {
      name: 'Mentor "M" \\ 導師',
      grammarPreference: 'briefing',
      traits: ['patient', 'line\nbreak', 'tab\there', ''],
      tone: Array.from({ length: 12 }, (_, index) => `warm tone number ${index}`),
    },
    shadow: {
      vetoPatterns: [
        {
          name: 'no_shell',
          triggers: ['rm -rf', 'it\'s "quoted"'],
          capabilityTriggers: ['processExec', 'writeFiles', 'llm', 'user', 'similarity'],
          dangerThreshold: 'critical',
          severity: 1,
          explanation: 'Never run a shell.',
          requireApproval: false,
        },
        {
          name: 'ask_first',
          triggers: [],
          capabilityTriggers: ['network'],
          dangerThreshold: 'cautious',
          severity: 0.1 + 0.2,
          explanation: '',
          requireApproval: true,
        },
      ],
      biasPatterns: [
        {
          name: 'quiet',
          triggers: ['again'],
          capabilityTriggers: [],
          dangerThreshold: 'safe',
          severity: 0,
          explanation: 'x',
          requireApproval: false,
        },
      ],
    },
    archetypes: { sage: 1, healer: 0, explorer: 0.95, guardian: 1e-7 },
    selfIntegration: {
      individuationLevel: 0.37,
      lastEvolutionCycle: 42,
      shadowEncounters: 9,
      encountersAtLastEvolution: 4,
      rebalanceCount: 3,
      dominantArchetype: 'sage',
    },
    grammar: {
      name: 'briefing',
      source: `[openers]\nfirst = "Briefly:"\nquote = """three quotes \\""" inside"""\nliteral = '''it's'''\nend = "ends with a quote"`,
    },
    extras: {
      '': { comment: 'kept at the root', version: 2 },
      persona: { mood: 'calm', voice: { pitch: 1.5, words: ['a', 'b'], nested: { deep: true } } },
      shadow: { 'odd key': 'quoted key' },
      'shadow.veto_patterns.1': { since: '2024-05-01T10:00:00Z', tags: [{ a: 1 }, { a: 2 }] },
      archetypes: { trickster: 0.25 },
      self_integration: { big: 2 ** 60, nothing: {} },
      grammar: { author: 'me' },
    },
  };
}

const readOk = (text: string, base: Psyche = defaultPsyche()): Extract<PsycheTomlOutcome, { ok: true }> => {
  const outcome = parsePsycheToml(text, base);
  if (!outcome.ok)
    throw new Error(`expected the file to import, got: ${outcome.problems.map(describeProblem).join('; ')}`);
  return outcome;
};

const readFailed = (text: string, base: Psyche = defaultPsyche()): Extract<PsycheTomlOutcome, { ok: false }> => {
  const outcome = parsePsycheToml(text, base);
  if (outcome.ok) throw new Error('expected the file to be refused');
  return outcome;
};

const SEED_PSYCHE = `[persona]
name = "Scholar"
grammar_preference = "narrative"
traits = ["precise", "curious", "thorough"]
tone = ["clear", "methodical"]

[shadow]

[[shadow.veto_patterns]]
name = "destructive_action"
triggers = ["delete all", "drop table", "rm -rf"]
severity = 1.0
explanation = "Destructive actions require explicit user confirmation."

[[shadow.bias_patterns]]
name = "repetitive_loop"
triggers = ["same tool", "repeated"]
severity = 0.3
explanation = "Detected repetitive pattern, try a different approach."

[archetypes]
healer = 0.5
sage = 0.7
guardian = 0.4
explorer = 0.5

[self_integration]
individuation_level = 0.1
last_evolution_cycle = 0
shadow_encounters = 0
rebalance_count = 0
dominant_archetype = "sage"
`;

/** The seed's file with one line replaced (1-based), for errors at a known line. */
const seedWith = (line: number, replacement: string) =>
  SEED_PSYCHE.split('\n')
    .map((content, index) => (index + 1 === line ? replacement : content))
    .join('\n');

describe('writing and reading back', () => {
  test('the default psyche comes back exactly, whatever the current psyche, and exports the same text again', () => {
    const text = psycheToToml(defaultPsyche());
    const outcome = readOk(text, otherBase());
    expect(outcome.psyche).toEqual(defaultPsyche());
    expect(outcome.warnings).toEqual([]);
    expect(psycheToToml(outcome.psyche)).toBe(text);
  });

  test('a psyche using every feature comes back exactly and exports byte-identically', () => {
    const psyche = everyFeaturePsyche();
    expect(psycheSchema.parse(psyche)).toEqual(psyche);
    const text = psycheToToml(psyche);
    const outcome = readOk(text, otherBase());
    expect(outcome.psyche).toEqual(psyche);
    expect(psycheToToml(outcome.psyche)).toBe(text);
  });

  test('the export is the seed layout with akh-medu names and Anima extensions, sections in order', () => {
    const text = psycheToToml(everyFeaturePsyche());
    expect(
      text.startsWith('# psyche.toml, written by Anima\ncomment = "kept at the root"\nversion = 2\n\n[persona]\n'),
    ).toBe(true);
    const headers = text
      .slice(0, text.indexOf('source = '))
      .split('\n')
      .filter((line) => line.startsWith('['));
    expect(headers).toEqual([
      '[persona]',
      '[shadow]',
      '[[shadow.veto_patterns]]',
      '[[shadow.veto_patterns]]',
      '[[shadow.bias_patterns]]',
      '[archetypes]',
      '[self_integration]',
      '[grammar]',
    ]);
    expect(text).toContain(
      'capability_triggers = ["ProcessExec", "WriteFilesystem", "Llm", "UserInteraction", "VsaAccess"]',
    );
    expect(text).toContain('danger_level_threshold = "Critical"');
    expect(text).toContain('require_approval = true');
    expect(text).toContain('encounters_at_last_evolution = 4');
    expect(text).toContain('sage = 1.0\nhealer = 0.0\nexplorer = 0.95\nguardian = 1e-7');
    expect(text).toContain('severity = 0.30000000000000004');
    expect(text).toContain('last_evolution_cycle = 42\n');
    expect(text).toContain('tone = [\n  "warm tone number 0",\n');
    expect(text).toContain('voice = { pitch = 1.5, words = ["a", "b"], nested = { deep = true } }');
    expect(text).toContain('since = "2024-05-01T10:00:00Z"');
    expect(text).toContain('big = 1152921504606847000.0');
    expect(text).toContain('"odd key" = "quoted key"');
  });

  test('a grammar source is written as a readable multi-line string', () => {
    const psyche = { ...defaultPsyche(), grammar: { name: 'plain', source: '[openers]\nfirst = "Briefly:"\n' } };
    expect(psycheToToml(psyche)).toContain(
      `[grammar]\nname = "plain"\nsource = '''\n[openers]\nfirst = "Briefly:"\n'''\n`,
    );
    for (const source of [
      '',
      '\n',
      "'",
      '"',
      '""',
      '"""',
      '""""""x',
      '\\',
      'a\r\nb',
      '\u0001\u007f',
      "'''",
      'ends with "',
    ]) {
      const withSource = { ...defaultPsyche(), grammar: { name: 'g', source } };
      expect(readOk(psycheToToml(withSource)).psyche.grammar).toEqual({ name: 'g', source });
    }
  });

  test('an empty shadow is written explicitly and reads back without warnings', () => {
    const psyche = { ...defaultPsyche(), shadow: { vetoPatterns: [], biasPatterns: [] } };
    const text = psycheToToml(psyche);
    expect(text).toContain('[shadow]\nveto_patterns = []\nbias_patterns = []\n');
    const outcome = readOk(text);
    expect(outcome.psyche).toEqual(psyche);
    expect(outcome.warnings).toEqual([]);
  });
});

describe('reading the layouts in the wild', () => {
  test("the seed's layout imports with no warnings", () => {
    const outcome = readOk(SEED_PSYCHE, otherBase());
    expect(outcome.warnings).toEqual([]);
    expect(outcome.psyche.persona).toEqual({
      name: 'Scholar',
      grammarPreference: 'narrative',
      traits: ['precise', 'curious', 'thorough'],
      tone: ['clear', 'methodical'],
    });
    expect(outcome.psyche.shadow.vetoPatterns[0]).toEqual({
      name: 'destructive_action',
      triggers: ['delete all', 'drop table', 'rm -rf'],
      capabilityTriggers: [],
      severity: 1,
      explanation: 'Destructive actions require explicit user confirmation.',
      requireApproval: false,
    });
    expect(outcome.psyche.archetypes).toEqual({ sage: 0.7, healer: 0.5, explorer: 0.5, guardian: 0.4 });
    // A whole file stands alone: nothing of the current psyche is mixed in.
    expect(outcome.psyche.grammar).toBeUndefined();
    expect(outcome.psyche.extras).toEqual({});
  });

  test("akh-medu's layout reads capability and danger triggers in its spelling", () => {
    const text = SEED_PSYCHE.replace(
      'triggers = ["delete all", "drop table", "rm -rf"]',
      'capability_triggers = ["ProcessExec", "WRITEFILESYSTEM", "vsaaccess", "readFiles", "llm"]\ndanger_level_threshold = "Critical"\naction_triggers = ["delete all"]',
    );
    const pattern = readOk(text).psyche.shadow.vetoPatterns[0];
    expect(pattern?.capabilityTriggers).toEqual(['processExec', 'writeFiles', 'similarity', 'readFiles', 'llm']);
    expect(pattern?.dangerThreshold).toBe('critical');
    expect(pattern?.triggers).toEqual(['delete all']);
  });

  test('triggers and action_triggers together are joined, with a warning', () => {
    const text = seedWith(11, 'triggers = ["delete all", "rm -rf"]\naction_triggers = ["rm -rf", "drop table"]');
    const outcome = readOk(text);
    expect(outcome.psyche.shadow.vetoPatterns[0]?.triggers).toEqual(['delete all', 'rm -rf', 'drop table']);
    expect(outcome.warnings).toEqual([
      {
        line: 12,
        path: 'shadow.veto_patterns.0.action_triggers',
        message: 'both triggers and action_triggers are given: both lists are used',
      },
    ]);
  });

  test("Anima's extensions: approval patterns and the encounters counted at the last evolution", () => {
    const text = seedWith(13, 'explanation = "Ask first."\nrequire_approval = true').replace(
      'shadow_encounters = 0',
      'shadow_encounters = 6\nencounters_at_last_evolution = 2',
    );
    const outcome = readOk(text);
    expect(outcome.psyche.shadow.vetoPatterns[0]?.requireApproval).toBe(true);
    expect(outcome.psyche.selfIntegration.encountersAtLastEvolution).toBe(2);
    // Without the extension, every encounter so far counts as already grown from.
    expect(
      readOk(SEED_PSYCHE.replace('shadow_encounters = 0', 'shadow_encounters = 6')).psyche.selfIntegration
        .encountersAtLastEvolution,
    ).toBe(6);
  });

  test('a dominant archetype that disagrees with the weights is replaced by the derived one, with a warning', () => {
    const outcome = readOk(SEED_PSYCHE.replace('dominant_archetype = "sage"', 'dominant_archetype = "healer"'));
    expect(outcome.psyche.selfIntegration.dominantArchetype).toBe('sage');
    expect(outcome.warnings).toEqual([
      {
        line: 32,
        path: 'self_integration.dominant_archetype',
        message: '"healer" disagrees with the weights: sage, the highest weight, is the dominant archetype',
      },
    ]);
  });

  test('a grammar named by a path is kept, and the user is told to attach the file', () => {
    const outcome = readOk(seedWith(3, 'grammar_preference = "path/to/custom.toml"'));
    expect(outcome.psyche.persona.grammarPreference).toBe('path/to/custom.toml');
    expect(outcome.warnings.map(describeProblem)).toEqual([
      'line 3, at persona.grammar_preference: "path/to/custom.toml" is a grammar file Anima cannot open by its path: attach the grammar file; until then the narrative grammar is used',
    ]);
  });

  test('a grammar name that nothing defines warns; the [grammar] of the file satisfies it', () => {
    const named = seedWith(3, 'grammar_preference = "briefing"');
    expect(readOk(named).warnings.map((warning) => warning.message)).toEqual([
      '"briefing" is neither a built-in grammar (narrative, formal, terse) nor the [grammar] of this psyche: attach the grammar file; until then the narrative grammar is used',
    ]);
    const withGrammar = readOk(`${named}\n[grammar]\nname = "briefing"\nsource = """\n[openers]\n"""\n`);
    expect(withGrammar.warnings).toEqual([]);
    expect(withGrammar.psyche.grammar).toEqual({ name: 'briefing', source: '[openers]\n' });
  });

  test('unknown keys are reported, kept in their tables, and written back', () => {
    const text = `version = 3
${SEED_PSYCHE.replace('tone = ["clear", "methodical"]', 'tone = ["clear"]\nmood = "calm"\n[persona.voice]\npitch = 2')
  .replace('severity = 0.3', 'severity = 0.3\nweight = 0.5')
  .replace('explorer = 0.5', 'explorer = 0.5\ntrickster = 0.1')}`;
    const outcome = readOk(text);
    expect(outcome.warnings).toEqual([
      { line: 1, path: 'version', message: 'unknown key version, kept' },
      { line: 7, path: 'persona.mood', message: 'unknown key persona.mood, kept' },
      { line: 8, path: 'persona.voice', message: 'unknown key persona.voice, kept' },
      { line: 23, path: 'shadow.bias_patterns.0.weight', message: 'unknown key shadow.bias_patterns.0.weight, kept' },
      { line: 31, path: 'archetypes.trickster', message: 'unknown key archetypes.trickster, kept' },
    ]);
    expect(outcome.psyche.extras).toEqual({
      '': { version: 3 },
      persona: { mood: 'calm', voice: { pitch: 2 } },
      'shadow.bias_patterns.0': { weight: 0.5 },
      archetypes: { trickster: 0.1 },
    });
    const exported = psycheToToml(outcome.psyche);
    expect(exported).toContain(
      '[persona]\nname = "Scholar"\ngrammar_preference = "narrative"\ntraits = ["precise", "curious", "thorough"]\ntone = ["clear"]\nmood = "calm"\nvoice = { pitch = 2 }\n',
    );
    expect(readOk(exported).psyche).toEqual(outcome.psyche);
  });

  test('a partial file imports over the current psyche, one warning per section kept', () => {
    const base = otherBase();
    const outcome = readOk(
      '[persona]\nname = "Explorer"\ngrammar_preference = "terse"\ntraits = ["bold"]\ntone = ["concise"]\n',
      base,
    );
    expect(outcome.psyche.persona).toEqual({
      name: 'Explorer',
      grammarPreference: 'terse',
      traits: ['bold'],
      tone: ['concise'],
    });
    expect(outcome.psyche.shadow).toEqual(base.shadow);
    expect(outcome.psyche.archetypes).toEqual(base.archetypes);
    expect(outcome.psyche.grammar).toEqual(base.grammar);
    // The kept sections keep their unknown keys; the persona's came from the file, which has none.
    expect(outcome.psyche.extras).toEqual({ archetypes: { fromBase: true } });
    expect(outcome.warnings.map(describeProblem)).toEqual([
      'at shadow: no [shadow] in the file: the current shadow patterns are kept',
      'at archetypes: no [archetypes] in the file: the current weights are kept',
      'at self_integration: no [self_integration] in the file: the current growth counters are kept',
      'at grammar: no [grammar] in the file: the current custom grammar "base-grammar" is kept',
    ]);
  });

  test('weights from a partial file decide the dominant archetype of the kept counters', () => {
    const outcome = readOk('[archetypes]\nhealer = 0.6\nsage = 0.5\nguardian = 0.9\nexplorer = 0.2\n', otherBase());
    expect(outcome.psyche.archetypes).toEqual({ sage: 0.5, healer: 0.6, explorer: 0.2, guardian: 0.9 });
    expect(outcome.psyche.selfIntegration).toEqual({ ...otherBase().selfIntegration, dominantArchetype: 'guardian' });
  });

  test('missing values inside a section: weights and counters are kept, lists empty, grammar narrative, each with its warning', () => {
    const text =
      '[persona]\nname = "Terse"\n\n[archetypes]\nexplorer = 0.8\n\n[self_integration]\nshadow_encounters = 3\n';
    const outcome = readOk(text, otherBase());
    expect(outcome.psyche.persona).toEqual({ name: 'Terse', grammarPreference: 'narrative', traits: [], tone: [] });
    expect(outcome.psyche.archetypes).toEqual({ sage: 0.2, healer: 0.3, explorer: 0.8, guardian: 0.4 });
    expect(outcome.psyche.selfIntegration).toEqual({
      individuationLevel: 0.1,
      lastEvolutionCycle: 0,
      shadowEncounters: 3,
      encountersAtLastEvolution: 3,
      rebalanceCount: 0,
      dominantArchetype: 'explorer',
    });
    expect(outcome.warnings.map(describeProblem)).toEqual([
      'at shadow: no [shadow] in the file: the current shadow patterns are kept',
      'at grammar: no [grammar] in the file: the current custom grammar "base-grammar" is kept',
      'line 1, at persona.grammar_preference: is missing: the narrative grammar is used',
      'line 4, at archetypes.sage: is missing: the current weight 0.2 is kept',
      'line 4, at archetypes.healer: is missing: the current weight 0.3 is kept',
      'line 4, at archetypes.guardian: is missing: the current weight 0.4 is kept',
      'line 7, at self_integration.individuation_level: is missing: the current value 0.1 is kept',
      'line 7, at self_integration.last_evolution_cycle: is missing: the current value 0 is kept',
      'line 7, at self_integration.rebalance_count: is missing: the current value 0 is kept',
    ]);
  });

  test('patterns: no explanation reads as empty with a warning', () => {
    const text = '[[shadow.veto_patterns]]\nname = "quiet"\ntriggers = ["drop table"]\nseverity = 0.5\n';
    const outcome = readOk(text);
    expect(outcome.psyche.shadow.vetoPatterns).toEqual([
      {
        name: 'quiet',
        triggers: ['drop table'],
        capabilityTriggers: [],
        severity: 0.5,
        explanation: '',
        requireApproval: false,
      },
    ]);
    expect(outcome.warnings.filter((warning) => warning.path?.startsWith('shadow.')).map(describeProblem)).toEqual([
      'line 1, at shadow.veto_patterns.0.explanation: is missing: when the pattern fires, no reason is shown',
    ]);
  });

  test('a shadow with only bias patterns warns that nothing will be vetoed', () => {
    const outcome = readOk(
      '[[shadow.bias_patterns]]\nname = "b"\ntriggers = ["x"]\nseverity = 0.2\nexplanation = "e"\n',
    );
    expect(outcome.psyche.shadow.vetoPatterns).toEqual([]);
    expect(outcome.warnings).toContainEqual({
      line: 1,
      path: 'shadow',
      message: 'no [[shadow.veto_patterns]]: no action will be vetoed',
    });
  });

  test('bytes that were not UTF-8 are pointed out even when the file reads', () => {
    const outcome = readOk(seedWith(2, 'name = "Sch\uFFFDlar"'));
    expect(outcome.warnings.map(describeProblem)).toEqual([
      'line 2: the file has bytes that are not UTF-8 (shown as \uFFFD): was it saved as UTF-8?',
    ]);
  });
});

describe('refusing a file, saying where and why', () => {
  test('a value of the wrong type names its key path and line', () => {
    const outcome = readFailed(seedWith(23, 'sage = "high"'));
    expect(outcome.problems).toEqual([
      { line: 23, path: 'archetypes.sage', message: 'must be a number between 0 and 1, got "high"' },
    ]);
    expect(describeProblem(outcome.problems[0]!)).toBe(
      'line 23, at archetypes.sage: must be a number between 0 and 1, got "high"',
    );
  });

  test('every wrong value is reported at once, top to bottom, in the second pattern of a list too', () => {
    const text = `${SEED_PSYCHE}
[[shadow.bias_patterns]]
name = "second"
triggers = "not a list"
severity = 2
require_approval = "yes"
`
      .replace('traits = ["precise", "curious", "thorough"]', 'traits = ["precise", 3]')
      .replace('rebalance_count = 0', 'rebalance_count = -1');
    expect(readFailed(text).problems.map(describeProblem)).toEqual([
      'line 4, at persona.traits: must be a list of strings, but entry 2 is 3',
      'line 31, at self_integration.rebalance_count: must be a whole number, 0 or more, got -1',
      'line 36, at shadow.bias_patterns.1.triggers: must be a list of strings, got "not a list"',
      'line 37, at shadow.bias_patterns.1.severity: must be a number between 0 and 1, got 2',
      'line 38, at shadow.bias_patterns.1.require_approval: must be true or false, got "yes"',
    ]);
  });

  test('a table declared twice is refused at the line that repeats it', () => {
    const text = '[archetypes]\nsage = 0.4\n\n# again\n[archetypes]\nsage = 0.5\n';
    expect(readFailed(text).problems).toEqual([
      { line: 5, message: 'invalid TOML: [archetypes] appears twice: a table may be declared only once in a file' },
    ]);
  });

  test('a key set twice and other syntax errors name their line', () => {
    expect(readFailed(seedWith(24, 'sage = 0.1')).problems).toEqual([
      { line: 24, message: 'invalid TOML: sage is set twice: a key may appear only once in a table' },
    ]);
    expect(readFailed('[persona]\nname = "unclosed\n').problems[0]?.line).toBe(2);
    expect(readFailed('[persona\n').problems[0]).toMatchObject({
      line: 1,
      message: expect.stringMatching(/^invalid TOML: /),
    });
  });

  test('an unknown capability or danger level is refused, naming the allowed values', () => {
    const text = seedWith(
      11,
      'triggers = []\ncapability_triggers = ["Network", "Teleport"]\ndanger_level_threshold = "Extreme"',
    );
    expect(readFailed(text).problems).toEqual([
      {
        line: 12,
        path: 'shadow.veto_patterns.0.capability_triggers',
        message:
          'has an unknown capability "Teleport": use ReadKg, WriteKg, ReadFilesystem, WriteFilesystem, Network, ProcessExec, UserInteraction, Reason, VsaAccess, ProvenanceAccess, MemoryAccess, Llm (in any case; Anima\'s names such as readFiles, user or similarity work too)',
      },
      {
        line: 13,
        path: 'shadow.veto_patterns.0.danger_level_threshold',
        message: 'must be a danger level, one of Safe, Cautious, Dangerous, Critical, got "Extreme"',
      },
    ]);
  });

  test('required keys: a persona needs a name, a pattern a name and a severity, a grammar a name and a source', () => {
    const text =
      '[persona]\ngrammar_preference = "terse"\n\n[[shadow.veto_patterns]]\ntriggers = ["x"]\nexplanation = ""\n\n[grammar]\nname = "g"\n';
    expect(readFailed(text).problems.map(describeProblem)).toEqual([
      'line 1, at persona.name: is required (the persona needs a name)',
      'line 4, at shadow.veto_patterns.0.name: is required (every pattern needs a name)',
      'line 4, at shadow.veto_patterns.0.severity: is required (a number between 0 and 1)',
      "line 8, at grammar.source: is required (the grammar file's TOML text)",
    ]);
  });

  test('a section that is not a table, and patterns that are not tables, are refused', () => {
    expect(readFailed('persona = "Scholar"\n').problems).toEqual([
      { line: 1, path: 'persona', message: 'must be a table ([persona]), got "Scholar"' },
    ]);
    expect(readFailed('[shadow]\nveto_patterns = ["rm"]\n').problems).toEqual([
      { line: 2, path: 'shadow.veto_patterns.0', message: 'must be a table ([[shadow.veto_patterns]]), got "rm"' },
    ]);
    expect(readFailed('[shadow]\nbias_patterns = 1\n').problems).toEqual([
      { line: 2, path: 'shadow.bias_patterns', message: 'must be a list of tables ([[shadow.bias_patterns]]), got 1' },
    ]);
  });

  test("the model's limits are checked too, named in the file's keys and lines", () => {
    const text = seedWith(2, `name = "${'n'.repeat(201)}"`).replace(
      'triggers = ["same tool", "repeated"]',
      'triggers = ["same tool", ""]',
    );
    expect(readFailed(text).problems).toEqual([
      { line: 2, path: 'persona.name', message: 'is too long: at most 200 characters' },
      {
        line: 17,
        path: 'shadow.bias_patterns.0.triggers.1',
        message:
          'the trigger "" of the bias pattern "repetitive_loop" has no visible character (case, width, zero-width characters and spacing aside), so it could never match',
      },
    ]);
    const manyTraits = seedWith(4, `traits = [${Array.from({ length: 101 }, () => '"t"').join(', ')}]`);
    expect(readFailed(manyTraits).problems).toEqual([
      { line: 4, path: 'persona.traits', message: 'has too many entries: at most 100' },
    ]);
    const akhMeduTriggers = seedWith(11, 'action_triggers = [""]');
    expect(readFailed(akhMeduTriggers).problems).toEqual([
      {
        line: 11,
        path: 'shadow.veto_patterns.0.action_triggers.0',
        message: expect.stringContaining('has no visible character'),
      },
    ]);
  });

  test("a file that is not a psyche is refused, saying what it holds: akh-medu's compartment manifest", () => {
    const manifest =
      'id = "psyche"\nname = "Jungian Psyche"\nkind = "Core"\ndescription = "A manifest"\ntags = ["core"]\n';
    expect(readFailed(manifest).problems).toEqual([
      {
        message:
          'not a psyche file: it has none of [persona], [shadow], [archetypes], [self_integration], [grammar] (its top-level keys are id, name, kind, description, tags)',
      },
    ]);
  });

  test('an empty file, or one with only comments, is refused', () => {
    expect(readFailed('').problems).toEqual([{ message: 'not a psyche file: it is empty' }]);
    expect(readFailed('# nothing here\n\n').problems).toEqual([{ message: 'not a psyche file: it is empty' }]);
  });

  test('a file over the size limit is refused before it is read', () => {
    const huge = `${SEED_PSYCHE}# ${'x'.repeat(MAX_PSYCHE_TOML_BYTES)}\n`;
    expect(readFailed(huge).problems).toEqual([{ message: 'the file is 257 KB; a psyche.toml may be at most 256 KB' }]);
    // Bytes, not characters: 100,000 three-byte characters are over the limit.
    expect(readFailed(`# ${'導'.repeat(100_000)}`).problems[0]?.message).toBe(
      'the file is 293 KB; a psyche.toml may be at most 256 KB',
    );
  });

  test('binary garbage and text that is not UTF-8 are refused with a plain reason', () => {
    expect(readFailed('PK\u0003\u0004\u0000\u0000garbage').problems).toEqual([
      { line: 1, message: 'not a text file: it contains NUL bytes (is it binary?)' },
    ]);
    expect(readFailed('[persona]\nname = "\uD800"\n').problems).toEqual([
      { line: 2, message: 'not valid Unicode text: it contains a broken character (an unpaired surrogate)' },
    ]);
    expect(readFailed('\uFFFD\uFFFDJFIF\uFFFD\u0001\uFFFD').problems.map(describeProblem)).toEqual([
      'line 1: the file has bytes that are not UTF-8 (shown as \uFFFD): was it saved as UTF-8?',
      expect.stringMatching(/^line 1: invalid TOML: /),
    ]);
  });

  test('keys that could reach object prototypes are refused', () => {
    expect(readFailed('[persona]\n__proto__ = 1\n').problems).toEqual([
      { line: 2, message: 'invalid TOML: keys named __proto__ or constructor are not allowed' },
    ]);
  });
});

describe('echoing what the file holds', () => {
  const big = 'k'.repeat(100_000);
  const lengths = (outcome: PsycheTomlOutcome) =>
    [...(outcome.ok ? [] : outcome.problems), ...outcome.warnings].map((problem) => describeProblem(problem).length);

  test.each([
    [
      'an unknown capability',
      `[[shadow.veto_patterns]]\nname = "x"\ncapability_triggers = ["${big}"]\nseverity = 1.0\n`,
    ],
    ['a grammar preference', `[persona]\nname = "x"\ngrammar_preference = "${big}"\n`],
    ['a dominant archetype', `[self_integration]\ndominant_archetype = "${big}"\n`],
    ['an unknown key', `[persona]\nname = "x"\n${big} = 1\n`],
    ['an unknown table', `[${big}]\nx = 1\n[persona]\nname = "x"\n`],
    ['a key set twice', `[persona]\n${big} = 1\n${big} = 2\n`.slice(0, 250_000)],
    ['a pattern name', `[[shadow.veto_patterns]]\nname = "${big}"\ntriggers = []\nseverity = 1.0\n`],
  ])('%s is cut to at most 200 characters in a message', (_what, text) => {
    const outcome = parsePsycheToml(text, defaultPsyche());
    expect(Math.max(...lengths(outcome))).toBeLessThan(700);
    expect([...(outcome.ok ? [] : outcome.problems), ...outcome.warnings].map(describeProblem).join('\n')).toMatch(
      /\(100,0\d\d characters\)|is too long/,
    );
  });
});

describe('patterns that mean something', () => {
  const veto = (lines: string) =>
    `[[shadow.veto_patterns]]\nname = "stop"\n${lines}\nseverity = 1.0\nexplanation = "No."\n`;

  test('a veto whose only trigger is zero-width characters is refused, with its line', () => {
    // The finding: "\u200b\u200b" passed the check, and the action it was meant to stop ran.
    expect(readFailed(veto('triggers = ["\\u200b\\u200b"]')).problems.map(describeProblem)).toEqual([
      'line 3, at shadow.veto_patterns.0.triggers.0: the trigger "\\u200b\\u200b" of the veto pattern "stop" has no visible character (case, width, zero-width characters and spacing aside), so it could never match',
    ]);
  });

  test.each([
    ['spaces', '"   "'],
    ['an ideographic space and a tab', '"\\u3000\\t"'],
    ['a soft hyphen and a word joiner', '"\\u00ad\\u2060"'],
    ['tag characters', '"\\U000E0020\\U000E0041"'],
    ['a JSON escape of a zero-width space, as text', "'\\u200b'"],
    ['a byte order mark and a variation selector', '"\\ufeff\\ufe0f"'],
    ['nothing', '""'],
  ])('a trigger of %s is refused, in either key', (_what, trigger) => {
    expect(readFailed(veto(`triggers = ["drop table", ${trigger}]`)).problems).toEqual([
      {
        line: 3,
        path: 'shadow.veto_patterns.0.triggers.1',
        message: expect.stringContaining('has no visible character'),
      },
    ]);
    expect(readFailed(veto(`action_triggers = [${trigger}]`)).problems).toEqual([
      {
        line: 3,
        path: 'shadow.veto_patterns.0.action_triggers.0',
        message: expect.stringContaining('has no visible character'),
      },
    ]);
  });

  test('zero-width and full-width characters inside a real trigger are kept, and it still matches', () => {
    const outcome = readOk(veto('triggers = ["rm\\u200b -rf", "ＤＲＯＰ\\u3000table"]'));
    expect(outcome.psyche.shadow.vetoPatterns[0]?.triggers).toEqual(['rm\u200b -rf', 'ＤＲＯＰ\u3000table']);
    const action = (text: string) =>
      judgeAction(outcome.psyche, { tool: 'kg_query', danger: 'safe', capabilities: ['readKg'], input: { text } });
    expect(action('rm -rf /').vetoes.map((match) => match.pattern.name)).toEqual(['stop']);
    expect(action('DROP TABLE users').vetoes.map((match) => match.pattern.name)).toEqual(['stop']);
  });

  test('a veto or bias with nothing to fire on is an error at its header, not a warning', () => {
    const text = `${veto('triggers = []')}\n[[shadow.bias_patterns]]\nname = "lean"\nseverity = 0.2\nexplanation = "e"\n`;
    expect(readFailed(text).problems.map(describeProblem)).toEqual([
      'line 1, at shadow.veto_patterns.0: the veto pattern "stop" can never fire: it has no text trigger, capability trigger or danger threshold',
      'line 7, at shadow.bias_patterns.0: the bias pattern "lean" can never fire: it has no text trigger, capability trigger or danger threshold',
    ]);
  });

  test('a capability or a danger threshold alone is enough to fire', () => {
    expect(readOk(veto('capability_triggers = ["Network"]')).psyche.shadow.vetoPatterns).toHaveLength(1);
    expect(readOk(veto('danger_level_threshold = "Safe"')).psyche.shadow.vetoPatterns).toHaveLength(1);
  });

  test('a veto with only invisible triggers is told once per trigger, not again as a pattern', () => {
    expect(readFailed(veto('triggers = [\n  "\\u200b",\n  " ",\n]')).problems.map((problem) => problem.path)).toEqual([
      'shadow.veto_patterns.0.triggers.0',
      'shadow.veto_patterns.0.triggers.1',
    ]);
  });

  test('triggers of the wrong type are told once, not again as a pattern that cannot fire', () => {
    expect(readFailed(veto('triggers = "rm -rf"')).problems).toEqual([
      { line: 3, path: 'shadow.veto_patterns.0.triggers', message: 'must be a list of strings, got "rm -rf"' },
    ]);
  });

  test('a file without [shadow] is not refused for the patterns it keeps from the current psyche', () => {
    const base = defaultPsyche();
    base.shadow.vetoPatterns.push({
      name: 'old',
      triggers: ['\u200b'],
      capabilityTriggers: [],
      severity: 1,
      explanation: '',
      requireApproval: false,
    });
    expect(readOk('[archetypes]\nsage = 0.9\n', base).psyche.shadow).toEqual(base.shadow);
  });
});

describe('finding the line of a key', () => {
  test('tables, arrays of tables, dotted and quoted keys, skipping look-alikes inside strings and multi-line values', () => {
    const text = [
      'top = 1', // 1
      '[a]', // 2
      'b.c = """', // 3
      '[not_a_table]', // 4
      'fake = 1 """', // 5
      'd = [', // 6
      '  "x = 1",', // 7
      '  { e = 2 },', // 8
      ']', // 9
      '"quoted.key" = 2 # comment [', // 10
      '[[list]]', // 11
      'item = 1', // 12
      '[[list]]', // 13
      '[list.sub]', // 14
      "'literal' = '''", // 15
      "x = ''' # after", // 16
      'y = 3', // 17
    ].join('\n');
    const located = locateTomlKeys(text);
    expect(Object.fromEntries(located)).toEqual({
      top: 1,
      a: 2,
      'a.b': 3,
      'a.b.c': 3,
      'a.d': 6,
      'a.quoted.key': 10,
      list: 11,
      'list.0': 11,
      'list.0.item': 12,
      'list.1': 13,
      'list.1.sub': 14,
      'list.1.sub.literal': 15,
      'list.1.sub.y': 17,
    });
    expect(nearestLine(located, 'list.1.sub.missing.deeper')).toBe(14);
    expect(nearestLine(located, 'nowhere')).toBeUndefined();
  });
});

/** Real TOML files from elsewhere (tests/fixtures/public/README.md), neither of them a psyche. */
const publicFixture = (name: string) =>
  readFileSync(new URL(`../../../tests/fixtures/public/${name}`, import.meta.url), 'utf8');

describe('real TOML files that are not psyches', () => {
  test("the toml crate's Cargo.toml is refused as not a psyche, naming its top-level keys", () => {
    expect(readFailed(publicFixture('toml-rs-0.5.11.Cargo.toml'), otherBase()).problems).toEqual([
      {
        message:
          'not a psyche file: it has none of [persona], [shadow], [archetypes], [self_integration], [grammar] (its top-level keys are package, dependencies, dev-dependencies, features)',
      },
    ]);
  });

  test("toml-test's table defined twice is refused as invalid TOML, naming the line of the second", () => {
    const problems = readFailed(publicFixture('toml-test-invalid-table-duplicate.toml')).problems;
    expect(problems).toMatchObject([{ line: 4, message: expect.stringMatching(/^invalid TOML: /) }]);
  });
});

describe('unknown values that cannot travel', () => {
  test('dates are kept as their text and nan or inf are dropped, each with a warning, so exports and snapshots always work', () => {
    const outcome = readOk(
      '[persona]\nname = "Clerk"\ngrammar_preference = "terse"\ntraits = []\ntone = []\nborn = 1979-05-27\nweird = nan\nlist = [1, inf]\n',
    );
    expect(outcome.psyche.extras).toEqual({ persona: { born: '1979-05-27' } });
    expect(outcome.warnings.map((warning) => warning.message)).toEqual(
      expect.arrayContaining([
        'unknown key persona.born, kept (its dates as text)',
        'unknown key persona.weird holds nan or inf, which Anima cannot keep; dropped',
        'unknown key persona.list holds nan or inf, which Anima cannot keep; dropped',
      ]),
    );
    const stored = JSON.parse(JSON.stringify(outcome.psyche)) as typeof outcome.psyche;
    expect(stored).toEqual(outcome.psyche);
    expect(psycheToToml(stored)).toBe(psycheToToml(outcome.psyche));
  });
});

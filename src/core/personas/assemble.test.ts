import { describe, expect, it } from 'vitest';
import { assemblePersona, type PersonaDefinition } from './assemble.ts';
import type { ArcStageRecord, PartRecord, PartType } from '#core/records/persona-catalog.ts';
import { estimateTokens } from './token-estimate.ts';

let nextId = 1;
const stamp = { createdAt: 1, updatedAt: 1 };
const part = (name: string, type: PartType, summary: string, content = ''): PartRecord => ({
  id: nextId++,
  name,
  type,
  summary,
  content,
  description: '',
  tags: [],
  ...stamp,
});
const stage = (name: string, position: number): ArcStageRecord => ({
  id: nextId++,
  arcId: 1,
  name,
  position,
  description: '',
  condition: '',
  createdAt: 1,
});

function mentor(): PersonaDefinition {
  return {
    persona: {
      id: 1,
      name: 'Mentor',
      description: '',
      summary: 'A patient teacher.',
      detail: 'A patient teacher who explains step by step.',
      tags: [],
      ...stamp,
    },
    parts: [
      {
        part: part('calm-identity', 'identity', 'You are a mentor.', 'You are a mentor with twenty years of teaching.'),
        order: 0,
        priority: 10,
        pinned: true,
      },
      { part: part('warm-tone', 'tone', 'Speak warmly.'), order: 1, priority: 5, pinned: false },
      {
        part: part(
          'teach-goal',
          'goal',
          'Help the learner understand.',
          'Help the learner understand, checking each step.',
        ),
        order: 2,
        priority: 1,
        pinned: false,
      },
    ],
    traits: [
      {
        id: 1,
        name: 'patient',
        type: 'emotional',
        description: 'Never rushes.',
        instruction: 'Wait for the learner before moving on.',
        tags: [],
        ...stamp,
      },
    ],
    skills: [
      {
        id: 1,
        name: 'socratic',
        description: 'Asks questions.',
        content: 'Lead with questions rather than answers.',
        tags: [],
        ...stamp,
      },
    ],
    guardrails: [
      {
        id: 1,
        name: 'no-homework',
        description: 'Never does the homework.',
        content: 'Refuse to hand in work for the learner.',
        severity: 0.9,
        triggers: ['homework'],
        requireApproval: false,
        tags: [],
        ...stamp,
      },
    ],
  };
}

const assembled = (definition: PersonaDefinition, options: Parameters<typeof assemblePersona>[1]) => {
  const result = assemblePersona(definition, options);
  if (!result.ok) throw new Error(`over budget: ${JSON.stringify(result.error)}`);
  return result.value;
};

describe('assembling a persona', () => {
  it('lists the persona, its parts in order, traits, skills and guardrails; the detail view shows content', () => {
    const summary = assembled(mentor(), { detail: false });
    expect(summary.text).toBe(
      [
        '# Mentor\nA patient teacher.',
        '## Identity\nYou are a mentor.',
        '## Tone\nSpeak warmly.',
        '## Goal\nHelp the learner understand.',
        '## Traits\n- patient (emotional): Never rushes.',
        '## Skills\n- socratic: Asks questions.',
        '## Guardrails\n- no-homework: Never does the homework.',
      ].join('\n\n'),
    );
    expect(summary.tokens).toBe(estimateTokens(summary.text));
    const detail = assembled(mentor(), { detail: true });
    expect(detail.text).toContain('A patient teacher who explains step by step.');
    expect(detail.text).toContain('You are a mentor with twenty years of teaching.');
    // A part without content shows its summary in the detail view.
    expect(detail.text).toContain('## Tone\nSpeak warmly.');
    expect(detail.text).toContain('- patient (emotional): Wait for the learner before moving on.');
    expect(detail.text).toContain('- no-homework: Refuse to hand in work for the learner. (severity 0.9)');
  });

  it('takes a runtime override over the arc stage, and the arc stage over the persona, per type', () => {
    const definition = mentor();
    const stern = part('stern-tone', 'tone', 'Speak sternly.');
    const playful = part('playful-tone', 'tone', 'Speak playfully.');
    const stages = [stage('novice', 0), stage('master', 1)];
    definition.arc = {
      arc: { id: 1, name: 'growth', description: '', summary: '', ...stamp },
      stages,
      current: stages[1]!,
      stageParts: [stern],
    };
    const atStage = assembled(definition, { detail: false });
    expect(atStage.parts.map((entry) => [entry.name, entry.source])).toEqual([
      ['calm-identity', 'persona'],
      ['stern-tone', 'stage'],
      ['teach-goal', 'persona'],
    ]);
    expect(atStage.stage).toEqual({ arc: 'growth', stage: 'master' });
    const overridden = assembled(definition, { detail: false, overrides: { tone: playful } });
    expect(overridden.parts.map((entry) => [entry.name, entry.source])).toEqual([
      ['calm-identity', 'persona'],
      ['playful-tone', 'override'],
      ['teach-goal', 'persona'],
    ]);
    expect(overridden.text).toContain('Speak playfully.');
    expect(overridden.text).not.toContain('Speak warmly.');
    expect(overridden.text).not.toContain('Speak sternly.');
  });

  it('adds an override or stage part of a type the persona lacks at the end', () => {
    const result = assembled(mentor(), {
      detail: false,
      overrides: { flaw: part('impatient-flaw', 'flaw', 'Sometimes sighs.') },
    });
    expect(result.parts.at(-1)).toMatchObject({
      name: 'impatient-flaw',
      source: 'override',
      priority: 0,
      pinned: false,
    });
  });

  it('an override keeps the place, priority and pin of the parts it replaces', () => {
    const result = assembled(mentor(), {
      detail: false,
      overrides: { identity: part('strict-identity', 'identity', 'You are strict.') },
    });
    expect(result.parts[0]).toMatchObject({ name: 'strict-identity', priority: 10, pinned: true });
  });

  it('keeps only the asked types, and the top-N by priority with pinned parts first', () => {
    expect(assembled(mentor(), { detail: false, types: ['tone', 'goal'] }).parts.map((entry) => entry.name)).toEqual([
      'warm-tone',
      'teach-goal',
    ]);
    const limited = assembled(mentor(), { detail: false, limit: 2 });
    expect(limited.parts.map((entry) => entry.name)).toEqual(['calm-identity', 'warm-tone']);
    expect(limited.leftOut).toEqual([{ kind: 'part', name: 'teach-goal', because: 'limit' }]);
    expect(assembled(mentor(), { detail: false, limit: 0 }).parts).toEqual([]);
  });

  describe('within a token budget', () => {
    /** The tokens of what may not be left out: the persona, its guardrails, its pinned part in its summary. */
    const fixed = () => {
      const definition = mentor();
      const pinnedOnly = {
        ...definition,
        parts: definition.parts
          .filter((link) => link.pinned)
          .map((link) => ({ ...link, part: { ...link.part, content: '' } })),
        traits: [],
        skills: [],
      };
      return assembled(pinnedOnly, { detail: true }).tokens;
    };

    it('always keeps the pinned parts and guardrails, then adds parts by priority while they fit', () => {
      const all = assembled(mentor(), { detail: false });
      const generous = assembled(mentor(), { detail: false, budgetTokens: all.tokens });
      expect(generous.text).toBe(all.text);
      expect(generous.leftOut).toEqual([]);
      const tight = assembled(mentor(), { detail: false, budgetTokens: all.tokens - 1 });
      expect(tight.tokens).toBeLessThanOrEqual(all.tokens - 1);
      expect(tight.parts.map((entry) => entry.name)).toContain('calm-identity');
      expect(tight.guardrails).toEqual(['no-homework']);
      expect(tight.leftOut.length).toBeGreaterThan(0);
    });

    it('shortens a part to its summary before leaving it out (detail view)', () => {
      const detail = assembled(mentor(), { detail: true });
      const goalDetail = 'Help the learner understand, checking each step.';
      const goalSummary = 'Help the learner understand.';
      // Room for everything but the goal's longer content and the trait and skill lines.
      const budget = estimateTokens(
        detail.text.replace(goalDetail, goalSummary).replace(/\n\n## Traits[\s\S]*?(?=\n\n## Guardrails)/u, ''),
      );
      const result = assembled(mentor(), { detail: true, budgetTokens: budget });
      expect(result.parts.find((entry) => entry.name === 'teach-goal')).toMatchObject({
        view: 'summary',
        text: goalSummary,
      });
      expect(result.tokens).toBeLessThanOrEqual(budget);
    });

    it('leaves out parts, then traits and skills, that do not fit even in summary; a pinned part shortens first', () => {
      const result = assembled(mentor(), { detail: true, budgetTokens: fixed() });
      expect(result.parts).toEqual([
        expect.objectContaining({ name: 'calm-identity', view: 'summary', text: 'You are a mentor.' }),
      ]);
      expect(result.leftOut).toEqual([
        { kind: 'part', name: 'warm-tone', because: 'budget' },
        { kind: 'part', name: 'teach-goal', because: 'budget' },
        { kind: 'trait', name: 'patient', because: 'budget' },
        { kind: 'skill', name: 'socratic', because: 'budget' },
      ]);
      expect(result.tokens).toBe(fixed());
    });

    it('keeps a short part of lower priority rather than the whole detail of a higher one', () => {
      const definition = mentor();
      const long = definition.parts[2]!;
      definition.parts[2] = { ...long, priority: 50, part: { ...long.part, content: 'Step by step. '.repeat(200) } };
      const withoutLong = assembled(
        {
          ...definition,
          parts: definition.parts.map((link) =>
            link === definition.parts[2] ? { ...link, part: { ...link.part, content: '' } } : link,
          ),
        },
        { detail: true },
      );
      const result = assembled(definition, { detail: true, budgetTokens: withoutLong.tokens });
      expect(result.parts.map((part) => [part.name, part.view])).toEqual([
        ['calm-identity', 'detail'],
        ['warm-tone', 'detail'],
        ['teach-goal', 'summary'],
      ]);
      expect(result.leftOut).toEqual([]);
    });

    it('says so when the pinned parts alone exceed the budget, even in their summary', () => {
      const result = assemblePersona(mentor(), { detail: true, budgetTokens: fixed() - 1 });
      expect(result).toEqual({
        ok: false,
        error: {
          reason: 'pinned-over-budget',
          budgetTokens: fixed() - 1,
          fixedTokens: fixed(),
          pinned: ['calm-identity'],
        },
      });
    });

    it('a persona with no parts fits any budget that holds its own text', () => {
      const bare = { ...mentor(), parts: [], traits: [], skills: [], guardrails: [] };
      const result = assembled(bare, { detail: false, budgetTokens: 100 });
      expect(result.text).toBe('# Mentor\nA patient teacher.');
    });
  });
});

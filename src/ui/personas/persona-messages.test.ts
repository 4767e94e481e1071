import { describe, expect, it } from 'vitest';
import {
  REASON_TEXT,
  arcText,
  assembledPartText,
  compiledText,
  countsText,
  failureReport,
  guardrailText,
  importItemText,
  keptFieldsText,
  leftOutText,
  manifestTokensText,
  otherProblems,
  personaDeleteQuestion,
  problemsAt,
  reasonText,
  tokensText,
  usedByText,
  wornByText,
  wornText,
} from './persona-messages.ts';

describe('the words for refusals', () => {
  it('says each reason code in words, and a refusal as what was not done and why', () => {
    expect(Object.keys(REASON_TEXT).sort()).toEqual([
      'in-use',
      'invalid',
      'name-taken',
      'not-found',
      'pinned-over-budget',
      'read-only',
      'storage-full',
      'too-large',
    ]);
    expect(
      failureReport('warm-tone was not deleted', {
        ok: false,
        reason: 'in-use',
        problems: [{ message: '"warm-tone" is used by persona "Mentor"' }],
      }),
    ).toEqual({
      tone: 'failure',
      message: 'warm-tone was not deleted: it is still in use.',
      reason: 'in-use',
      problems: [{ message: '"warm-tone" is used by persona "Mentor"' }],
    });
    expect(reasonText('read-only')).toContain('open in another tab');
    expect(reasonText('something-new')).toBe('something-new');
  });

  it('puts each problem by its field, inner paths included, and lists the rest with their place', () => {
    const problems = [
      { path: 'name', message: 'a name needs at least one character' },
      { path: 'tags.1', message: 'a tag needs text' },
      { path: 'changes', message: 'the changes must be an object' },
      { message: 'odd' },
    ];
    expect(problemsAt(problems, 'name')).toEqual([problems[0]]);
    expect(problemsAt(problems, 'tags')).toEqual([problems[1]]);
    expect(problemsAt(problems, 'tag')).toEqual([]);
    expect(otherProblems(problems, ['name', 'tags'])).toEqual(['at changes: the changes must be an object', 'odd']);
  });
});

describe('the words for the catalog', () => {
  it('counts what a persona holds, names its arc and who wears it', () => {
    expect(countsText({ parts: 3, traits: 1, skills: 0, guardrails: 2 })).toBe(
      '3 parts, 1 trait, 0 skills, 2 guardrails',
    );
    expect(arcText({ name: 'growth', stage: 'stern' })).toBe('growth, at stage stern');
    expect(arcText(undefined)).toBe('none');
    expect(wornByText([])).toBe('no session');
    expect(wornByText(['My session'])).toBe('My session');
    expect(wornByText(['A', 'B', 'C'])).toBe('A, B and C');
    expect(wornText(undefined)).toBe('This session wears no persona.');
  });

  it('asks before a delete, saying that links go, parts stay and sessions wear none', () => {
    expect(personaDeleteQuestion({ name: 'Mentor', wornBy: ['My session'] })).toBe(
      'Delete the persona Mentor? Its links go; its parts, traits, skills and guardrails stay in the library. My session will wear no persona.',
    );
    expect(personaDeleteQuestion({ name: 'Mentor', wornBy: [] })).not.toContain('wear');
  });

  it('describes library items: who uses them, and what a guardrail does', () => {
    expect(usedByText(['Mentor', 'Guide'])).toBe('Used by Mentor, Guide');
    expect(usedByText([])).toBe('Not used');
    expect(guardrailText({ severity: 0.9, requireApproval: true, triggers: ['kg_mutate'] })).toBe(
      'severity 0.9, asks for approval, 1 trigger',
    );
    expect(guardrailText({ severity: 1, requireApproval: false, triggers: [] })).toBe(
      'severity 1, blocks, no triggers',
    );
  });
});

describe('the words for the assembled prompt', () => {
  const part = {
    name: 'stern-tone',
    type: 'tone' as const,
    source: 'stage' as const,
    priority: 0,
    pinned: true,
    view: 'summary' as const,
    text: 'Speak sternly.',
  };

  it("names each part's source, and a part the budget shortened", () => {
    expect(assembledPartText(part, 'summary')).toBe('stern-tone (Tone) · arc stage · pinned');
    expect(assembledPartText({ ...part, source: 'persona', pinned: false }, 'detail')).toBe(
      'stern-tone (Tone) · own · summary only (the budget shortened it)',
    );
    expect(assembledPartText({ ...part, source: 'override', pinned: false, view: 'detail' }, 'detail')).toBe(
      'stern-tone (Tone) · override',
    );
  });

  it('says what was left out and why, the tokens, and whether the compiled prompt is current', () => {
    expect(leftOutText({ kind: 'part', name: 'teach-goal', because: 'budget' })).toBe(
      'teach-goal (part): over the token budget',
    );
    expect(leftOutText({ kind: 'skill', name: 'socratic', because: 'limit' })).toBe(
      'socratic (skill): beyond the limit of parts',
    );
    expect(tokensText(1200)).toBe('about 1,200 tokens');
    expect(manifestTokensText({ summary: 40, detail: 55 })).toBe('Summary about 40 tokens; detail about 55 tokens');
    expect(manifestTokensText({ summary: 40, detail: 55, compiled: 41 })).toContain('compiled about 41 tokens');
    const time = () => 'noon';
    expect(compiledText(undefined, time)).toBe(
      'Not compiled yet: a session wearing it gives its model the summary as assembled now.',
    );
    expect(compiledText({ compiledAt: 1, isCurrent: true }, time)).toBe('Compiled noon.');
    expect(compiledText({ compiledAt: 1, isCurrent: false }, time)).toBe(
      'Compiled noon: out of date, the persona has changed since; its model still gets the compiled text until you compile again.',
    );
  });
});

describe('the words for an import', () => {
  it('says whether each item is new or reused, and which card fields are kept', () => {
    expect(
      importItemText({ kind: 'part', name: 'Seraphina: description', type: 'identity', summary: 'x', state: 'new' }),
    ).toBe('part Seraphina: description (identity): new');
    expect(importItemText({ kind: 'arc', name: 'growth', summary: '', state: 'reused' })).toBe(
      'arc growth: reused (the same one is already in the library)',
    );
    expect(keptFieldsText([])).toBe('none');
    expect(keptFieldsText(['first_mes', 'extensions.world'])).toBe('first_mes, extensions.world');
  });
});

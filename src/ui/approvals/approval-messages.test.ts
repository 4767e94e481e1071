import { describe, expect, it } from 'vitest';
import {
  actionInWords,
  approvalTitle,
  dateTimeText,
  describeAnswer,
  describeDecision,
  inputText,
  pendingCountText,
  readEditedInput,
  redTeamText,
} from './approval-messages.ts';

describe('describeDecision', () => {
  it('says what happens next after an approval or a denial', () => {
    const approval = {
      id: 1,
      goalId: 2,
      goalDescription: 'Learn about Mars',
      cycle: 3,
      tool: 'kg_query',
      action: 'tool=kg_query input={}',
      input: {},
      isEdited: false,
      pattern: 'ask_first',
      because: 'trigger "kg_query"',
      explanation: '',
      status: 'approved' as const,
      createdAt: 0,
    };
    expect(describeDecision('approve', { ok: true, approval })).toEqual({
      tone: 'success',
      message: 'Approved: run the agent to carry it out.',
    });
    expect(describeDecision('deny', { ok: true, approval: { ...approval, status: 'denied' } })).toEqual({
      tone: 'success',
      message: 'Denied: the goal goes on without it.',
    });
    expect(describeDecision('approve', { ok: true, approval: { ...approval, isEdited: true } })).toEqual({
      tone: 'success',
      message: 'Approved with your input: run the agent to carry it out.',
    });
  });

  it('shows an input as JSON to edit, and reads an edit back or says why it is not JSON', () => {
    expect(inputText({ symbol: 3 })).toBe('{\n  "symbol": 3\n}');
    expect(readEditedInput(' {"symbol": 4} ')).toEqual({ ok: true, input: { symbol: 4 } });
    expect(readEditedInput('{symbol: 4}')).toEqual({
      ok: false,
      message:
        'The edited input is not JSON: line 1, column 2, at $: a key in double quotes was expected, but "symbol" was found.',
    });
  });

  it('lists the problems when the agent refuses a decision', () => {
    expect(
      describeDecision('approve', { ok: false, problems: [{ path: 'approvalId', message: 'already decided' }] }),
    ).toEqual({
      tone: 'failure',
      message: 'The decision was not recorded:',
      problems: ['at approvalId: already decided'],
    });
  });
});

describe('pendingCountText', () => {
  it('counts pending approvals in words', () => {
    expect(pendingCountText(1)).toBe('1 pending approval');
    expect(pendingCountText(12)).toBe('12 pending approvals');
    expect(pendingCountText(0, 1)).toBe('1 question');
    expect(pendingCountText(2, 3)).toBe('2 pending approvals and 3 questions');
  });
});

describe('approvalTitle', () => {
  it('names the tool and the goal that asked', () => {
    expect(approvalTitle({ tool: 'kg_query', goalDescription: 'Learn about Mars' })).toBe(
      'kg_query for “Learn about Mars”',
    );
  });
});

describe('dateTimeText', () => {
  it('shows the year of a moment', () => {
    expect(dateTimeText(Date.UTC(2026, 2, 5, 12))).toContain('2026');
  });
});

describe('describeAnswer', () => {
  it('says how many facts an answer added, or why nothing changed', () => {
    const question = {
      id: 1,
      goalId: 1,
      goalDescription: 'g',
      cycle: 6,
      question: 'q',
      status: 'answered' as const,
      createdAt: 0,
    };
    expect(describeAnswer({ ok: true, question, factsAdded: 2 })).toEqual({
      tone: 'success',
      message: 'Answered: 2 facts added to the graph. Run the agent to let the goal go on.',
    });
    expect(describeAnswer({ ok: true, question, factsAdded: 0 })).toEqual({
      tone: 'success',
      message: 'Answered. Run the agent to let the goal go on.',
    });
    expect(
      describeAnswer({ ok: false, problems: [{ line: 2, path: 'facts', message: 'expected 3 or 4 fields' }] }),
    ).toEqual({
      tone: 'failure',
      message: 'The answer was not recorded; nothing changed:',
      problems: ['line 2, at facts: expected 3 or 4 fields'],
    });
  });

  it('says why an answer to a question asked by a since changed tool was not applied', () => {
    const reason =
      'user_interact changed since it asked this question; your answer is kept on it but was not applied, and the agent asks again if it still needs to know';
    const question = {
      id: 1,
      goalId: 1,
      goalDescription: 'g',
      cycle: 6,
      question: 'q',
      status: 'withdrawn' as const,
      reason,
      answer: 'a note',
      factsAdded: 0,
      createdAt: 0,
    };
    expect(describeAnswer({ ok: true, question, factsAdded: 0 })).toEqual({
      tone: 'failure',
      message: `The question was withdrawn: ${reason}. Run the agent to let the goal go on.`,
      problems: [],
    });
  });
});

describe('an action in words', () => {
  it('says what the action does before its tool and input', () => {
    expect(
      actionInWords({
        tool: 'kg_mutate',
        input: { changes: [{ op: 'retract', subject: 'Dog', predicate: 'is-a', object: 'Canine' }] },
      }),
    ).toBe('Forget that Dog is-a Canine.');
    expect(
      actionInWords({
        tool: 'kg_mutate',
        input: {
          changes: [
            { op: 'assert', subject: 'Rex', predicate: 'is-a', object: 'Dog' },
            { op: 'retract', subject: 'Rex', predicate: 'is-a', object: 'Cat' },
          ],
        },
      }),
    ).toBe('Remember that Rex is-a Dog; forget that Rex is-a Cat.');
    expect(actionInWords({ tool: 'http_fetch', input: { url: 'https://example.org/dogs' } })).toBe(
      'Fetch the web page https://example.org/dogs.',
    );
    expect(actionInWords({ tool: 'infer_rules', input: {} })).toBe('Derive new facts with the rules.');
    expect(actionInWords({ tool: 'some_new_tool', input: {} })).toBe('Run the tool some_new_tool.');
  });
});

describe("a red team's finding with its approval", () => {
  it('lists each breach path with its severity, says when there is none, and names a bottleneck', () => {
    expect(redTeamText({ breachPaths: [{ path: 'could leak the key', severity: 'high' }] })).toEqual([
      'High: could leak the key',
    ]);
    expect(redTeamText({ breachPaths: [] })).toEqual(['The red team found no breach path.']);
    expect(redTeamText({ bottleneck: { kind: 'invalid_output', detail: '3 answers, none valid' } })).toEqual([
      'The red team gave no finding: invalid output — 3 answers, none valid.',
    ]);
  });
});

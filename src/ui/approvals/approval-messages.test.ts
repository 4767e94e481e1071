import { describe, expect, it } from 'vitest';
import { approvalTitle, dateTimeText, describeDecision, pendingCountText } from './approval-messages.ts';

describe('describeDecision', () => {
  it('says what happens next after an approval or a denial', () => {
    const approval = {
      id: 1,
      goalId: 2,
      goalDescription: 'Learn about Mars',
      cycle: 3,
      tool: 'kg_query',
      action: 'tool=kg_query input={}',
      pattern: 'ask_first',
      because: 'trigger "kg_query"',
      explanation: '',
      status: 'approved' as const,
      createdAt: 0,
    };
    expect(describeDecision('approve', { ok: true, approval })).toEqual({ tone: 'success', message: 'Approved: run the agent to carry it out.' });
    expect(describeDecision('deny', { ok: true, approval: { ...approval, status: 'denied' } })).toEqual({ tone: 'success', message: 'Denied: the goal goes on without it.' });
  });

  it('lists the problems when the agent refuses a decision', () => {
    expect(describeDecision('approve', { ok: false, problems: [{ path: 'approvalId', message: 'already decided' }] })).toEqual({
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
  });
});

describe('approvalTitle', () => {
  it('names the tool and the goal that asked', () => {
    expect(approvalTitle({ tool: 'kg_query', goalDescription: 'Learn about Mars' })).toBe('kg_query for “Learn about Mars”');
  });
});

describe('dateTimeText', () => {
  it('shows the year of a moment', () => {
    expect(dateTimeText(Date.UTC(2026, 2, 5, 12))).toContain('2026');
  });
});

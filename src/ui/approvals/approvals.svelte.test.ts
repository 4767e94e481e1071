import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { AgentApi, ApprovalView, QuestionView } from '#core/api.ts';
import { Approvals, type ApprovalsHost } from './approvals.svelte.ts';

function approval(id: number, status: ApprovalView['status'] = 'pending'): ApprovalView {
  return {
    id,
    goalId: 1,
    goalDescription: 'Learn about Mars',
    cycle: id,
    tool: 'kg_query',
    action: `tool=kg_query input={"symbol":${id}}`,
    input: { symbol: id },
    isEdited: false,
    pattern: 'ask_first',
    because: 'trigger "kg_query"',
    explanation: 'Queries wait for you.',
    status,
    createdAt: id,
  };
}

function question(id: number, status: QuestionView['status'] = 'pending'): QuestionView {
  return {
    id,
    goalId: 1,
    goalDescription: 'Learn about Mars',
    cycle: 6,
    question: 'What do you know about "volcano"?',
    status,
    createdAt: id,
  };
}

/**
 * A fake agent holding scripted approvals and questions: a decision or an answer changes the
 * status as the service does. It records the calls it gets (question lists aside), and can hold
 * count answers back until released.
 */
function fakeHost(options: {
  approvals: ApprovalView[];
  questions?: QuestionView[];
  canWrite?: boolean;
  isHoldingCounts?: boolean;
}) {
  const calls: string[] = [];
  const held: (() => void)[] = [];
  let approvals = options.approvals;
  let questions = options.questions ?? [];
  const pendingCount = () => approvals.filter((known) => known.status === 'pending').length;
  const client = {
    approvalList: async ({ limit }: { limit?: number }) => {
      calls.push(`approvalList ${limit}`);
      if (options.isHoldingCounts && limit === 1) await new Promise<void>((resolve) => held.push(resolve));
      return { approvals: approvals.slice(0, limit), pendingCount: pendingCount() };
    },
    approvalDecide: async ({
      approvalId,
      decision,
      reason,
      input,
    }: {
      approvalId: number;
      decision: 'approve' | 'deny';
      reason?: string;
      input?: unknown;
    }) => {
      calls.push(
        `approvalDecide ${approvalId} ${decision}${reason ? ` ${reason}` : ''}${input !== undefined ? ` input=${JSON.stringify(input)}` : ''}`,
      );
      const known = approvals.find((candidate) => candidate.id === approvalId);
      if (!known || known.status !== 'pending')
        return { ok: false as const, problems: [{ message: `approval ${approvalId} is not pending` }] };
      const edit = input !== undefined ? { input, isEdited: true } : {};
      const decided: ApprovalView = {
        ...known,
        ...edit,
        status: decision === 'approve' ? 'approved' : 'denied',
        ...(reason ? { reason } : {}),
        decidedAt: 10,
      };
      approvals = [...approvals.filter((candidate) => candidate !== known), decided];
      return { ok: true as const, approval: decided };
    },
    questionList: async ({ limit }: { limit?: number }) => ({
      questions: questions.slice(0, limit),
      pendingCount: questions.filter((known) => known.status === 'pending').length,
    }),
    questionAnswer: async ({ questionId, facts, note }: { questionId: number; facts?: string; note?: string }) => {
      calls.push(`questionAnswer ${questionId} ${facts ?? ''}|${note ?? ''}`);
      if (facts === 'Mars, is-a')
        return {
          ok: false as const,
          problems: [
            {
              line: 1,
              path: 'facts',
              message: 'expected 3 or 4 fields (subject,predicate,object[,confidence]), found 2',
            },
          ],
        };
      const answered: QuestionView = {
        ...question(questionId),
        status: 'answered',
        answer: `${facts ?? ''}\n${note ?? ''}`.trim(),
        factsAdded: facts ? 1 : 0,
      };
      questions = questions.map((known) => (known.id === questionId ? answered : known));
      return { ok: true as const, question: answered, factsAdded: answered.factsAdded! };
    },
  } satisfies Partial<AgentApi>;
  const host: ApprovalsHost = {
    client: client as unknown as AgentApi,
    sessionId: 's',
    canWrite: options.canWrite ?? true,
    run: {
      loadGoals: async () => {
        calls.push('goalList');
      },
    },
  };
  return { host, calls, held };
}

describe('Approvals', () => {
  it('lists pending approvals apart from decided ones, with the count for the badge', async () => {
    const { host } = fakeHost({ approvals: [approval(1), approval(2), approval(3, 'done')] });
    const approvals = new Approvals(host);
    await approvals.load();
    flushSync();
    expect(approvals.status).toBe('ready');
    expect(approvals.pending.map((known) => known.id)).toEqual([1, 2]);
    expect(approvals.decided.map((known) => known.id)).toEqual([3]);
    expect(approvals.pendingCount).toBe(2);
  });

  it('denies with the reason given, says the goal goes on, and fetches the approvals and the goals again', async () => {
    const { host, calls } = fakeHost({ approvals: [approval(1)] });
    const approvals = new Approvals(host);
    await approvals.load();
    await approvals.decide(1, 'deny', '  not now ');
    flushSync();
    expect(approvals.decision).toEqual({
      status: 'ended',
      approvalId: 1,
      tone: 'success',
      message: 'Denied: the goal goes on without it.',
    });
    expect(approvals.pendingCount).toBe(0);
    expect(approvals.decided[0]).toMatchObject({ status: 'denied', reason: 'not now' });
    expect(calls).toEqual(['approvalList 100', 'approvalDecide 1 deny not now', 'approvalList 100', 'goalList']);

    approvals.forgetDecision();
    expect(approvals.decision).toEqual({ status: 'idle' });
  });

  it('approves without a reason, and reports a decision the agent refuses', async () => {
    const { host, calls } = fakeHost({ approvals: [approval(1)] });
    const approvals = new Approvals(host);
    await approvals.decide(1, 'approve', 'ignored for approvals');
    expect(approvals.decision).toMatchObject({ tone: 'success', message: 'Approved: run the agent to carry it out.' });
    await approvals.decide(1, 'deny');
    expect(approvals.decision).toEqual({
      status: 'ended',
      approvalId: 1,
      tone: 'failure',
      message: 'The decision was not recorded:',
      problems: ['approval 1 is not pending'],
    });
    expect(calls.filter((call) => call.startsWith('approvalDecide'))).toEqual([
      'approvalDecide 1 approve',
      'approvalDecide 1 deny',
    ]);
  });

  it('approves with an edited input, which it sends only with an approval', async () => {
    const { host, calls } = fakeHost({ approvals: [approval(1), approval(2)] });
    const approvals = new Approvals(host);
    await approvals.decide(1, 'approve', '', { input: { symbol: 9 } });
    expect(approvals.decision).toMatchObject({
      tone: 'success',
      message: 'Approved with your input: run the agent to carry it out.',
    });
    await approvals.decide(2, 'deny', '', { input: { symbol: 9 } });
    expect(calls.filter((call) => call.startsWith('approvalDecide'))).toEqual([
      'approvalDecide 1 approve input={"symbol":9}',
      'approvalDecide 2 deny',
    ]);
  });

  it('decides nothing in a read-only tab, and says why', async () => {
    const { host, calls } = fakeHost({ approvals: [approval(1)], canWrite: false });
    const approvals = new Approvals(host);
    expect(approvals.blockedReason).toMatch(/open in another tab/);
    await approvals.decide(1, 'approve');
    expect(calls).toEqual([]);
  });

  it('counts once more after the count in flight when asked again, however often', async () => {
    const { host, calls, held } = fakeHost({ approvals: [approval(1)], isHoldingCounts: true });
    const approvals = new Approvals(host);
    const first = approvals.refreshCount();
    const second = approvals.refreshCount();
    expect(approvals.refreshCount()).toBe(second);
    await Promise.resolve();
    expect(calls).toEqual(['approvalList 1']);

    held.shift()?.();
    await first;
    await Promise.resolve();
    expect(calls).toEqual(['approvalList 1', 'approvalList 1']);
    held.shift()?.();
    await second;
    expect(approvals.pendingCount).toBe(1);
  });

  it('reports a list that cannot be fetched, and keeps the last count when a count fails', async () => {
    const host: ApprovalsHost = {
      client: {
        approvalList: async () => Promise.reject(new Error('not implemented')),
        questionList: async () => ({ questions: [], pendingCount: 0 }),
      } as unknown as AgentApi,
      sessionId: 's',
      canWrite: true,
      run: { loadGoals: async () => undefined },
    };
    const approvals = new Approvals(host);
    await approvals.load();
    expect(approvals.status).toBe('error');
    expect(approvals.errorMessage).toBe('not implemented');
    await approvals.refreshCount();
    expect(approvals.pendingCount).toBe(0);
  });

  it('answers a question with facts and a note, says what comes next, and reports an answer the agent refuses', async () => {
    const { host, calls } = fakeHost({ approvals: [], questions: [question(1)] });
    const approvals = new Approvals(host);
    await approvals.load();
    flushSync();
    expect(approvals.pendingQuestions.map((known) => known.id)).toEqual([1]);
    expect(approvals.pendingQuestionCount).toBe(1);
    await approvals.answerQuestion(1, 'Mars, is-a', '');
    expect(approvals.answer).toEqual({
      status: 'ended',
      questionId: 1,
      tone: 'failure',
      message: 'The answer was not recorded; nothing changed:',
      problems: ['line 1, at facts: expected 3 or 4 fields (subject,predicate,object[,confidence]), found 2'],
    });
    await approvals.answerQuestion(1, 'Mars, has-feature, OlympusMons', 'the largest');
    flushSync();
    expect(approvals.answer).toMatchObject({
      tone: 'success',
      message: 'Answered: 1 fact added to the graph. Run the agent to let the goal go on.',
    });
    expect(approvals.pendingQuestionCount).toBe(0);
    expect(approvals.closedQuestions[0]).toMatchObject({ status: 'answered' });
    expect(calls.filter((call) => call !== 'approvalList 100')).toEqual([
      'questionAnswer 1 Mars, is-a|',
      'goalList',
      'questionAnswer 1 Mars, has-feature, OlympusMons|the largest',
      'goalList',
    ]);
  });
});

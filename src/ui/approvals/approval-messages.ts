import { type AgentApi, type ApprovalView, type QuestionView, readJson, toolAction } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { bottleneckText } from '../common/model-messages.ts';
import type { BadgeTone } from '../goals/badge-tone.ts';

/**
 * The words of the Approvals screen, kept apart from its components so they can be tested:
 * statuses, what a decision leads to, and the count the navigation shows.
 */

export type ApprovalStatus = ApprovalView['status'];
export type Decision = 'approve' | 'deny';

/** An approval's status as its badge reads. */
export const APPROVAL_STATUS_LABELS = {
  pending: 'Pending',
  approved: 'Approved',
  denied: 'Denied',
  done: 'Done',
  invalidated: 'Invalidated',
} as const satisfies Record<ApprovalStatus, string>;

/** The colour of an approval's status badge (the tones of goals/badge.svelte). */
export const APPROVAL_STATUS_TONES = {
  pending: 'accent',
  approved: 'success',
  denied: 'danger',
  done: 'success',
  invalidated: 'neutral',
} as const satisfies Record<ApprovalStatus, BadgeTone>;

/** What a decision leads to, said after it is recorded. */
export const DECISION_OUTCOMES = {
  approve: 'Approved: run the agent to carry it out.',
  deny: 'Denied: the goal goes on without it.',
} as const satisfies Record<Decision, string>;

/** What an approval with an edited input says once recorded. */
export const EDITED_APPROVAL_OUTCOME = 'Approved with your input: run the agent to carry it out.';

/** The input as the editor shows it: two-space JSON. */
export function inputText(input: unknown): string {
  return JSON.stringify(input, null, 2) ?? '';
}

/** The most an edited tool input holds: far more than any tool takes. */
const MAX_EDITED_INPUT_BYTES = 100_000;

/** Reads the edited input as JSON, or says where it is not JSON (quoting at most a short piece of it). */
export function readEditedInput(text: string): { ok: true; input: unknown } | { ok: false; message: string } {
  // Tool inputs are flat; the approval keeps the input, and a snapshot nests it three levels deeper.
  const read = readJson(text, { maxBytes: MAX_EDITED_INPUT_BYTES, maxDepth: 16 });
  return read.ok
    ? { ok: true, input: read.value }
    : { ok: false, message: `The edited input is not JSON: ${describeProblem(read.error[0]!)}.` };
}

export const READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can change the session: close it to approve or deny actions here.';

/** How a decision went: what happens next, or why it was not recorded. */
export type DecisionReport =
  { tone: 'success'; message: string } | { tone: 'failure'; message: string; problems: string[] };

/** Says how a decision went, from approvalDecide's answer. */
export function describeDecision(
  decision: Decision,
  result: Awaited<ReturnType<AgentApi['approvalDecide']>>,
): DecisionReport {
  if (result.ok)
    return {
      tone: 'success',
      message: result.approval.isEdited ? EDITED_APPROVAL_OUTCOME : DECISION_OUTCOMES[decision],
    };
  return { tone: 'failure', message: 'The decision was not recorded:', problems: result.problems.map(describeProblem) };
}

/** The navigation badge's words for screen readers: "1 pending approval", "2 questions", or both joined by "and". */
export function pendingCountText(approvals: number, questions = 0): string {
  const parts = [
    ...(approvals > 0 || questions === 0
      ? [`${approvals.toLocaleString('en')} pending ${approvals === 1 ? 'approval' : 'approvals'}`]
      : []),
    ...(questions > 0 ? [`${questions.toLocaleString('en')} ${questions === 1 ? 'question' : 'questions'}`] : []),
  ];
  return parts.join(' and ');
}

/** A question's status as its badge reads. */
export const QUESTION_STATUS_LABELS = {
  pending: 'Waiting for your answer',
  answered: 'Answered',
  withdrawn: 'Withdrawn',
} as const satisfies Record<QuestionView['status'], string>;

export const QUESTION_STATUS_TONES = {
  pending: 'accent',
  answered: 'success',
  withdrawn: 'neutral',
} as const satisfies Record<QuestionView['status'], BadgeTone>;

/** How an answer went: what happens next, why it was not applied, or why nothing changed. */
export function describeAnswer(result: Awaited<ReturnType<AgentApi['questionAnswer']>>): DecisionReport {
  if (!result.ok)
    return {
      tone: 'failure',
      message: 'The answer was not recorded; nothing changed:',
      problems: result.problems.map(describeProblem),
    };
  // The tool that asked changed since: the question was withdrawn instead.
  if (result.question.status === 'withdrawn')
    return {
      tone: 'failure',
      message: `The question was withdrawn: ${result.question.reason ?? 'it can no longer be answered'}. Run the agent to let the goal go on.`,
      problems: [],
    };
  const facts = result.factsAdded === 1 ? '1 fact' : `${result.factsAdded.toLocaleString('en')} facts`;
  return {
    tone: 'success',
    message: `Answered${result.factsAdded > 0 ? `: ${facts} added to the graph` : ''}. Run the agent to let the goal go on.`,
  };
}

/** An approval's heading: "kg_query for “Learn about Mars”". */
export function approvalTitle(approval: Pick<ApprovalView, 'tool' | 'goalDescription'>): string {
  return `${approval.tool} for “${approval.goalDescription}”`;
}

/** A moment as the screens show it, in the reader's time zone: "5 Mar 2026, 14:03". */
export function dateTimeText(milliseconds: number): string {
  return new Date(milliseconds).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An action as a sentence, before its exact input: "Forget that Dog is-a Canine", "Fetch the web
 * page https://…". The tool's name and its input JSON stay one click away.
 */
export function actionInWords(approval: Pick<ApprovalView, 'tool' | 'input'>): string {
  const { tool, input } = approval;
  if (tool === 'kg_mutate' && isRecord(input) && Array.isArray(input['changes'])) {
    const changes = input['changes']
      .filter(isRecord)
      .map(
        (change) =>
          `${change['op'] === 'retract' ? 'forget' : 'remember'} that ${String(change['subject'])} ${String(change['predicate'])} ${String(change['object'])}`,
      );
    if (changes.length > 0) return `${changes.join('; ').replace(/^./, (first) => first.toUpperCase())}.`;
  }
  if (tool === 'http_fetch' && isRecord(input) && typeof input['url'] === 'string')
    return `Fetch the web page ${input['url']}.`;
  if (tool === 'sparql_query' && isRecord(input) && typeof input['endpoint'] === 'string')
    return `Ask the SPARQL endpoint ${input['endpoint']}.`;
  if (tool === 'kg_query' && isRecord(input) && typeof input['pattern'] === 'string')
    return `Query the knowledge graph for ${input['pattern']}.`;
  return `${toolAction(tool)}.`;
}

/** What a red-team child run found before the action waited, in words: each breach path with its severity, none, or why it stopped. */
export function redTeamText(finding: NonNullable<ApprovalView['redTeam']>): string[] {
  if (finding.bottleneck) return [`The red team gave no finding: ${bottleneckText(finding.bottleneck)}.`];
  const paths = finding.breachPaths ?? [];
  return paths.length === 0
    ? ['The red team found no breach path.']
    : paths.map((breach) => `${SEVERITY_LABELS[breach.severity]}: ${breach.path}`);
}

const SEVERITY_LABELS = { low: 'Low', medium: 'Medium', high: 'High' } as const;

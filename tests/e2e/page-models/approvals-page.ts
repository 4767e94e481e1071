import { type Locator, type Page, expect } from '@playwright/test';

/** The first start loads the starter graph into a fresh database, which takes longer than a normal expectation. */
const OPEN_TIMEOUT_MS = 45_000;

/** A value of an approval, named by its label. */
export type ApprovalLabel =
  'Status' | 'Tool' | 'Goal' | 'Pattern' | 'Cycle' | 'Asked' | 'Decided' | 'Done in cycle' | 'Answered' | 'Facts added';

/** The Approvals screen: the questions and actions waiting for the user, then the answered and decided ones. */
export class ApprovalsPage {
  readonly page: Page;
  readonly pendingRegion: Locator;
  readonly pendingList: Locator;
  readonly decidedRegion: Locator;
  readonly decidedList: Locator;

  constructor(page: Page) {
    this.page = page;
    this.pendingRegion = page.getByRole('region', { name: 'Waiting for you', exact: true });
    this.pendingList = this.pendingRegion.getByRole('list', { name: 'Waiting for you', exact: true });
    this.decidedRegion = page.getByRole('region', { name: 'Decided', exact: true });
    this.decidedList = this.decidedRegion.getByRole('list', { name: 'Decided', exact: true });
  }

  async open(): Promise<void> {
    await this.page.goto('/#/approvals');
    await expect(this.pendingRegion).toBeVisible({ timeout: OPEN_TIMEOUT_MS });
  }

  /** A pending approval: an article named "<tool> for “<goal>”". */
  pending(tool: string, goal: string): Locator {
    return this.pendingList.getByRole('article', { name: `${tool} for “${goal}”`, exact: true });
  }

  /** A decided approval, newest first when there are several for the same tool and goal. */
  decided(tool: string, goal: string): Locator {
    return this.decidedList.getByRole('article', { name: `${tool} for “${goal}”`, exact: true }).first();
  }

  /** A value of an approval, in a group named by its label. */
  value(approval: Locator, label: ApprovalLabel): Locator {
    return approval.getByRole('group', { name: label, exact: true });
  }

  /** The action as the shadow read it: `tool=... input=...`. */
  action(approval: Locator): Locator {
    return approval.getByRole('definition').first();
  }

  /** The line that says what a decision leads to. */
  status(text: RegExp | string): Locator {
    return this.pendingRegion.getByRole('status').filter({ hasText: text });
  }

  /** A question of the agent about a goal: an article named "Question about “<goal>”" (the newest first when decided). */
  question(goal: string, where: 'pending' | 'decided' = 'pending'): Locator {
    return (where === 'pending' ? this.pendingList : this.decidedList)
      .getByRole('article', { name: `Question about “${goal}”`, exact: true })
      .first();
  }

  /** Answers a question with fact lines and/or a note. */
  async answer(question: Locator, answer: { facts?: string; note?: string }): Promise<void> {
    await question.getByRole('textbox', { name: /^Facts/ }).fill(answer.facts ?? '');
    await question.getByRole('textbox', { name: 'Note (optional)' }).fill(answer.note ?? '');
    await question.getByRole('button', { name: 'Answer', exact: true }).click();
  }

  /** A problem shown after an answer or a decision was refused. */
  alert(): Locator {
    return this.pendingRegion.getByRole('alert');
  }

  async approve(approval: Locator): Promise<void> {
    await approval.getByRole('button', { name: 'Approve', exact: true }).click();
  }

  /** Opens the input editor, writes the text in it, and approves the action with it. */
  async approveEdited(approval: Locator, input: string): Promise<void> {
    const editor = approval.getByRole('textbox', { name: /^Input to run instead/ });
    if (!(await editor.isVisible())) await approval.getByRole('button', { name: 'Edit input', exact: true }).click();
    await editor.fill(input);
    await approval.getByRole('button', { name: 'Approve with this input', exact: true }).click();
  }

  async deny(approval: Locator, reason = ''): Promise<void> {
    await approval.getByRole('textbox', { name: 'Reason for denying (optional)' }).fill(reason);
    await approval.getByRole('button', { name: 'Deny', exact: true }).click();
  }
}

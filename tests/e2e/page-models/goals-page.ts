import { type Locator, type Page, expect } from '@playwright/test';

/** The first start loads the starter graph into a fresh database, which takes longer than a normal expectation. */
const OPEN_TIMEOUT_MS = 45_000;

/** A run's first cycle usually runs the rules over the starter graph, which takes a moment. */
export const RUN_TIMEOUT_MS = 30_000;

/** A goal as the form takes it. */
export type NewGoal = { description: string; criteria?: string; priority?: number };

/** A goal's own actions. */
export type GoalAction = 'Suspend' | 'Resume' | 'Cancel' | 'Cancel the goal' | 'Keep it';

/** The run controls that the Goals and Cycles screens share: run one, some or all cycles, pause, show the next goal's plan, and reflect. */
export class RunControls {
  readonly page: Page;
  readonly region: Locator;
  readonly runOneButton: Locator;
  readonly cyclesInput: Locator;
  readonly runButton: Locator;
  readonly runUntilDoneButton: Locator;
  readonly pauseButton: Locator;
  readonly planButton: Locator;
  readonly reflectButton: Locator;
  readonly status: Locator;
  readonly alert: Locator;
  /** Which model runs bind ("Model: none."), with a link to Settings. */
  readonly boundModel: Locator;
  readonly settingsLink: Locator;

  constructor(page: Page) {
    this.page = page;
    this.region = page.getByRole('region', { name: 'Run cycles' });
    this.runOneButton = this.region.getByRole('button', { name: 'Run one cycle' });
    this.cyclesInput = this.region.getByRole('spinbutton', { name: 'Cycles' });
    this.runButton = this.region.getByRole('button', { name: 'Run', exact: true });
    this.runUntilDoneButton = this.region.getByRole('button', { name: 'Run until done' });
    this.pauseButton = this.region.getByRole('button', { name: 'Pause' });
    this.planButton = this.region.getByRole('button', { name: 'Plan', exact: true });
    this.reflectButton = this.region.getByRole('button', { name: 'Reflect', exact: true });
    this.status = this.region.getByRole('status');
    this.alert = this.region.getByRole('alert');
    this.boundModel = this.region.getByRole('group', { name: 'Model runs bind', exact: true });
    this.settingsLink = this.boundModel.getByRole('link', { name: 'Change it in Settings' });
  }

  /** Presses a shortcut key with focus on the page, not in a field. */
  async pressShortcut(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }

  /** Runs a number of cycles with the "Cycles" field and "Run", and waits until the run ends. */
  async runCycles(count: number): Promise<void> {
    await this.cyclesInput.fill(String(count));
    await this.runButton.click();
    await this.waitForRunEnd();
  }

  /**
   * Pauses a run that may end by itself at any moment, then waits until it has ended. Escape
   * pauses a run and does nothing once none is going, so a run that ends first needs no pause:
   * clicking Pause instead could find the button disabled between the check and the click.
   */
  async pauseIfRunning(): Promise<void> {
    await this.pressShortcut('Escape');
    await this.waitForRunEnd();
  }

  /** Waits until no run is going on: the status says how the last one ended. */
  async waitForRunEnd(): Promise<void> {
    await expect(this.status).toContainText(/^(Ran|Paused|Stopped|No goal is active)/, { timeout: RUN_TIMEOUT_MS });
  }
}

/** The Goals screen: the form to add a goal, the run controls, and the list of goals with their findings. */
export class GoalsPage {
  readonly page: Page;
  readonly run: RunControls;
  readonly addRegion: Locator;
  readonly descriptionInput: Locator;
  readonly criteriaInput: Locator;
  readonly priorityInput: Locator;
  readonly addButton: Locator;
  readonly addStatus: Locator;
  readonly addAlert: Locator;
  readonly goalList: Locator;

  constructor(page: Page) {
    this.page = page;
    this.run = new RunControls(page);
    this.addRegion = page.getByRole('region', { name: 'Add a goal' });
    this.descriptionInput = this.addRegion.getByRole('textbox', { name: 'Description' });
    this.criteriaInput = this.addRegion.getByRole('textbox', { name: 'Success criteria' });
    this.priorityInput = this.addRegion.getByRole('spinbutton', { name: 'Priority' });
    this.addButton = this.addRegion.getByRole('button', { name: 'Add goal' });
    this.addStatus = this.addRegion.getByRole('status');
    this.addAlert = this.addRegion.getByRole('alert');
    this.goalList = page.getByRole('list', { name: 'Goals', exact: true });
  }

  /** Opens the Goals screen and waits until the agent is open (on a first start, until the starter graph is loaded). */
  async open(): Promise<void> {
    await this.page.goto('/#/goals');
    await expect(this.descriptionInput).toBeVisible({ timeout: OPEN_TIMEOUT_MS });
  }

  /** Fills in the form and adds the goal, without waiting for the outcome. */
  async submitGoal(goal: NewGoal): Promise<void> {
    await this.descriptionInput.fill(goal.description);
    await this.criteriaInput.fill(goal.criteria ?? '');
    if (goal.priority !== undefined) await this.priorityInput.fill(String(goal.priority));
    await this.addButton.click();
  }

  /** Adds a goal and waits until the list shows it. */
  async addGoal(goal: NewGoal): Promise<void> {
    await this.submitGoal(goal);
    await expect(this.goal(goal.description)).toBeVisible();
  }

  /** A goal of the list (sub-goals included): an article named by its description. */
  goal(description: string): Locator {
    return this.goalList.getByRole('article', { name: description, exact: true });
  }

  /** A goal's status badge, in a group named "Status". */
  status(description: string): Locator {
    return this.goal(description).getByRole('group', { name: 'Status', exact: true });
  }

  cyclesWorked(description: string): Locator {
    return this.goal(description).getByRole('group', { name: 'Cycles worked', exact: true });
  }

  /** The number field of an active or suspended goal's priority. */
  priority(description: string): Locator {
    return this.goal(description).getByRole('spinbutton', { name: 'Priority' });
  }

  action(description: string, action: GoalAction): Locator {
    return this.goal(description).getByRole('button', { name: action, exact: true });
  }

  /** Cancels a goal, answering yes to the question it asks first. */
  async cancelGoal(description: string): Promise<void> {
    await this.action(description, 'Cancel').click();
    await this.action(description, 'Cancel the goal').click();
  }

  /** The "Findings (N)" disclosure of a goal. */
  findingsButton(description: string): Locator {
    return this.goal(description).getByRole('button', { name: /^Findings \(/ });
  }

  /** What the disclosure shows: a group named "Findings of <description>". */
  findings(description: string): Locator {
    return this.goal(description).getByRole('group', { name: `Findings of ${description}`, exact: true });
  }

  /** The findings that share a predicate and an object, e.g. "is-a Mammal"; each item reads "GoldenRetriever (0.90)". */
  findingGroup(description: string, predicateAndObject: string): Locator {
    return this.findings(description).getByRole('list', { name: predicateAndObject, exact: true });
  }

  async showFindings(description: string): Promise<void> {
    await this.findingsButton(description).click();
    await expect(this.findings(description)).toBeVisible();
  }

  /** The "Artifacts" disclosure of a goal for which tools kept something (its notes, an image, a file). */
  artifactsButton(description: string): Locator {
    return this.goal(description).getByRole('button', { name: 'Artifacts', exact: true });
  }

  /** What the disclosure shows: a group named "Artifacts of <description>". */
  artifacts(description: string): Locator {
    return this.goal(description).getByRole('group', { name: `Artifacts of ${description}`, exact: true });
  }

  /** One artifact of a goal, an article named by its file name. */
  artifact(description: string, name: string): Locator {
    return this.artifacts(description).getByRole('article', { name, exact: true });
  }

  /** Its preview: plain text or an image, in a figure named by the file name. */
  artifactPreview(description: string, name: string): Locator {
    return this.artifact(description, name).getByRole('figure');
  }

  artifactDownloadButton(description: string, name: string): Locator {
    return this.artifact(description, name).getByRole('button', { name: 'Download', exact: true });
  }

  async showArtifacts(description: string): Promise<void> {
    await this.artifactsButton(description).click();
    await expect(this.artifacts(description)).toBeVisible();
  }

  /** The "Plan" disclosure of a goal. */
  planButton(description: string): Locator {
    return this.goal(description).getByRole('button', { name: 'Plan', exact: true });
  }

  /** What the disclosure shows: a group named "Plan of <description>". */
  plan(description: string): Locator {
    return this.goal(description).getByRole('group', { name: `Plan of ${description}`, exact: true });
  }

  async showPlan(description: string): Promise<void> {
    await this.planButton(description).click();
    await expect(this.plan(description)).toBeVisible();
  }

  /** The steps of the goal's current plan (or latest, once it ended), in order. */
  currentPlanSteps(description: string): Locator {
    return this.plan(description).getByRole('list', { name: /^Steps of (current|latest) plan$/ });
  }

  /** A step of the current plan by its tool, e.g. "infer_rules"; it reads "2. infer_rules Completed in cycle 1 …". */
  currentPlanStep(description: string, tool: string): Locator {
    return this.currentPlanSteps(description)
      .getByRole('listitem')
      .filter({ has: this.page.getByText(tool, { exact: true }) });
  }

  /** The "Earlier plans (N)" disclosure of a goal's plan. */
  earlierPlansButton(description: string): Locator {
    return this.plan(description).getByRole('button', { name: /^Earlier plans \(/ });
  }

  earlierPlans(description: string): Locator {
    return this.plan(description).getByRole('list', { name: `Earlier plans of ${description}`, exact: true });
  }

  /** The list of sub-goals nested under a goal. */
  subGoals(description: string): Locator {
    return this.goalList.getByRole('list', { name: `Sub-goals of ${description}`, exact: true });
  }
}

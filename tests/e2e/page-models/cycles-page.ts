import { type Locator, type Page, expect } from '@playwright/test';
import { RunControls } from './goals-page.ts';

/** The first start loads the starter graph into a fresh database, which takes longer than a normal expectation. */
const OPEN_TIMEOUT_MS = 45_000;

/** The Cycles screen: the run controls, the agent's reflections and the cycle log, each newest first. */
export class CyclesPage {
  readonly page: Page;
  readonly run: RunControls;
  readonly cycleLog: Locator;
  readonly reflectionsRegion: Locator;
  readonly reflectionList: Locator;

  constructor(page: Page) {
    this.page = page;
    this.run = new RunControls(page);
    this.cycleLog = page.getByRole('list', { name: 'Cycle log', exact: true });
    this.reflectionsRegion = page.getByRole('region', { name: 'Reflections', exact: true });
    this.reflectionList = this.reflectionsRegion.getByRole('list', { name: 'Reflections', exact: true });
  }

  async open(): Promise<void> {
    await this.page.goto('/#/cycles');
    await expect(this.run.region).toBeVisible({ timeout: OPEN_TIMEOUT_MS });
  }

  /** Every cycle of the log, newest first: articles named "Cycle N". */
  entries(): Locator {
    return this.cycleLog.getByRole('article');
  }

  cycle(number: number): Locator {
    return this.cycleLog.getByRole('article', { name: `Cycle ${number.toLocaleString('en')}`, exact: true });
  }

  /** The tool a cycle chose, in a group named "Tool". */
  tool(number: number): Locator {
    return this.cycle(number).getByRole('group', { name: 'Tool', exact: true });
  }

  /** A cycle's outcome badge, in a group named "Outcome". */
  outcome(number: number): Locator {
    return this.cycle(number).getByRole('group', { name: 'Outcome', exact: true });
  }

  goal(number: number): Locator {
    return this.cycle(number).getByRole('group', { name: 'Goal', exact: true });
  }

  /** What a cycle's tool asked of a language model: "Model: …" and, when it stopped short, "Bottleneck: …". */
  modelUse(number: number): Locator {
    return this.cycle(number).getByRole('group', { name: 'Language model', exact: true });
  }

  scoresButton(number: number): Locator {
    return this.cycle(number).getByRole('button', { name: 'Scores', exact: true });
  }

  /** What the Scores disclosure shows: every candidate tool with its score and breakdown, or why it was skipped. */
  scores(number: number): Locator {
    return this.cycle(number).getByRole('list', {
      name: `Scores of cycle ${number.toLocaleString('en')}`,
      exact: true,
    });
  }

  /** Every reflection shown, newest first: articles named "Reflection at cycle N". */
  reflections(): Locator {
    return this.reflectionList.getByRole('article');
  }

  reflection(cycle: number): Locator {
    return this.reflectionList.getByRole('article', {
      name: `Reflection at cycle ${cycle.toLocaleString('en')}`,
      exact: true,
    });
  }

  /** Why a reflection ran ("Asked for", "Every 5 cycles"), in a group named "Trigger". */
  reflectionTrigger(cycle: number): Locator {
    return this.reflection(cycle).getByRole('group', { name: 'Trigger', exact: true });
  }

  /** The adjustments a reflection made, each with its reason. */
  reflectionAdjustments(cycle: number): Locator {
    return this.reflection(cycle).getByRole('list', { name: 'Adjustments', exact: true });
  }

  /** The tools a reflection counted, each "tool: N uses, M successes (P%)". */
  reflectionTools(cycle: number): Locator {
    return this.reflection(cycle).getByRole('list', { name: 'Tools used', exact: true });
  }

  async showScores(number: number): Promise<void> {
    await this.scoresButton(number).click();
    await expect(this.scores(number)).toBeVisible();
  }
}

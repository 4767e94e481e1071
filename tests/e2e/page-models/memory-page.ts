import { type Locator, type Page, expect } from '@playwright/test';

/** The first start loads the starter graph into a fresh database, which takes longer than a normal expectation. */
const OPEN_TIMEOUT_MS = 45_000;

/** The kinds of working memory entry, as their badges read. */
export type MemoryKind = 'Observation' | 'Decision' | 'Action' | 'Inference' | 'Reflection';

/** The Memory screen: working memory with its pressure and "Consolidate now", recall, and the episodes. */
export class MemoryPage {
  readonly page: Page;
  readonly workingMemoryRegion: Locator;
  readonly pressureMeter: Locator;
  readonly consolidateButton: Locator;
  readonly consolidateStatus: Locator;
  readonly consolidateAlert: Locator;
  readonly workingMemory: Locator;
  readonly episodes: Locator;
  readonly recallRegion: Locator;
  readonly recallInput: Locator;
  readonly recallButton: Locator;
  readonly recallStatus: Locator;
  readonly recalledEpisodes: Locator;

  constructor(page: Page) {
    this.page = page;
    this.workingMemoryRegion = page.getByRole('region', { name: 'Working memory', exact: true });
    this.pressureMeter = this.workingMemoryRegion.getByRole('meter', { name: 'Memory pressure' });
    this.consolidateButton = this.workingMemoryRegion.getByRole('button', { name: 'Consolidate now' });
    this.consolidateStatus = this.workingMemoryRegion.getByRole('status');
    this.consolidateAlert = this.workingMemoryRegion.getByRole('alert');
    this.workingMemory = page.getByRole('list', { name: 'Working memory', exact: true });
    this.episodes = page.getByRole('list', { name: 'Episodes', exact: true });
    this.recallRegion = page.getByRole('region', { name: 'Recall episodes', exact: true });
    this.recallInput = this.recallRegion.getByRole('textbox', { name: 'Recall', exact: true });
    this.recallButton = this.recallRegion.getByRole('button', { name: 'Recall', exact: true });
    this.recallStatus = this.recallRegion.getByRole('status');
    this.recalledEpisodes = this.recallRegion.getByRole('list', { name: 'Recalled episodes', exact: true });
  }

  /** Opens the Memory screen and waits until working memory is listed (on a first start, after the starter graph loads). */
  async open(): Promise<void> {
    await this.page.goto('/#/memory');
    await expect(this.pressureMeter).toBeVisible({ timeout: OPEN_TIMEOUT_MS });
  }

  /** The entries of working memory, newest first; each is an article named "<Kind>, cycle <N>". */
  entries(kind?: MemoryKind): Locator {
    return this.workingMemory.getByRole(
      'article',
      kind === undefined ? {} : { name: new RegExp(`^${kind}, cycle \\d`) },
    );
  }

  /** The entries of a kind that report on a tool, in a group named "Tool". */
  entriesWithTool(kind: MemoryKind, tool: string): Locator {
    return this.entries(kind).filter({
      has: this.page.getByRole('group', { name: 'Tool', exact: true }).filter({ hasText: tool }),
    });
  }

  /** A value of an entry or an episode, in a group named by its label ("Tool", "Relevance", "Goal", "Tools", "Score"). */
  value(container: Locator, label: string): Locator {
    return container.getByRole('group', { name: label, exact: true });
  }

  /** The symbols an entry names, or the learnings of an episode, as a list of chips. */
  chips(container: Locator, label: 'Symbols' | 'Learnings'): Locator {
    return container.getByRole('list', { name: label, exact: true });
  }

  /** The listed episodes, newest first: articles named "Episode of cycle N". */
  episodeItems(): Locator {
    return this.episodes.getByRole('article');
  }

  /** How many entries working memory holds: the pressure meter's value. */
  async entryCount(): Promise<number> {
    return Number(await this.pressureMeter.getAttribute('value'));
  }

  /**
   * The newest cycle the screen shows, from the newest entry's name ("Action, cycle 12") or the
   * newest episode's ("Episode of cycle 17"): a goal that ends leaves its entries to an episode.
   * 0 when both lists are empty.
   */
  async newestCycle(): Promise<number> {
    const cycleIn = (name: string | null) => Number(/cycle ([\d,]+)$/.exec(name ?? '')?.[1]?.replace(/,/g, '') ?? 0);
    const entry = this.entries().first();
    const episodeHeading = this.episodeItems().first().getByRole('heading');
    return Math.max(
      (await entry.count()) === 0 ? 0 : cycleIn(await entry.getAttribute('aria-label')),
      (await episodeHeading.count()) === 0 ? 0 : cycleIn(await episodeHeading.textContent()),
    );
  }

  async recall(text: string): Promise<void> {
    await this.recallInput.fill(text);
    await this.recallButton.click();
  }
}

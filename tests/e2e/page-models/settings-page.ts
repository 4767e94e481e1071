import { type Locator, type Page, expect } from '@playwright/test';

/** The first start loads the starter graph into a fresh database, which takes longer than a normal expectation. */
const OPEN_TIMEOUT_MS = 45_000;

/** The Settings screen's Agent section: planning, the reflection interval and the failed plans a goal may have. */
export class SettingsPage {
  readonly page: Page;
  readonly agentRegion: Locator;
  readonly planningCheckbox: Locator;
  readonly reflectionIntervalInput: Locator;
  readonly maxFailedPlansInput: Locator;
  readonly saveAgentButton: Locator;
  readonly agentStatus: Locator;
  readonly agentAlert: Locator;

  constructor(page: Page) {
    this.page = page;
    this.agentRegion = page.getByRole('region', { name: 'Agent', exact: true });
    this.planningCheckbox = this.agentRegion.getByRole('checkbox', { name: 'Planning', exact: true });
    this.reflectionIntervalInput = this.agentRegion.getByRole('spinbutton', { name: 'Reflection interval (cycles)', exact: true });
    this.maxFailedPlansInput = this.agentRegion.getByRole('spinbutton', { name: 'Failed plans before a goal fails', exact: true });
    this.saveAgentButton = this.agentRegion.getByRole('button', { name: 'Save agent settings', exact: true });
    this.agentStatus = this.agentRegion.getByRole('status');
    this.agentAlert = this.agentRegion.getByRole('alert');
  }

  /** Opens the Settings screen and waits until the agent settings are read. */
  async open(): Promise<void> {
    await this.page.goto('/#/settings');
    await expect(this.reflectionIntervalInput).toBeVisible({ timeout: OPEN_TIMEOUT_MS });
  }
}

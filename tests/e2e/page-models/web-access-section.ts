import { type Locator, type Page, expect } from '@playwright/test';

/** The first start loads the starter graph into a fresh database, which takes longer than a normal expectation. */
const OPEN_TIMEOUT_MS = 45_000;

/** The Settings screen's Web access section: the address prefixes http_fetch may GET, and its caps. */
export class WebAccessSection {
  readonly page: Page;
  readonly region: Locator;
  readonly prefixesInput: Locator;
  readonly saveButton: Locator;
  readonly status: Locator;

  constructor(page: Page) {
    this.page = page;
    this.region = page.getByRole('region', { name: 'Web access', exact: true });
    this.prefixesInput = this.region.getByRole('textbox', { name: 'Allowed address prefixes (one per line)' });
    this.saveButton = this.region.getByRole('button', { name: 'Save web access' });
    this.status = this.region.getByRole('status');
  }

  /** Opens the Settings screen, allows these prefixes and waits until they are saved. */
  async allow(prefixes: readonly string[]): Promise<void> {
    await this.page.goto('/#/settings');
    await expect(this.prefixesInput).toBeEditable({ timeout: OPEN_TIMEOUT_MS });
    await this.prefixesInput.fill(prefixes.join('\n'));
    await this.saveButton.click();
    await expect(this.status).toContainText('Saved: the agent may fetch from');
  }
}

import { type Locator, type Page, expect } from '@playwright/test';

/** Every destination of the main navigation, in order. */
export const SCREEN_TITLES = [
  'Start',
  'Goals',
  'Cycles',
  'Knowledge',
  'Memory',
  'Psyche',
  'Personas',
  'Models',
  'Approvals',
  'Sessions',
  'Settings',
] as const;
export type ScreenTitle = (typeof SCREEN_TITLES)[number];

/** The app's frame: the screen navigation and the current screen's heading. */
export class AppShell {
  readonly page: Page;
  readonly navigation: Locator;
  /** Says that another tab runs the session and this one shows it read-only. */
  readonly readOnlyNotice: Locator;
  /** Says that this tab took the session over when the tab that ran it closed. */
  readonly takeOverNotice: Locator;

  constructor(page: Page) {
    this.page = page;
    this.navigation = page.getByRole('navigation', { name: 'Screens' });
    this.readOnlyNotice = page.getByRole('status').filter({ hasText: 'open in another tab' });
    this.takeOverNotice = page.getByRole('status').filter({ hasText: 'This tab now runs the session' });
  }

  link(title: ScreenTitle): Locator {
    return this.navigation.getByRole('link', { name: title, exact: true });
  }

  heading(title: ScreenTitle): Locator {
    return this.page.getByRole('heading', { level: 1, name: title, exact: true });
  }

  /** Follows the navigation link to a screen and waits for its heading. */
  async goTo(title: ScreenTitle): Promise<void> {
    await this.link(title).click();
    await expect(this.heading(title)).toBeVisible();
  }

  /** How wide the page's content is; wider than the viewport means the page scrolls sideways. */
  async pageWidth(): Promise<number> {
    return this.page.evaluate(() => document.documentElement.scrollWidth);
  }
}

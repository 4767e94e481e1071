import { type Page, test as base } from '@playwright/test';
import type { SoakHarness } from './harness.ts';

type HarnessCall = {
  [Name in keyof SoakHarness]: SoakHarness[Name] extends (...parameters: infer P) => infer R
    ? (...parameters: P) => Promise<Awaited<R>>
    : never;
};

/** The harness page (tests/soak/harness.ts): each of its functions, called in the page with plain-data arguments. */
export class SoakPage {
  constructor(readonly page: Page) {}

  /** Loads the harness (again, after a reload) and waits until it is ready to be driven. */
  async load(): Promise<void> {
    await this.page.goto('/harness.html');
    await this.page.waitForFunction(() => 'soak' in window);
  }

  /** Reloads the page at once, killing its worker mid-whatever, and waits for the harness. */
  async reload(): Promise<void> {
    await this.page.reload();
    await this.page.waitForFunction(() => 'soak' in window);
  }

  /** Calls `window.soak[name](...parameters)` in the page. */
  readonly call = new Proxy({} as HarnessCall, {
    get:
      (_target, name: string) =>
      (...parameters: unknown[]) =>
        this.page.evaluate(
          ([functionName, values]) =>
            (window.soak as unknown as Record<string, (...values: unknown[]) => unknown>)[functionName]!(...values),
          [name, parameters] as const,
        ),
  });
}

export const test = base.extend<{ soak: SoakPage }>({
  soak: async ({ page }, use) => {
    const soak = new SoakPage(page);
    await soak.load();
    await use(soak);
  },
});

export { expect } from '@playwright/test';

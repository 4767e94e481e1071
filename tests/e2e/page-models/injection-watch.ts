import { type Page, expect } from '@playwright/test';

/** Markup a hostile file may carry: each piece, if it ever ran, would set `window.__xss`. */
export const MARKUP = {
  image: '<img src=x onerror="window.__xss=1">',
  script: '<script>window.__xss=2</script>',
  /** Closes an attribute first, as if the text were pasted into one. */
  svg: '"><svg onload="window.__xss=3">',
  link: 'javascript:window.__xss=4',
} as const;

/** Every piece of markup in one line, for text fields with room for it. */
export const ALL_MARKUP = Object.values(MARKUP).join(' ');

/** A report of one of the page's Content-Security-Policies (its text): what it refused, and where. */
export type PolicyViolation = { policy: string; directive: string; blocked: string; sample: string; source: string };

/**
 * Watches a page for markup that came alive: the reports of its Content-Security-Policy (kept in
 * the test, so that they outlast a reload), and what markup would leave in the page.
 */
export class InjectionWatch {
  readonly page: Page;
  readonly violations: PolicyViolation[] = [];

  constructor(page: Page) {
    this.page = page;
  }

  /** Starts listening, from the first script of every document the page loads. */
  async install(): Promise<void> {
    await this.page.exposeBinding('reportPolicyViolation', (_source, violation: PolicyViolation) => {
      this.violations.push(violation);
    });
    await this.page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { reportPolicyViolation: (violation: PolicyViolation) => void })
          .reportPolicyViolation;
        report({
          policy: event.originalPolicy,
          directive: event.effectiveDirective,
          blocked: event.blockedURI,
          sample: event.sample,
          source: `${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
        });
      });
    });
  }

  /**
   * Asserts that nothing the app was given ran or became markup: `window.__xss` unset, no image,
   * no inline script, no element with an event handler attribute, no javascript: link, and no
   * report of the policy (which refuses an inline handler before it could run).
   */
  async expectNothingRan(): Promise<void> {
    const page = await this.page.evaluate(() => ({
      xss: typeof (window as { __xss?: unknown }).__xss,
      images: document.images.length,
      inlineScripts: [...document.scripts].filter((script) => script.src === '').length,
      handlers: [...document.querySelectorAll('*')].filter((element) =>
        [...element.attributes].some((attribute) => attribute.name.startsWith('on')),
      ).length,
      scriptLinks: [...document.links].filter((link) => link.protocol === 'javascript:').length,
    }));
    expect(page).toEqual({ xss: 'undefined', images: 0, inlineScripts: 0, handlers: 0, scriptLinks: 0 });
    expect(this.violations).toEqual([]);
  }
}

/** Types of browser-suites.mjs, for the Playwright configs (TypeScript). */
export type BrowserSuiteName = 'e2e' | 'inference' | 'soak' | 'pictures';
export declare const BROWSER_SUITES: Record<
  BrowserSuiteName,
  { config: string; portVariable: string; defaultPort: number; report: string }
>;
export declare function suitePort(name: BrowserSuiteName): number;

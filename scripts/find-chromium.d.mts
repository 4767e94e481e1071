/** Types of find-chromium.mjs, for the Playwright config (TypeScript). */
export declare function findChromium(): Promise<string | undefined>;
export declare const CHROMIUM_FLAGS: readonly string[];

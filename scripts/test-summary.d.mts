/** Types of test-summary.mjs, for its tests (TypeScript). */
export type StageRun = { ran: boolean; status: number; reason?: string; report?: unknown };
export type Summary = { line: string; ok: boolean };
export declare function checkSummary(run: StageRun): Summary;
export declare function unitSummary(run: StageRun): Summary;
export declare function browserSummary(name: 'e2e' | 'inference', run: StageRun): Summary;
export declare function soakSummary(run: StageRun, seed: number | string | undefined): Summary;

/** Types of soak-seed.mjs, for the soak's tests (TypeScript). */
export declare const DEFAULT_SOAK_SEED: number;
export declare function soakSeed(text: string | undefined): number;

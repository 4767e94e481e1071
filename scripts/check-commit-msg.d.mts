/** Types of check-commit-msg.mjs, for its unit test (TypeScript). */
export declare const SUBJECT_LIMIT: number;
export declare function commitMessageProblems(message: string): string[];

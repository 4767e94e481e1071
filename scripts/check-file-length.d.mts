/** Types of check-file-length.mjs, for its unit test (TypeScript). */
export declare const LINE_LIMIT: number;
export declare function overLongFiles(root: string, limit?: number): { file: string; lines: number }[];

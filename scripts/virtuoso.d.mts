/** Types of virtuoso.mjs, for the tests and bench (TypeScript). */
export declare const GRAPH_IRI: string;
export declare function startVirtuoso(options?: {
  ntriples?: string;
  cors?: boolean;
  timeoutMs?: number;
}): Promise<{ url: string; httpPort: number; stop(): Promise<void> }>;

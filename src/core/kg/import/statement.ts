import type { Problem } from '#core/result.ts';
import type { Term } from '../term.ts';

/** One fact as a file states it, before its terms are resolved to symbols. */
export type ParsedStatement = { subject: Term; predicate: Term; object: Term; confidence?: number };

/**
 * A parser fed text chunk by chunk. It hands each complete statement to its sink as soon as it
 * is read, and reports the first problem it meets (after which it reads nothing more).
 */
export type StatementParser = {
  push(chunk: string): Problem | undefined;
  end(): Problem | undefined;
};

/** The file formats the knowledge graph imports. */
export const KG_IMPORT_FORMATS = ['n-triples', 'turtle', 'csv'] as const;
export type KgImportFormat = (typeof KG_IMPORT_FORMATS)[number];

/** The format a file name implies, if any. */
export function formatFromFileName(fileName: string): KgImportFormat | undefined {
  const extension = fileName.toLowerCase().split('.').pop();
  switch (extension) {
    case 'nt':
      return 'n-triples';
    case 'ttl':
      return 'turtle';
    case 'csv':
      return 'csv';
    default:
      return undefined;
  }
}

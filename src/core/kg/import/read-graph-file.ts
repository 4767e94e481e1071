import type { Problem, Result } from '../../result.ts';
import type { GraphBatch } from '../graph.ts';
import { createCsvParser } from './csv-parser.ts';
import { createRdfParser } from './rdf-parser.ts';
import type { KgImportFormat, ParsedStatement, StatementParser } from './statement.ts';

/** How far an import has got; bytes for the progress bar, statements for the count. */
export type ReadProgress = { bytesRead: number; totalBytes: number; statements: number };

/** A file's content as the worker or the CLI has it. */
export type GraphFileSource = string | Blob;

const STRING_CHUNK = 256 * 1024;
const DEFAULT_CONFIDENCE = 1;

/**
 * Reads a graph file chunk by chunk into a batch (nothing is stored here). Stops at the first
 * bad line with "line N: problem", or when the signal aborts.
 */
export async function readGraphFile(options: {
  source: GraphFileSource;
  format: KgImportFormat;
  batch: GraphBatch;
  signal?: AbortSignal;
  onProgress?: (progress: ReadProgress) => void;
}): Promise<Result<{ statements: number; totalBytes: number }, Problem[] | 'cancelled'>> {
  const { source, format, batch, signal, onProgress } = options;
  let statements = 0;
  const sink = (statement: ParsedStatement) => {
    const subject = batch.resolve(statement.subject, 'subject');
    const predicate = batch.resolve(statement.predicate, 'predicate');
    const object = batch.resolve(statement.object, 'object');
    batch.assert(subject, predicate, object, statement.confidence ?? DEFAULT_CONFIDENCE);
    statements++;
  };
  const parser: StatementParser = format === 'csv' ? createCsvParser(sink) : createRdfParser(format, sink);
  const totalBytes = typeof source === 'string' ? new TextEncoder().encode(source).length : source.size;
  let bytesRead = 0;
  for await (const { text, bytes } of chunksOf(source)) {
    if (signal?.aborted) return { ok: false, error: 'cancelled' };
    const problem = parser.push(text);
    if (problem) return { ok: false, error: [problem] };
    bytesRead += bytes;
    onProgress?.({ bytesRead, totalBytes, statements });
  }
  if (signal?.aborted) return { ok: false, error: 'cancelled' };
  const problem = parser.end();
  if (problem) return { ok: false, error: [problem] };
  return { ok: true, value: { statements, totalBytes } };
}

/** Text chunks of a source, decoded as UTF-8 across chunk boundaries; yields to the event loop between chunks. */
async function* chunksOf(source: GraphFileSource): AsyncGenerator<{ text: string; bytes: number }> {
  if (typeof source === 'string') {
    const encoder = new TextEncoder();
    for (let start = 0; start < source.length; start += STRING_CHUNK) {
      const text = source.slice(start, start + STRING_CHUNK);
      yield { text, bytes: encoder.encode(text).length };
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return;
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const reader = source.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield { text: decoder.decode(value, { stream: true }), bytes: value.byteLength };
    }
    const rest = decoder.decode();
    if (rest) yield { text: rest, bytes: 0 };
  } finally {
    reader.releaseLock();
  }
}

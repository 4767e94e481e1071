import { yieldToEvents } from '../slice.ts';
import type { Problem, Result } from '#core/result.ts';
import { StrictUtf8Stream } from '#core/text-bytes.ts';
import type { GraphBatch } from '../graph-batch.ts';
import type { TermRole } from '../graph-delta.ts';
import type { KgSymbol } from '../symbol.ts';
import type { Term } from '../term.ts';
import type { Triple } from '../triple.ts';
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
 * One import is staged in memory before it is stored (all or nothing), so its size is bounded:
 * past this many statements the import stops and asks for the file to be split.
 */
export const MAX_STATEMENTS_PER_IMPORT = 2_000_000;

/** What one statement staged in the batch: the symbols it made, the triple it added, or whether it raised one's confidence. */
export type StagedStatement = {
  symbols: KgSymbol[];
  added?: Omit<Triple, 'createdAt' | 'provenanceId'>;
  raised: boolean;
};

/**
 * Reads a graph file chunk by chunk into a batch (nothing is stored here). Stops at the first
 * bad line with "line N: problem", when the signal aborts, or when `onStaged` gives a reason to
 * stop (the session would grow past a limit): the file is read no further.
 */
export async function readGraphFile(options: {
  source: GraphFileSource;
  format: KgImportFormat;
  batch: GraphBatch;
  signal?: AbortSignal;
  onProgress?: (progress: ReadProgress) => void;
  onStaged?: (staged: StagedStatement) => string | undefined;
  maxStatements?: number;
  /** What relative IRIs of N-Triples or Turtle resolve against when the file declares no @base: a fetched document's address. */
  baseIri?: string;
}): Promise<Result<{ statements: number; totalBytes: number }, Problem[] | 'cancelled'>> {
  const {
    source,
    format,
    batch,
    signal,
    onProgress,
    onStaged,
    maxStatements = MAX_STATEMENTS_PER_IMPORT,
    baseIri,
  } = options;
  let statements = 0;
  let isOverLimit = false;
  let refusal: string | undefined;
  const resolve = (term: Term, role: TermRole, made: KgSymbol[]) => {
    const before = batch.symbolCount;
    const id = batch.resolve(term, role);
    if (batch.symbolCount > before) made.push(batch.newSymbol(id)!);
    return id;
  };
  const sink = (statement: ParsedStatement) => {
    if (isOverLimit || refusal !== undefined) return;
    // One more than the limit is read, so a file of exactly the limit is taken.
    if (statements >= maxStatements) {
      isOverLimit = true;
      return;
    }
    const made: KgSymbol[] = [];
    const subject = resolve(statement.subject, 'subject', made);
    const predicate = resolve(statement.predicate, 'predicate', made);
    const object = resolve(statement.object, 'object', made);
    const confidence = statement.confidence ?? DEFAULT_CONFIDENCE;
    const [added, updated] = [batch.addedCount, batch.updatedCount];
    batch.assert(subject, predicate, object, confidence);
    statements++;
    refusal = onStaged?.({
      symbols: made,
      ...(batch.addedCount > added ? { added: { subject, predicate, object, confidence } } : {}),
      raised: batch.updatedCount > updated,
    });
  };
  const parser: StatementParser =
    format === 'csv'
      ? createCsvParser(sink)
      : createRdfParser(format, sink, {
          ...(baseIri !== undefined ? { baseIri } : {}),
          onPrefix: (prefix, namespace) => batch.declarePrefix(prefix, namespace),
        });
  const totalBytes = typeof source === 'string' ? new TextEncoder().encode(source).length : source.size;
  if (totalBytes === 0) return { ok: false, error: [{ message: 'the file is empty' }] };
  const lines = new LineTracker();
  const tooLarge = (): Problem => ({
    line: lines.currentLine,
    message: `the file holds more than ${maxStatements.toLocaleString('en')} statements, more than one import can take; split it into smaller files`,
  });
  // A parser that needs more input names the line after the last; the last line with content is where it broke.
  const located = (problem: Problem): Problem =>
    problem.line !== undefined && problem.line > lines.lastContentLine && lines.lastContentLine > 0
      ? { ...problem, line: lines.lastContentLine }
      : problem;
  let bytesRead = 0;
  for await (const chunk of chunksOf(source)) {
    if (signal?.aborted) return { ok: false, error: 'cancelled' };
    if ('problem' in chunk) {
      lines.read(chunk.textBefore);
      return { ok: false, error: [{ line: lines.currentLine, ...chunk.problem }] };
    }
    lines.read(chunk.text);
    const problem = parser.push(chunk.text);
    if (problem) return { ok: false, error: [located(problem)] };
    if (refusal !== undefined) return { ok: false, error: [{ message: refusal }] };
    if (isOverLimit) return { ok: false, error: [tooLarge()] };
    bytesRead += chunk.bytes;
    onProgress?.({ bytesRead, totalBytes, statements });
  }
  if (signal?.aborted) return { ok: false, error: 'cancelled' };
  const problem = parser.end();
  if (problem) return { ok: false, error: [located(problem)] };
  if (refusal !== undefined) return { ok: false, error: [{ message: refusal }] };
  if (isOverLimit) return { ok: false, error: [tooLarge()] };
  if (statements === 0) return { ok: false, error: [{ message: 'the file holds no statements' }] };
  return { ok: true, value: { statements, totalBytes } };
}

/** Counts lines as text streams past, remembering the last line that held anything but spaces. */
class LineTracker {
  currentLine = 1;
  lastContentLine = 0;

  read(text: string): void {
    const segments = text.split('\n');
    for (const [index, segment] of segments.entries()) {
      if (segment.trim() !== '') this.lastContentLine = this.currentLine + index;
    }
    this.currentLine += segments.length - 1;
  }
}

/** Text chunks of a source, decoded as UTF-8 across chunk boundaries; yields to the event loop between chunks. */
async function* chunksOf(
  source: GraphFileSource,
): AsyncGenerator<{ text: string; bytes: number } | { problem: Problem; textBefore: string }> {
  if (typeof source === 'string') {
    const encoder = new TextEncoder();
    for (let start = 0; start < source.length; start += STRING_CHUNK) {
      const text = source.slice(start, start + STRING_CHUNK);
      yield { text, bytes: encoder.encode(text).length };
      await yieldToEvents();
    }
    return;
  }
  const decoder = new StrictUtf8Stream();
  const reader = source.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const decoded = decoder.decode(value);
      yield 'problem' in decoded ? decoded : { text: decoded.text, bytes: value.byteLength };
      if ('problem' in decoded) return;
    }
    const rest = decoder.decode();
    if ('problem' in rest) yield rest;
    else if (rest.text) yield { text: rest.text, bytes: 0 };
  } finally {
    reader.releaseLock();
  }
}

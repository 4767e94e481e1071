import type { KgSymbol } from '#core/kg/symbol.ts';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { StagedStatement } from '#core/kg/import/read-graph-file.ts';
import type { Triple } from '#core/kg/triple.ts';
import { type AnimaDatabase, sessionRowsBesideGraph } from '#core/store/database.ts';
import { sizeText } from '#core/safe-json.ts';
import { utf8Length } from '#core/text-bytes.ts';
import { DEFAULT_SNAPSHOT_LIMITS, type SnapshotLimits } from './snapshot-format.ts';

/**
 * What a session takes in its snapshot file, counted row by row without making the file: so a
 * change that would make the session too large to export (and read back) is refused before it is
 * stored, while the work is small. Counts never fall short of the file: rows are counted as
 * stored, with their session id and database ids, which the file leaves out or numbers from 1.
 */

/** The document's own keys and brackets, and its hash, beyond its rows: a generous allowance. */
const DOCUMENT_FRAME_BYTES = 1024;

/** A row's bytes in the file, with the comma after it (an artifact's bytes as the file writes them). */
export const rowBytes = (row: unknown): number => {
  let content = 0;
  const text = JSON.stringify(row, (_key, value: unknown) => {
    if (!(value instanceof Uint8Array)) return value;
    content += contentBytes(value);
    return '';
  });
  return utf8Length(text) + content + 1;
};

/**
 * An artifact's bytes in the file, never short of it: as base64, or, for bytes that are UTF-8
 * (a text or JSON artifact is written as text), as a JSON string, whichever is longer.
 */
function contentBytes(bytes: Uint8Array): number {
  const base64 = Math.ceil(bytes.byteLength / 3) * 4;
  try {
    return Math.max(base64, utf8Length(JSON.stringify(new TextDecoder('utf-8', { fatal: true }).decode(bytes))));
  } catch {
    return base64;
  }
}

/** A symbol a batch staged (GraphBatch.newSymbol): an IRI or blank node's label may yet get a suffix (-2) when taken. */
export const stagedSymbolRowBytes = (symbol: KgSymbol): number =>
  rowBytes(symbol) +
  (symbol.iri !== undefined || (symbol.kind !== 'literal' && symbol.label.startsWith('_:')) ? LABEL_SUFFIX_BYTES : 0);
const LABEL_SUFFIX_BYTES = 4;

/** A triple's row. */
export const tripleRowBytes = (triple: Triple): number => rowBytes(triple);

/** What the session's snapshot would take now: its graph (in memory, as stored), every other row, its persona. */
export async function sessionSnapshotBytes(
  db: AnimaDatabase,
  graph: KnowledgeGraph,
  sessionId: string,
): Promise<number> {
  let bytes = DOCUMENT_FRAME_BYTES;
  for (const symbol of graph.symbols()) bytes += rowBytes(symbol);
  for (let position = 0; position < graph.tripleCount; position++) bytes += tripleRowBytes(graph.tripleAt(position));
  const session = await db.sessions.get(sessionId);
  if (!session) throw new Error(`no session with id ${sessionId}`);
  bytes += rowBytes(session);
  const persona = session.personaId !== undefined ? await db.personas.get(session.personaId) : undefined;
  // The persona code (card and bundle reading) is fetched only for a session that wears one.
  if (persona)
    bytes += rowBytes(await (await import('#core/personas/persona-catalog-read.ts')).personaBundleOf(db, persona));
  for (const rows of sessionRowsBesideGraph(db, sessionId)) await rows.each((row) => (bytes += rowBytes(row)));
  return bytes;
}

/** An import's provenance record in the file (its detail names the file): a generous allowance. */
const PROVENANCE_RECORD_BYTES = 2048;
/** A raised triple's row grows by its new confidence's digits and its new provenance id: an allowance. */
const RAISED_TRIPLE_BYTES = 32;

/**
 * Counts what an import adds to the session's snapshot, statement by statement (readGraphFile's
 * onStaged), and stops it at the first that would make the snapshot larger than the reader reads:
 * the session stays one that exports and reads back, and the file is read no further than needed.
 */
export async function importBudget(
  db: AnimaDatabase,
  session: { graph: KnowledgeGraph; sessionId: string; stagedAt: number; limits?: SnapshotLimits },
): Promise<(staged: StagedStatement) => string | undefined> {
  const { graph, sessionId, stagedAt, limits = DEFAULT_SNAPSHOT_LIMITS } = session;
  const sessionBytes = await sessionSnapshotBytes(db, graph, sessionId);
  // The import's provenance record, and the number the file gives it (after the session's others).
  const provenanceId = (await db.provenance.where('sessionId').equals(sessionId).count()) + 1;
  let added = PROVENANCE_RECORD_BYTES;
  let statements = 0;
  return ({ symbols, added: triple, raised }) => {
    statements++;
    for (const symbol of symbols) added += stagedSymbolRowBytes(symbol);
    if (triple) added += tripleRowBytes({ ...triple, provenanceId, createdAt: stagedAt });
    if (raised) added += RAISED_TRIPLE_BYTES;
    if (sessionBytes + added <= limits.maxBytes) return undefined;
    return snapshotWouldPass(
      sessionBytes,
      `the file's first ${statements.toLocaleString('en')} statements add ${sizeText(added, 'up')}`,
      'import a smaller part of it, or import it into a new session',
      limits,
    );
  };
}

/** Why a change is refused that would make the session's snapshot larger than the reader reads: `adding` says what, and how much it adds. */
function snapshotWouldPass(
  sessionBytes: number,
  adding: string,
  advice: string,
  limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS,
): string {
  return `the session's snapshot would pass the ${sizeText(limits.maxBytes, 'down')} Anima reads: the session takes ${sizeText(sessionBytes, 'up')}, and ${adding}; ${advice}`;
}

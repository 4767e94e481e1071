import { type GraphDelta, layoutAfter } from '#core/kg/graph-delta.ts';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { KgSymbol } from '#core/kg/symbol.ts';
import type { Triple } from '#core/kg/triple.ts';
import { allocateColumns, COLUMN_NAMES, type TripleColumns } from '#core/kg/triple-columns.ts';

/**
 * How a session's graph is stored: triples in chunks of packed columns (typed arrays, which
 * IndexedDB clones without per-object cost), in the order they were added; symbols in chunks by
 * id. A reload reads a few hundred records instead of a million, and a change rewrites only the
 * chunks it touches (usually the last one).
 */
export const TRIPLES_PER_CHUNK = 8192;
export const SYMBOLS_PER_CHUNK = 4096;

export type TripleChunkRecord = TripleColumns & { sessionId: string; index: number; count: number };
export type SymbolChunkRecord = { sessionId: string; index: number; symbols: KgSymbol[] };

/**
 * The chunk records a delta changes, as they will be once it is applied to the graph (which it is
 * not yet), and the indexes of chunks that removals leave empty (to delete).
 */
export function chunksForDelta(
  graph: KnowledgeGraph,
  sessionId: string,
  delta: GraphDelta,
): { tripleChunks: TripleChunkRecord[]; symbolChunks: SymbolChunkRecord[]; emptiedChunkIndexes: number[] } {
  const oldCount = graph.tripleCount;
  const { writes, count: newCount } = layoutAfter(graph, delta);
  // The writes of each chunk, gathered in one pass.
  const writesByChunk = new Map<number, [number, Triple][]>();
  for (const write of writes) {
    const index = Math.floor(write[0] / TRIPLES_PER_CHUNK);
    const chunkWrites = writesByChunk.get(index);
    if (chunkWrites) chunkWrites.push(write);
    else writesByChunk.set(index, [write]);
  }
  // Removals shorten the last chunk even where they write nothing into it.
  if (
    newCount < oldCount &&
    newCount % TRIPLES_PER_CHUNK !== 0 &&
    !writesByChunk.has(Math.floor(newCount / TRIPLES_PER_CHUNK))
  )
    writesByChunk.set(Math.floor(newCount / TRIPLES_PER_CHUNK), []);
  const emptiedChunkIndexes: number[] = [];
  for (let index = Math.ceil(newCount / TRIPLES_PER_CHUNK); index < Math.ceil(oldCount / TRIPLES_PER_CHUNK); index++)
    emptiedChunkIndexes.push(index);
  const tripleChunks = [...writesByChunk].map(([index, chunkWrites]) => {
    const start = index * TRIPLES_PER_CHUNK;
    const end = Math.min(start + TRIPLES_PER_CHUNK, newCount);
    const columns = allocateColumns(end - start);
    const stored = Math.max(0, Math.min(end, oldCount) - start);
    for (const name of COLUMN_NAMES)
      (columns[name] as Int32Array | Float64Array).set(
        (graph.columns[name] as Int32Array | Float64Array).subarray(start, start + stored),
      );
    for (const [position, triple] of chunkWrites) {
      const offset = position - start;
      columns.subjects[offset] = triple.subject;
      columns.predicates[offset] = triple.predicate;
      columns.objects[offset] = triple.object;
      columns.confidences[offset] = triple.confidence;
      columns.provenanceIds[offset] = triple.provenanceId ?? -1;
      columns.createdAt[offset] = triple.createdAt;
    }
    return { sessionId, index, count: end - start, ...columns };
  });

  const newSymbols = new Map(delta.symbols.map((symbol) => [symbol.id, symbol]));
  const symbolChunkIndexes = new Set(delta.symbols.map((symbol) => Math.floor(symbol.id / SYMBOLS_PER_CHUNK)));
  const symbolChunks = [...symbolChunkIndexes].map((index) => {
    const symbols: KgSymbol[] = [];
    for (let id = index * SYMBOLS_PER_CHUNK; id < (index + 1) * SYMBOLS_PER_CHUNK; id++) {
      const symbol = newSymbols.get(id) ?? graph.symbol(id);
      if (symbol) symbols.push(symbol);
    }
    return { sessionId, index, symbols };
  });
  return { tripleChunks, symbolChunks, emptiedChunkIndexes };
}

/** Every chunk of a graph (writing a whole graph: a snapshot restore, a migration). */
export function chunksOfGraph(
  graph: KnowledgeGraph,
  sessionId: string,
): { tripleChunks: TripleChunkRecord[]; symbolChunks: SymbolChunkRecord[] } {
  const tripleChunks: TripleChunkRecord[] = [];
  for (let start = 0; start < graph.tripleCount; start += TRIPLES_PER_CHUNK) {
    const end = Math.min(start + TRIPLES_PER_CHUNK, graph.tripleCount);
    const columns = allocateColumns(end - start);
    for (const name of COLUMN_NAMES)
      (columns[name] as Int32Array | Float64Array).set(
        (graph.columns[name] as Int32Array | Float64Array).subarray(start, end),
      );
    tripleChunks.push({ sessionId, index: start / TRIPLES_PER_CHUNK, count: end - start, ...columns });
  }
  const byChunk = new Map<number, KgSymbol[]>();
  for (const symbol of [...graph.symbols()].sort((a, b) => a.id - b.id)) {
    const index = Math.floor(symbol.id / SYMBOLS_PER_CHUNK);
    const symbols = byChunk.get(index);
    if (symbols) symbols.push(symbol);
    else byChunk.set(index, [symbol]);
  }
  return { tripleChunks, symbolChunks: [...byChunk].map(([index, symbols]) => ({ sessionId, index, symbols })) };
}

/** Joins triple chunks (in index order) into one set of columns with room to grow. */
export function joinTripleChunks(chunks: readonly TripleChunkRecord[]): { columns: TripleColumns; count: number } {
  const count = chunks.reduce((sum, chunk) => sum + chunk.count, 0);
  const columns = allocateColumns(Math.max(16, count + (count >> 3)));
  let offset = 0;
  for (const chunk of chunks) {
    for (const name of COLUMN_NAMES)
      (columns[name] as Int32Array | Float64Array).set(
        (chunk[name] as Int32Array | Float64Array).subarray(0, chunk.count),
        offset,
      );
    offset += chunk.count;
  }
  return { columns, count };
}

import { exportNTriples } from '#core/kg/export-ntriples.ts';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { readGraphFile } from '#core/kg/import/read-graph-file.ts';
import type { KgImportFormat } from '#core/kg/import/statement.ts';
import { describeProblem, type Problem } from '#core/result.ts';
import { below, mutateBytes, mutateText, ODD_CHARACTERS, pick, type FuzzKind, type Random } from './fuzz.ts';
import { testService } from './test-database.ts';

/**
 * The fuzz cases of a graph file kind (N-Triples, Turtle, CSV): seeded mutations of valid files
 * as text and as bytes (so some are not UTF-8), and random files. Each case is read as the worker
 * reads a file (a Blob, decoded strictly); a refusal must be sentences that name their line; an
 * accepted file must survive export and re-import with the same statements; and every
 * `storeEvery`-th case is imported through the service into a test database, where a refusal
 * must leave the graph as it was.
 */
export function graphFileFuzzKind(options: {
  kind: string;
  format: KgImportFormat;
  seed: number;
  validFiles: readonly string[];
  /** Pieces of the format's syntax, for edits and random files. */
  alphabet: readonly string[];
  randomFile: (random: Random) => string;
  storeEvery?: number;
}): FuzzKind<Uint8Array> & { storedCases: () => number } {
  const { format, validFiles, alphabet, randomFile, storeEvery = 25 } = options;
  const encoder = new TextEncoder();
  const store = storedGraph(format, validFiles[0]!);
  let storedCases = 0;

  const generate = (random: Random, index: number): Uint8Array => {
    const roll = random();
    if (roll < 0.15) return encoder.encode(randomFile(random));
    let text = pick(random, validFiles);
    for (let count = 1 + below(random, 3); count > 0; count--) text = mutateText(random, text, alphabet);
    const bytes = encoder.encode(text);
    // About one case in five has its bytes broken, which is where text that is not UTF-8 comes from.
    return roll < 0.35 || index % 97 === 0 ? mutateBytes(random, bytes) : bytes;
  };

  return {
    kind: options.kind,
    seed: options.seed,
    generate,
    describe: (bytes) => `${bytes.length} bytes: ${JSON.stringify(new TextDecoder().decode(bytes.subarray(0, 400)))}`,
    read: async (bytes, random) => {
      const read = await readInMemory(bytes, format);
      const refusal = read.ok ? undefined : read.problems;
      if (refusal) {
        const unplaced = refusal.find(
          (problem) => problem.line === undefined && !WHOLE_FILE_MESSAGES.includes(problem.message),
        );
        if (refusal.length === 0 || unplaced)
          throw new Error(`a refusal that does not name its line: ${JSON.stringify(unplaced ?? refusal)}`);
      }
      // A seeded subset goes through the service and the test database: all or nothing there too.
      if (random() * storeEvery < 1) {
        storedCases++;
        const stored = await store.importAndCompare(bytes);
        if (stored.ok !== (refusal === undefined))
          throw new Error(
            `the service ${stored.ok ? 'accepted' : 'refused'} what the reader ${refusal ? 'refused' : 'accepted'}`,
          );
        if (!stored.ok && stored.changed)
          throw new Error(`a refused import changed the stored graph: ${stored.changed}`);
      }
      return refusal ? { refused: refusal.map(describeProblem).join('; ') } : {};
    },
    checkAccepted: async (bytes) => {
      const first = await readInMemory(bytes, format);
      if (!first.ok) return 'refused the second time';
      const again = await readInMemory(encoder.encode(first.exported), 'n-triples');
      if (!again.ok)
        return `its export does not read back: ${again.problems.map(describeProblem).join('; ')}\n${first.exported.slice(0, 600)}`;
      if (again.triples !== first.triples)
        return `its export reads back as ${again.triples} triples, not ${first.triples}`;
      if (sortedLines(again.exported) !== sortedLines(first.exported))
        return `its export reads back as other statements:\n${first.exported.slice(0, 400)}\n---\n${again.exported.slice(0, 400)}`;
      return undefined;
    },
    storedCases: () => storedCases,
  };
}

/** Refusals about the file as a whole, which have no line to name. */
const WHOLE_FILE_MESSAGES = ['the file is empty', 'the file holds no statements'];

async function readInMemory(
  bytes: Uint8Array,
  format: KgImportFormat,
): Promise<{ ok: true; exported: string; triples: number } | { ok: false; problems: Problem[] }> {
  const graph = new KnowledgeGraph();
  const batch = graph.batch({ now: 1 });
  const read = await readGraphFile({ source: new Blob([bytes as Uint8Array<ArrayBuffer>]), format, batch });
  if (!read.ok) return { ok: false, problems: read.error === 'cancelled' ? [] : read.error };
  graph.apply(batch.delta);
  return { ok: true, exported: exportNTriples(graph), triples: graph.tripleCount };
}

function sortedLines(text: string): string {
  return text.split('\n').sort().join('\n');
}

/** A session in a test database holding a valid file, to import cases into and compare before and after. */
function storedGraph(format: KgImportFormat, seedFile: string) {
  let opened: Promise<{ service: ReturnType<typeof testService>['service']; sessionId: string }> | undefined;
  const open = () =>
    (opened ??= (async () => {
      const { service } = testService({ idPrefix: `fuzz-${format}` });
      const { session } = await service.open({});
      await service.kgImport({
        sessionId: session.id,
        operationId: 'fuzz-seed',
        fileName: `seed.${format}`,
        format,
        data: seedFile,
      });
      return { service, sessionId: session.id };
    })());
  return {
    async importAndCompare(bytes: Uint8Array): Promise<{ ok: boolean; changed?: string }> {
      const { service, sessionId } = await open();
      const before = await service.kgExport({ sessionId, format: 'n-triples' });
      const beforeStats = await service.kgStats({ sessionId });
      const outcome = await service.kgImport({
        sessionId,
        operationId: 'fuzz',
        fileName: `case.${format}`,
        format,
        data: new Blob([bytes as Uint8Array<ArrayBuffer>]),
      });
      if (outcome.ok) return { ok: true };
      const after = await service.kgExport({ sessionId, format: 'n-triples' });
      const afterStats = await service.kgStats({ sessionId });
      if (after.text !== before.text) return { ok: false, changed: 'its triples differ' };
      if (JSON.stringify(afterStats) !== JSON.stringify(beforeStats))
        return {
          ok: false,
          changed: `its counts went from ${JSON.stringify(beforeStats)} to ${JSON.stringify(afterStats)}`,
        };
      return { ok: false };
    },
  };
}

/** Odd characters and the format's pieces, for random files. */
export function randomPieces(random: Random, pieces: readonly string[], maximum: number): string {
  let text = '';
  const length = below(random, maximum);
  while (text.length < length) text += random() < 0.1 ? pick(random, ODD_CHARACTERS) : pick(random, pieces);
  return text;
}

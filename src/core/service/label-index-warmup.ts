import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { SimilarityIndex } from '#core/kg/similarity.ts';
import { sliceOf } from '#core/kg/slice.ts';
import { prepareVocabulary } from '#core/questions/vocabulary.ts';

/** How long one slice of the warm-up may hold the thread: a pause or a query waits no longer. */
const WARMUP_SLICE_MS = 8;
/** The wait between slices while a run or an import is under way: it takes about a tenth of the thread. */
const BUSY_WAIT_MS = 80;

/**
 * Builds a loaded graph's two label indexes (the similarity index's label words, the question
 * reader's vocabulary) in the background, a short slice at a time with a yield between, so that
 * neither the first search by name nor the first question read blocks for seconds on a big graph.
 * While `isBusy` (a run), it leaves the thread to the run most of the time. Stops when
 * `isCurrent` says the graph was put aside. Its timers never keep a CLI command alive.
 */
export async function warmLabelIndexes(
  graph: KnowledgeGraph,
  similarity: SimilarityIndex,
  { isCurrent, isBusy = () => false }: { isCurrent: () => boolean; isBusy?: () => boolean },
): Promise<void> {
  while (isCurrent()) {
    const isDone =
      similarity.prepareLabelIndex(sliceOf(WARMUP_SLICE_MS)) && prepareVocabulary(graph, sliceOf(WARMUP_SLICE_MS));
    if (isDone) return;
    await new Promise<void>((resolve) => {
      const timer: unknown = setTimeout(resolve, isBusy() ? BUSY_WAIT_MS : 0);
      // Node's timers have unref (the CLI exits without waiting); a browser's are numbers.
      (timer as { unref?: () => void }).unref?.();
    });
  }
}

/**
 * Work done a slice at a time: a long step (a label index of a million symbols, a full
 * materialisation) checks `shouldStop` often and, when it says so, stops where it is, to go on
 * in a later call. Between slices the caller yields, so a pause or a query is answered meanwhile.
 */
export type SliceLimit = { shouldStop?: () => boolean };

/** A limit that stops a slice once `milliseconds` have passed since it was made. */
export function sliceOf(milliseconds: number): Required<SliceLimit> {
  const stopAt = performance.now() + milliseconds;
  return { shouldStop: () => performance.now() >= stopAt };
}

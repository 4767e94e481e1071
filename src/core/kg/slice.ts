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

/**
 * Waits for the events already queued (a pause, a query) to be handled, then goes on. A message
 * on a channel of its own is a task that runs as soon as those have: unlike `setTimeout(0)` it
 * is not held back (1 ms in Node, 4 ms in a browser once timers nest), so a loop that yields
 * after every step loses almost nothing to the yields.
 */
export function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.addEventListener(
      'message',
      () => {
        // A closed port keeps no Node process alive.
        port1.close();
        resolve();
      },
      { once: true },
    );
    port1.start();
    port2.postMessage(undefined);
  });
}

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

/** A port's ref and unref, which Node has (a port that is ref'd keeps the process alive) and a browser has not. */
type NodePort = {
  onmessage: ((event: never) => void) | null;
  postMessage(message: unknown): void;
  ref?: () => void;
  unref?: () => void;
};

/** One channel for every yield: making a channel per yield cost more than the yield itself. */
let channel: { port1: NodePort; port2: NodePort } | undefined;
const waiting: (() => void)[] = [];

/**
 * Waits for the events already queued (a pause, a query) to be handled, then goes on. A message
 * on a channel of its own is a task that runs as soon as those have: unlike `setTimeout(0)` it
 * is not held back (1 ms in Node, 4 ms in a browser once timers nest), so a loop that yields
 * after every step loses almost nothing to the yields.
 */
export function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => {
    if (!channel) {
      // Typed by hand: the DOM and Node type their ports differently, and both have what is used here.
      const made = new MessageChannel() as unknown as { port1: NodePort; port2: NodePort };
      made.port1.onmessage = () => {
        waiting.shift()?.();
        // Idle, the port keeps no Node process alive; waiting, it does.
        if (waiting.length === 0) made.port1.unref?.();
      };
      channel = made;
    }
    if (waiting.length === 0) channel.port1.ref?.();
    waiting.push(resolve);
    channel.port2.postMessage(undefined);
  });
}

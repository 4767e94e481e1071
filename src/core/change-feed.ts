/**
 * Tells the other tabs that this one wrote, and this one when another did. The worker sends the
 * notices between tabs (a BroadcastChannel); the CLI, one process and one writer, has none.
 */
export type ChangeFeed = {
  /** Called after each committed write; the feed coalesces a burst of them into a few notices. */
  announce(): void;
  /** Calls the listener when another tab announces a change. */
  onChange(listener: () => void): void;
};

/**
 * Coalesces calls to `post`: the first call posts at once, calls in the next `intervalMs` post
 * once when it ends (and start a new interval), so a fast run sends at most one notice per
 * interval and the last change is always announced.
 */
export function coalesced(post: () => void, intervalMs: number): () => void {
  let isCooling = false;
  let isPending = false;
  const coolDown = () => {
    isCooling = true;
    setTimeout(() => {
      isCooling = false;
      if (isPending) {
        isPending = false;
        post();
        coolDown();
      }
    }, intervalMs);
  };
  return () => {
    if (isCooling) {
      isPending = true;
      return;
    }
    post();
    coolDown();
  };
}

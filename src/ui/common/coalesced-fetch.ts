/**
 * Runs a fetch so that calls never pile up: a call while one is in flight gets one more fetch
 * after it (that one may have started before the change the caller wants to see), and every call
 * made meanwhile shares that second fetch.
 */
export class CoalescedFetch {
  readonly #fetch: () => Promise<void>;
  #inFlight: Promise<void> | undefined;
  #pending: Promise<void> | undefined;

  constructor(fetch: () => Promise<void>) {
    this.#fetch = fetch;
  }

  run(): Promise<void> {
    if (this.#pending) return this.#pending;
    if (this.#inFlight) {
      this.#pending = this.#inFlight.then(() => {
        this.#pending = undefined;
        return this.run();
      });
      return this.#pending;
    }
    this.#inFlight = this.#fetch().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }
}

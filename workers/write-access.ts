/// <reference lib="webworker" />
import type { WriteAccess } from '#core/service/service.ts';

const LOCK_NAME = 'anima-session-writer';

/**
 * One tab at a time may write: the worker that holds this Web Lock. The lock is held for the
 * worker's whole life and released by the browser when its tab closes; a worker that did not get
 * it waits in the lock's queue and takes over then.
 */
export function requestWriteAccess(): WriteAccess {
  let isGranted = false;
  const listeners: (() => void)[] = [];
  const hold = () => {
    isGranted = true;
    for (const listener of listeners) listener();
    return new Promise<never>(() => {});
  };
  const ready = new Promise<void>((resolve) => {
    void navigator.locks.request(LOCK_NAME, { ifAvailable: true }, (lock) => {
      resolve();
      if (lock) return hold();
      void navigator.locks.request(LOCK_NAME, hold);
      return undefined;
    });
  });
  return {
    ready,
    canWrite: () => isGranted,
    onGranted: (listener) => listeners.push(listener),
  };
}

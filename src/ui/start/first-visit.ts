import type { ScreenPath } from '../routes.ts';

const STORAGE_KEY = 'anima.started';

/**
 * The screen an address without one shows: the start screen until it has been shown once on this
 * device, the Goals screen after that. A UI preference, so it lives in localStorage; where storage
 * is blocked (some private modes) the Goals screen is home.
 */
export function homeScreenPath(): ScreenPath {
  try {
    return localStorage.getItem(STORAGE_KEY) === null ? 'start' : 'goals';
  } catch {
    return 'goals';
  }
}

/** Notes that the start screen has been shown: from now on the Goals screen is home. */
export function markStarted(): void {
  try {
    localStorage.setItem(STORAGE_KEY, String(Date.now()));
  } catch {
    // Storage is blocked: the start screen shows again on the next visit.
  }
}

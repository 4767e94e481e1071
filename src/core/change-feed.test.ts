import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalesced } from './change-feed.ts';

describe('coalesced change notices', () => {
  let posted: number[];
  let announce: () => void;

  beforeEach(() => {
    vi.useFakeTimers();
    posted = [];
    announce = coalesced(() => posted.push(Date.now()), 150);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('posts a single change at once, and only once', () => {
    const start = Date.now();
    announce();
    expect(posted).toEqual([start]);
    vi.advanceTimersByTime(1_000);
    expect(posted).toEqual([start]);
  });

  it('sends a burst of changes as one notice at once and one after the interval', () => {
    const start = Date.now();
    for (let index = 0; index < 100; index++) announce();
    expect(posted).toEqual([start]);
    vi.advanceTimersByTime(150);
    expect(posted).toEqual([start, start + 150]);
    vi.advanceTimersByTime(1_000);
    expect(posted).toHaveLength(2);
  });

  it('sends at most one notice per interval during a long run, and one after its last change', () => {
    // A change every 10 ms for 1 s, like a fast run of cycles.
    for (let elapsed = 0; elapsed < 1_000; elapsed += 10) {
      announce();
      vi.advanceTimersByTime(10);
    }
    const lastChangeAt = Date.now() - 10;
    vi.advanceTimersByTime(1_000);
    const gaps = posted.slice(1).map((time, index) => time - posted[index]!);
    expect(gaps.every((gap) => gap >= 150)).toBe(true);
    expect(posted.length).toBeLessThanOrEqual(Math.ceil(1_000 / 150) + 1);
    expect(posted.at(-1)).toBeGreaterThanOrEqual(lastChangeAt);
  });

  it('posts at once again after a quiet interval', () => {
    announce();
    vi.advanceTimersByTime(400);
    const later = Date.now();
    announce();
    expect(posted.at(-1)).toBe(later);
  });
});

import { describe, expect, it } from 'vitest';
import { storageFullRunText, usageText } from './storage-messages.ts';

const MB = 2 ** 20;
const GB = 2 ** 30;

describe('usageText', () => {
  it('says how much is used of how much, with the share', () => {
    expect(usageText({ usageBytes: 120 * MB, quotaBytes: 2 * GB })).toBe('120 MB of 2 GB used (6%)');
    expect(usageText({ usageBytes: 1.5 * GB, quotaBytes: 2 * GB })).toBe('1.5 GB of 2 GB used (75%)');
  });

  it('says "under 1%" for a little, and never more than 100%', () => {
    expect(usageText({ usageBytes: 0.4 * MB, quotaBytes: 10 * GB })).toBe('0.4 MB of 10 GB used (under 1%)');
    expect(usageText({ usageBytes: 0, quotaBytes: 10 * GB })).toBe('0 MB of 10 GB used (0%)');
    expect(usageText({ usageBytes: 3 * MB, quotaBytes: 2 * MB })).toBe('3 MB of 2 MB used (100%)');
  });

  it('leaves the share out when the browser gives no quota', () => {
    expect(usageText({ usageBytes: 3 * MB, quotaBytes: 0 })).toBe('3 MB of 0 MB used');
  });
});

describe('storageFullRunText', () => {
  it('names the last stored cycle, says nothing of the next was kept, and what to do', () => {
    expect(storageFullRunText(12)).toBe(
      'Storage is full: the run paused after cycle 12. Nothing from the unfinished cycle was kept. Free space (delete a model or a session) or allow more storage, then run again.',
    );
    expect(storageFullRunText(0)).toMatch(
      /^Storage is full: the run stopped before its first cycle could be stored\. Nothing/,
    );
  });
});

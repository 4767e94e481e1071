import { describe, expect, it } from 'vitest';
import {
  consolidateBlockedReason,
  consolidationText,
  decimalText,
  episodesShownText,
  memoryKindLabel,
  memoryKindTone,
  pressureText,
} from './memory-messages.ts';

describe('memory messages', () => {
  it('names each kind of entry, and shows a kind it does not know as sent', () => {
    expect(memoryKindLabel('action')).toBe('Action');
    expect(memoryKindLabel('reflection')).toBe('Reflection');
    expect(memoryKindTone('action')).toBe('success');
    expect(memoryKindLabel('dream')).toBe('Dream');
    expect(memoryKindTone('dream')).toBe('neutral');
    expect(memoryKindLabel('constructor')).toBe('Constructor');
  });

  it('says how full working memory is', () => {
    expect(pressureText(6, 100)).toBe('6 of 100 entries');
    expect(pressureText(0, 1)).toBe('0 of 1 entry');
    expect(pressureText(1200, 2000)).toBe('1,200 of 2,000 entries');
  });

  it('shows relevance and scores with two decimals', () => {
    expect(decimalText(0.8)).toBe('0.80');
    expect(decimalText(1)).toBe('1.00');
  });

  it('reports what a consolidation did, in the singular where it is one', () => {
    expect(consolidationText({ episodesAdded: 1, entriesLeft: 4 })).toBe(
      '1 episode added; 4 entries left in working memory.',
    );
    expect(consolidationText({ episodesAdded: 2, entriesLeft: 1 })).toBe(
      '2 episodes added; 1 entry left in working memory.',
    );
    expect(consolidationText({ episodesAdded: 0, entriesLeft: 0 })).toBe(
      '0 episodes added; 0 entries left in working memory.',
    );
  });

  it('says why consolidation cannot run: another tab writes, or there is nothing to consolidate', () => {
    expect(consolidateBlockedReason({ canWrite: false, isLoaded: true, entryCount: 5 })).toMatch(/open in another tab/);
    expect(consolidateBlockedReason({ canWrite: true, isLoaded: false, entryCount: 0 })).toMatch(/loading/);
    expect(consolidateBlockedReason({ canWrite: true, isLoaded: true, entryCount: 0 })).toMatch(/empty/);
    expect(consolidateBlockedReason({ canWrite: true, isLoaded: true, entryCount: 1 })).toBeUndefined();
  });

  it('says when only the newest episodes are listed', () => {
    expect(episodesShownText(100, 250)).toBe('Showing the newest 100 of 250 episodes.');
    expect(episodesShownText(3, 3)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { arrangementOf, moved, priorityOf } from './part-order.ts';

describe('arranging parts', () => {
  it('moves a part to another place, leaving the list it was given as it was', () => {
    const names = ['a', 'b', 'c', 'd'];
    expect(moved(names, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moved(names, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moved(names, 1, 9)).toEqual(['a', 'c', 'd', 'b']);
    expect(moved(names, 7, 0)).toEqual(names);
    expect(names).toEqual(['a', 'b', 'c', 'd']);
  });

  it('sends each part with its priority and pin, in order', () => {
    expect(arrangementOf([{ name: 'a', type: 'tone', summary: 's', priority: 2, pinned: true }])).toEqual([
      { name: 'a', priority: 2, pinned: true },
    ]);
  });

  it('reads a priority as a whole number from -1000 to 1000', () => {
    expect(priorityOf(' 5 ')).toBe(5);
    expect(priorityOf('-1000')).toBe(-1000);
    expect(priorityOf('1001')).toBeUndefined();
    expect(priorityOf('1.5')).toBeUndefined();
    expect(priorityOf('')).toBeUndefined();
  });
});

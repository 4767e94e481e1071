import { describe, expect, it } from 'vitest';
import { edgePath } from './edge-path.ts';

const box = { halfWidth: 30, halfHeight: 10 };

describe('edgePath', () => {
  it('runs from border to border, with its label half way', () => {
    const path = edgePath({ ...box, x: 0, y: 0 }, { ...box, x: 100, y: 0 }, 0);
    expect(path).toEqual({ d: 'M33 0 Q50 0 67 0', labelX: 50, labelY: 0 });
  });

  it('bends the two directions between a pair to opposite sides', () => {
    const there = edgePath({ ...box, x: 0, y: 0 }, { ...box, x: 100, y: 0 }, 14);
    const back = edgePath({ ...box, x: 100, y: 0 }, { ...box, x: 0, y: 0 }, 14);
    expect(Math.sign(there.labelY)).toBe(-Math.sign(back.labelY));
    expect(Math.abs(there.labelY)).toBeGreaterThan(5);
    expect(Math.abs(there.labelY)).toBeLessThanOrEqual(14);
  });
});

import { describe, expect, it } from 'vitest';
import { layoutNeighbourhood, type LayoutNode } from './neighbourhood-layout.ts';

const nodes: LayoutNode[] = Array.from({ length: 25 }, (_, index) => ({
  halfWidth: 20 + (index % 5) * 8,
  halfHeight: 13,
}));

describe('layoutNeighbourhood', () => {
  it('puts the symbol in the middle', () => {
    const [centre] = layoutNeighbourhood(nodes, { width: 600, height: 400 });
    expect(centre).toEqual({ x: 300, y: 200 });
  });

  it('gives the same places for the same nodes every time', () => {
    expect(layoutNeighbourhood(nodes, { width: 600, height: 400 })).toEqual(
      layoutNeighbourhood(nodes, { width: 600, height: 400 }),
    );
  });

  it('keeps every box inside the area, also on a phone', () => {
    for (const area of [
      { width: 600, height: 400 },
      { width: 304, height: 460 },
    ]) {
      const points = layoutNeighbourhood(nodes, area);
      points.forEach((point, index) => {
        const node = nodes[index]!;
        expect(point.x - node.halfWidth).toBeGreaterThanOrEqual(0);
        expect(point.x + node.halfWidth).toBeLessThanOrEqual(area.width);
        expect(point.y - node.halfHeight).toBeGreaterThanOrEqual(0);
        expect(point.y + node.halfHeight).toBeLessThanOrEqual(area.height);
      });
    }
  });

  it('draws a single neighbour apart from its symbol', () => {
    const [centre, neighbour] = layoutNeighbourhood(nodes.slice(0, 2), { width: 600, height: 400 });
    expect(Math.hypot(neighbour!.x - centre!.x, neighbour!.y - centre!.y)).toBeGreaterThan(100);
  });

  it('lets no two labels overlap around a busy symbol, also on a phone', () => {
    for (const area of [
      { width: 600, height: 400 },
      { width: 304, height: 460 },
    ]) {
      const points = layoutNeighbourhood(nodes, area);
      for (let i = 0; i < points.length; i++)
        for (let j = i + 1; j < points.length; j++) {
          const [a, b] = [points[i]!, points[j]!];
          const apart =
            Math.abs(a.x - b.x) >= nodes[i]!.halfWidth + nodes[j]!.halfWidth ||
            Math.abs(a.y - b.y) >= nodes[i]!.halfHeight + nodes[j]!.halfHeight;
          expect(apart, `nodes ${i} and ${j} in ${area.width}×${area.height}`).toBe(true);
        }
    }
  });

  it('spreads the neighbours out instead of piling them up', () => {
    const points = layoutNeighbourhood(nodes.slice(0, 9), { width: 600, height: 400 });
    const distinct = new Set(points.map((point) => `${Math.round(point.x / 20)} ${Math.round(point.y / 20)}`));
    expect(distinct.size).toBe(9);
  });
});

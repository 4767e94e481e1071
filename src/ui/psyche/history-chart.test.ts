import { describe, expect, it } from 'vitest';
import type { PsycheHistoryEntry } from '#core/api.ts';
import { type ChartSize, chartGeometry, chartSummary, cycleTicks, linearScale } from './history-chart.ts';

const SIZE: ChartSize = { width: 110, height: 120, padding: { top: 10, right: 0, bottom: 10, left: 10 } };

function entry(version: number, cycle: number, explorer: number, individuationLevel = 0.1): PsycheHistoryEntry {
  return {
    version,
    cycle,
    reason: 'test',
    createdAt: 0,
    archetypes: { sage: 0.7, healer: 0.5, explorer, guardian: 0.4 },
    individuationLevel,
    shadowEncounters: 0,
    dominantArchetype: 'sage',
  };
}

describe('linearScale', () => {
  it('maps a domain onto a range, and an empty domain onto the middle', () => {
    expect(linearScale([0, 10], [10, 110])(5)).toBe(60);
    expect(linearScale([0, 1], [110, 10])(1)).toBe(10);
    expect(linearScale([4, 4], [10, 110])(4)).toBe(60);
  });
});

describe('cycleTicks', () => {
  it('gives whole cycles at a round step', () => {
    expect(cycleTicks(0, 3)).toEqual([0, 1, 2, 3]);
    expect(cycleTicks(0, 100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(cycleTicks(3, 47)).toEqual([10, 20, 30, 40]);
    expect(cycleTicks(5, 5)).toEqual([5]);
  });
});

describe('chartGeometry', () => {
  it('places each version at its cycle and each value on 0..1, oldest first', () => {
    const geometry = chartGeometry([entry(1, 0, 0.5), entry(2, 10, 0.9, 0.3)], SIZE);
    const explorer = geometry.series.find((series) => series.key === 'explorer')!;
    expect(explorer.points.map(({ x, y }) => [x, y])).toEqual([
      [10, 60],
      [110, 20],
    ]);
    expect(explorer.path).toBe('M10 60 L110 20');
    const individuation = geometry.series.find((series) => series.key === 'individuation')!;
    expect(individuation.points.map((point) => point.value)).toEqual([0.1, 0.3]);
    expect(geometry.series.map((series) => series.label)).toEqual([
      'Sage',
      'Healer',
      'Explorer',
      'Guardian',
      'Individuation',
    ]);
    expect(geometry.yTicks.map((tick) => [tick.y, tick.label])).toContainEqual([110, '0.00']);
    expect(geometry.xTicks.at(-1)).toEqual({ x: 110, label: '10' });
  });

  it('draws versions of one cycle in the middle, and no ticks without versions', () => {
    const geometry = chartGeometry([entry(1, 0, 0.5), entry(2, 0, 0.9)], SIZE);
    expect(geometry.series[0]!.points.map((point) => point.x)).toEqual([60, 60]);
    expect(chartGeometry([], SIZE).xTicks).toEqual([]);
  });
});

describe('chartSummary', () => {
  it('says how many versions over which cycles, and the latest values', () => {
    expect(chartSummary([entry(1, 0, 0.5), entry(2, 12, 0.9)])).toBe(
      'Archetype weights and individuation over 2 versions, from cycle 0 to 12. Version 2: sage 0.70, healer 0.50, explorer 0.90, guardian 0.40, individuation 0.10.',
    );
    expect(chartSummary([entry(1, 0, 0.5)])).toMatch(
      /^Archetype weights and individuation over 1 version, at cycle 0\./,
    );
    expect(chartSummary([])).toBe('Psyche history: no versions yet.');
  });
});

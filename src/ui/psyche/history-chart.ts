import type { PsycheHistoryEntry } from '#core/api.ts';
import { ARCHETYPES, type Archetype } from './psyche-form.ts';
import { ARCHETYPE_LABELS, weightText } from './psyche-messages.ts';

/**
 * The geometry of the psyche history chart: the four archetype weights and the individuation
 * level (all 0..1) of each version, placed at the version's cycle. Pure, so it can be tested;
 * history-chart.svelte only draws it.
 */

export type SeriesKey = Archetype | 'individuation';

/** The lines of the chart, in legend order. */
export const SERIES: readonly { key: SeriesKey; label: string }[] = [
  ...ARCHETYPES.map((archetype) => ({ key: archetype, label: ARCHETYPE_LABELS[archetype] })),
  { key: 'individuation', label: 'Individuation' },
];

export type ChartSize = {
  width: number;
  height: number;
  padding: { top: number; right: number; bottom: number; left: number };
};

/** The drawing's own units (its viewBox): the SVG scales to the width it is given. */
export const CHART_SIZE: ChartSize = { width: 480, height: 220, padding: { top: 12, right: 16, bottom: 38, left: 44 } };

export type ChartPoint = { x: number; y: number; version: number; cycle: number; value: number };
export type ChartSeries = { key: SeriesKey; label: string; points: ChartPoint[]; path: string };
export type ChartGeometry = {
  plot: { left: number; right: number; top: number; bottom: number };
  series: ChartSeries[];
  xTicks: { x: number; label: string }[];
  yTicks: { y: number; label: string }[];
};

/** A series' value in a version. */
export function valueOf(entry: PsycheHistoryEntry, key: SeriesKey): number {
  return key === 'individuation' ? entry.individuationLevel : entry.archetypes[key];
}

/** Maps a domain onto a range linearly; an empty domain (one cycle) maps to the middle of the range. */
export function linearScale(
  domain: readonly [number, number],
  range: readonly [number, number],
): (value: number) => number {
  const [domainStart, domainEnd] = domain;
  const [rangeStart, rangeEnd] = range;
  if (domainEnd === domainStart) return () => (rangeStart + rangeEnd) / 2;
  return (value) => rangeStart + ((value - domainStart) / (domainEnd - domainStart)) * (rangeEnd - rangeStart);
}

/** Whole-number ticks from min to max at a round step (1, 2 or 5 times a power of ten), at most about `maxCount`. */
export function cycleTicks(min: number, max: number, maxCount = 6): number[] {
  if (max <= min) return [min];
  const rawStep = (max - min) / Math.max(1, maxCount - 1);
  const magnitude = 10 ** Math.floor(Math.log10(rawStep));
  const step = Math.max(
    1,
    [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= rawStep) ?? 10 * magnitude,
  );
  const ticks: number[] = [];
  for (let tick = Math.ceil(min / step) * step; tick <= max; tick += step) ticks.push(tick);
  return ticks;
}

const round = (value: number) => Math.round(value * 10) / 10;

/** Where each version's values are drawn, oldest first, with the axes' ticks. */
export function chartGeometry(entries: readonly PsycheHistoryEntry[], size: ChartSize = CHART_SIZE): ChartGeometry {
  const plot = {
    left: size.padding.left,
    right: size.width - size.padding.right,
    top: size.padding.top,
    bottom: size.height - size.padding.bottom,
  };
  const cycles = entries.map((entry) => entry.cycle);
  const minCycle = cycles.length > 0 ? Math.min(...cycles) : 0;
  const maxCycle = cycles.length > 0 ? Math.max(...cycles) : 0;
  const x = linearScale([minCycle, maxCycle], [plot.left, plot.right]);
  const y = linearScale([0, 1], [plot.bottom, plot.top]);
  const series = SERIES.map(({ key, label }) => {
    const points = entries.map((entry) => {
      const value = valueOf(entry, key);
      return { x: round(x(entry.cycle)), y: round(y(value)), version: entry.version, cycle: entry.cycle, value };
    });
    const path = points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x} ${point.y}`).join(' ');
    return { key, label, points, path };
  });
  return {
    plot,
    series,
    xTicks:
      entries.length === 0
        ? []
        : cycleTicks(minCycle, maxCycle).map((cycle) => ({ x: round(x(cycle)), label: cycle.toLocaleString('en') })),
    yTicks: [0, 0.25, 0.5, 0.75, 1].map((value) => ({ y: round(y(value)), label: weightText(value) })),
  };
}

/** What the chart shows, in a sentence, for its accessible name. */
export function chartSummary(entries: readonly PsycheHistoryEntry[]): string {
  const latest = entries.at(-1);
  if (!latest) return 'Psyche history: no versions yet.';
  const first = entries[0]!;
  const versions = `${entries.length.toLocaleString('en')} ${entries.length === 1 ? 'version' : 'versions'}`;
  const cycles =
    first.cycle === latest.cycle
      ? `at cycle ${latest.cycle.toLocaleString('en')}`
      : `from cycle ${first.cycle.toLocaleString('en')} to ${latest.cycle.toLocaleString('en')}`;
  const now = SERIES.map(({ key, label }) => `${label.toLowerCase()} ${weightText(valueOf(latest, key))}`).join(', ');
  return `Archetype weights and individuation over ${versions}, ${cycles}. Version ${latest.version.toLocaleString('en')}: ${now}.`;
}

import type { SpeedClass } from '#core/api.ts';

/** How big a model is and how fast it answers, in the words both engines' lists use. */

/** A count of parameters the way model names give it: "135M", "1.1B", "494M", "128K". */
export function parametersText(parameters: number): string {
  const scales = [
    { size: 1e9, unit: 'B' },
    { size: 1e6, unit: 'M' },
    { size: 1e3, unit: 'K' },
  ] as const;
  for (const { size, unit } of scales) {
    const value = parameters / size;
    // From 0.95 up a value rounds to at least 1 of its unit: 999.9M says "1B", not "1,000M".
    if (value < 0.95) continue;
    const rounded = value < 9.95 ? Math.round(value * 10) / 10 : Math.round(value);
    return `${rounded.toLocaleString('en')}${unit}`;
  }
  return Math.round(parameters).toLocaleString('en');
}

/** "fast on the CPU (under 1B parameters)": a speed class, with the rule it follows. */
export function speedText(speed: SpeedClass, engine: 'CPU' | 'GPU'): string {
  return `${speed} on the ${engine} (${SPEED_RULE[speed]})`;
}

const SPEED_RULE: Record<SpeedClass, string> = {
  fast: 'under 1B parameters',
  moderate: '1B to 2B parameters',
  slow: 'over 2B parameters',
};

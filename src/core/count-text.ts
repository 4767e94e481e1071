/**
 * Numbers and counts as Anima writes them everywhere (UI, CLI, cycle log, write-ups): grouped by
 * thousands in English ("1,228"), with the noun in the singular for one ("1 answer").
 */
export function numberText(count: number): string {
  return count.toLocaleString('en');
}

/** A count with its noun: "1 answer", "1,228 answers"; `plural` for nouns that do not take an s. */
export function countText(count: number, singular: string, plural = `${singular}s`): string {
  return `${numberText(count)} ${count === 1 ? singular : plural}`;
}

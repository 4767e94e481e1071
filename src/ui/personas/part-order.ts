/**
 * A persona's parts as the editor arranges them: their order, priority and pin, which the
 * editor sends all at once (personaArrangeParts) after each change.
 */

/** A linked part as the editor shows and arranges it. */
export type ArrangedPart = { name: string; type: string; summary: string; priority: number; pinned: boolean };

/** The list with the item at `from` moved to `to` (both clamped into the list); a new array, the old one unchanged. */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  if (from < 0 || from >= items.length) return [...items];
  const target = Math.max(0, Math.min(items.length - 1, to));
  const result = [...items];
  const [item] = result.splice(from, 1);
  result.splice(target, 0, item!);
  return result;
}

/** What personaArrangeParts takes: each part, in order, with its priority and pin. */
export function arrangementOf(parts: readonly ArrangedPart[]): { name: string; priority: number; pinned: boolean }[] {
  return parts.map(({ name, priority, pinned }) => ({ name, priority, pinned }));
}

/** The catalog's range of a part's priority. */
export const PRIORITY_RANGE = { min: -1000, max: 1000 } as const;

/** A priority typed into the editor, as a whole number in range; undefined when it is not one. */
export function priorityOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^-?\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= PRIORITY_RANGE.min && value <= PRIORITY_RANGE.max ? value : undefined;
}

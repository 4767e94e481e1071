import type { ToolState } from './tool.ts';

/**
 * The words a goal is about, lower-cased: its criteria keywords (or its pattern's names) and the
 * labels of its symbols. What "a document mentions the goal" looks for (compared singular).
 */
export function goalWords(state: Pick<ToolState, 'criteria' | 'goalSymbols' | 'graph'>): string[] {
  const { criteria, graph } = state;
  const words =
    criteria.kind !== 'pattern'
      ? criteria.keywords
      : criteria.patterns.flatMap((pattern) =>
          pattern.flatMap((term) => (term.type === 'label' ? [term.value.toLowerCase()] : [])),
        );
  const labels = state.goalSymbols
    .map((id) => (graph.symbol(id)?.label ?? '').toLowerCase())
    .filter((label) => label !== '');
  return [...new Set([...words, ...labels])];
}

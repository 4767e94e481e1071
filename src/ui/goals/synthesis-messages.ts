import { BUILT_IN_GRAMMARS } from '../psyche/psyche-form.ts';

/** The grammars to choose from: the built-in ones first, then those the agent named, each once. */
export function grammarChoices(named: readonly string[]): string[] {
  return [...new Set([...BUILT_IN_GRAMMARS, ...named])];
}

/** A grammar's name as the select shows it: built-in ones capitalised, a custom grammar as named, marked. */
export function grammarLabel(grammar: string): string {
  return (BUILT_IN_GRAMMARS as readonly string[]).includes(grammar)
    ? grammar.charAt(0).toUpperCase() + grammar.slice(1)
    : `${grammar} (custom)`;
}

/** The file a write-up downloads to: "learn-about-mars-narrative.txt"; a description without letters gives "goal-3-...". */
export function writeUpFileName(goal: { id: number; description: string }, grammar: string): string {
  const slug = (text: string) =>
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '');
  return `${slug(goal.description) || `goal-${goal.id}`}-${slug(grammar) || 'grammar'}.txt`;
}

import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { plainText } from '#core/plain-text.ts';
import type { Goal } from '#core/records/goal.ts';

/** A goal asks for notes in its own words: "Find mammals and keep notes", "Write a note on Mars", "Summarise what eats fish". */
const ASKS_FOR_NOTES = /\b(?:note|notes|write|summary|summarise|summarize|report)\b/iu;

export function asksForNotes(goal: Pick<Goal, 'description'>): boolean {
  return ASKS_FOR_NOTES.test(goal.description);
}

/** Why a goal whose criteria are met has not completed: its notes do not hold every finding yet. */
export const NOTES_PENDING = 'its criteria are met; it completes once its notes hold every finding';

/** The note's file name: one note per goal, rewritten in place. */
export function scratchNoteName(goalId: number): string {
  return `goal-${goalId}-notes.md`;
}

/** The note's Markdown: the goal, then one line per finding with its confidence. */
export function scratchNoteText(graph: KnowledgeGraph, goal: Goal, cycle: number): string {
  const label = (id: number) => plainText(graph.symbol(id)?.label ?? `#${id}`);
  const lines = goal.findings.map(([subject, predicate, object]) => {
    const confidence = graph.triple(subject, predicate, object)?.confidence;
    return `- ${label(subject)} ${label(predicate)} ${label(object)}${confidence !== undefined ? ` (confidence ${confidence.toFixed(2)})` : ' (no longer in the graph)'}`;
  });
  const count = `${goal.findings.length} finding${goal.findings.length === 1 ? '' : 's'}`;
  return `# Notes: ${plainText(goal.description)}\n\nGoal ${goal.id}, written at cycle ${cycle}: ${count}.\n\n${lines.join('\n')}\n`;
}

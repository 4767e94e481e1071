import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { plainText } from '#core/plain-text.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import type { Goal } from '#core/records/goal.ts';
import type { ScratchNote } from '#core/records/scratch-note.ts';

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

/** Writes a goal's note in place of its last one (inside the caller's transaction). */
export async function storeScratchNote(
  db: AnimaDatabase,
  note: {
    sessionId: string;
    goalId: number;
    name: string;
    text: string;
    findingsNoted: number;
    cycle: number;
    now: number;
  },
): Promise<void> {
  const { sessionId, goalId, name, text, findingsNoted, cycle, now } = note;
  const existing = await db.artifacts
    .where('sessionId')
    .equals(sessionId)
    .filter((artifact) => artifact.name === name)
    .first();
  await db.artifacts.put({
    ...(existing?.id !== undefined ? { id: existing.id } : {}),
    sessionId,
    goalId,
    name,
    mediaType: 'text/markdown',
    text,
    findingsNoted,
    cycle,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  });
}

/** A session's notes, newest first. */
export async function scratchNotesOf(db: AnimaDatabase, sessionId: string): Promise<ScratchNote[]> {
  return (await db.artifacts.where('sessionId').equals(sessionId).toArray()).sort(
    (a, b) => b.updatedAt - a.updatedAt || (b.id ?? 0) - (a.id ?? 0),
  );
}

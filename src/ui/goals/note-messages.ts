import type { ScratchNoteView } from '#core/api.ts';

/** When a note was last written and what it holds: "Written at cycle 4, 5 findings". */
export function noteSummary(note: Pick<ScratchNoteView, 'cycle' | 'findingsNoted'>): string {
  const findings = `${note.findingsNoted.toLocaleString()} finding${note.findingsNoted === 1 ? '' : 's'}`;
  return `Written at cycle ${note.cycle.toLocaleString()}, ${findings}`;
}

/**
 * Each goal's note, from the session's notes listed newest first: one note per goal, and should
 * there ever be two, the newest wins.
 */
export function notesByGoal<Note extends Pick<ScratchNoteView, 'goalId'>>(notes: readonly Note[]): Map<number, Note> {
  const byGoal = new Map<number, Note>();
  for (const note of notes) if (!byGoal.has(note.goalId)) byGoal.set(note.goalId, note);
  return byGoal;
}

import type { ScratchNoteView } from '#core/api.ts';
import { notesByGoal } from './note-messages.ts';
import { PerGoalList, type PerGoalListHost } from './per-goal-list.svelte.ts';

/**
 * The notes the agent keeps in the session's scratch area (one per goal that asks for notes),
 * newest first; a cycle can write or rewrite one.
 */
export class GoalNotes extends PerGoalList<ScratchNoteView, Map<number, ScratchNoteView>> {
  constructor(host: PerGoalListHost) {
    super(
      host,
      async ({ client, sessionId }) => (await client.noteList({ sessionId })).notes,
      (notes) => notesByGoal(notes),
    );
  }
}

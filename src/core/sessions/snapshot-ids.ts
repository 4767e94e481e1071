import { scratchNoteName } from '#core/goals/scratch-note.ts';
import { actionDigest } from '#core/tools/action-digest.ts';
import { TOOLS } from '#core/tools/registry.ts';
import type { Snapshot } from './snapshot-format.ts';

/** The snapshot's parts whose rows have database-wide ids (IndexedDB key generators shared by every session). */
export const NUMBERED_PARTS = [
  'provenance',
  'goals',
  'workingMemory',
  'episodes',
  'approvals',
  'questions',
  'documents',
  'artifacts',
  'plans',
  'reflections',
  'jobs',
] as const;
export type NumberedPart = (typeof NUMBERED_PARTS)[number];

/** Tools whose input names a document by id. */
const DOCUMENT_TOOLS = new Set(['file_io', 'text_ingest']);

/**
 * Gives every numbered row a new id and rewrites every reference to it: the n-th row of a part
 * (in id order) gets `idOf(part, n)`. Export numbers each part 1, 2, 3, ... so a file does not
 * depend on the database it came from; a restore numbers them after the ids the database already
 * uses, so a copy never collides with another session. Both keep the order, which makes
 * export -> import -> export give the same bytes. Approvals whose input named a renumbered
 * document are bound to the new input's digest (the action asked for is the same).
 */
export async function renumberSnapshot(
  snapshot: Snapshot,
  idOf: (part: NumberedPart, ordinal: number) => number,
): Promise<Snapshot> {
  const maps = Object.fromEntries(
    NUMBERED_PARTS.map((part) => {
      const ids = snapshot[part].map((row) => row.id).sort((left, right) => left - right);
      return [part, new Map(ids.map((id, index) => [id, idOf(part, index + 1)]))];
    }),
  ) as Record<NumberedPart, Map<number, number>>;
  // parseSnapshot has checked that every reference resolves; an unknown id is kept as it is.
  const to = (part: NumberedPart, id: number) => maps[part].get(id) ?? id;
  const goal = (id: number) => to('goals', id);
  const goalOf = <T extends { goalId?: number | undefined }>(row: T): T =>
    row.goalId === undefined ? row : { ...row, goalId: goal(row.goalId) };
  const renumbered = <T extends { id: number }>(part: NumberedPart, rows: readonly T[]): T[] =>
    rows.map((row) => ({ ...row, id: to(part, row.id) }));
  const inputOf = (tool: string, input: unknown): unknown => {
    if (
      !DOCUMENT_TOOLS.has(tool) ||
      typeof input !== 'object' ||
      input === null ||
      !('documentId' in input) ||
      typeof input.documentId !== 'number'
    )
      return input;
    return { ...input, documentId: to('documents', input.documentId) };
  };
  const approvals = await Promise.all(
    renumbered('approvals', snapshot.approvals).map(async (approval) => {
      const input = inputOf(approval.tool, approval.input);
      const tool = TOOLS.find((candidate) => candidate.name === approval.tool);
      const digest = input !== approval.input && tool ? await actionDigest(tool, input) : approval.digest;
      return {
        ...goalOf(approval),
        input,
        digest,
        ...(approval.askedInput !== undefined ? { askedInput: inputOf(approval.tool, approval.askedInput) } : {}),
      };
    }),
  );
  return {
    ...snapshot,
    triples: snapshot.triples.map((triple) =>
      triple.provenanceId === undefined ? triple : { ...triple, provenanceId: to('provenance', triple.provenanceId) },
    ),
    provenance: renumbered('provenance', snapshot.provenance),
    goals: renumbered('goals', snapshot.goals).map((row) => ({
      ...row,
      ...(row.parentId !== undefined ? { parentId: goal(row.parentId) } : {}),
      ...(row.waitingForJob !== undefined ? { waitingForJob: to('jobs', row.waitingForJob) } : {}),
    })),
    workingMemory: renumbered('workingMemory', snapshot.workingMemory).map(goalOf),
    cycles: snapshot.cycles.map((record) => ({
      ...record,
      goalId: goal(record.goalId),
      input: inputOf(record.tool, record.input),
      ...(record.shadow
        ? {
            shadow: {
              ...record.shadow,
              provenanceId: to('provenance', record.shadow.provenanceId),
              ...(record.shadow.approvalId !== undefined
                ? { approvalId: to('approvals', record.shadow.approvalId) }
                : {}),
            },
          }
        : {}),
    })),
    episodes: renumbered('episodes', snapshot.episodes).map(goalOf),
    approvals,
    questions: renumbered('questions', snapshot.questions).map(goalOf),
    documents: renumbered('documents', snapshot.documents),
    // A goal's notes are named after it: the name follows the goal's new id.
    artifacts: renumbered('artifacts', snapshot.artifacts).map((artifact) => ({
      ...goalOf(artifact),
      name:
        artifact.tool === 'file_io' && artifact.name === scratchNoteName(artifact.goalId)
          ? scratchNoteName(goal(artifact.goalId))
          : artifact.name,
    })),
    plans: renumbered('plans', snapshot.plans).map((plan) => ({
      ...goalOf(plan),
      steps: plan.steps.map((step) => ({ ...step, input: inputOf(step.tool, step.input) })),
    })),
    reflections: renumbered('reflections', snapshot.reflections).map((reflection) => ({
      ...reflection,
      goals: reflection.goals.map(goalOf),
      adjustments: reflection.adjustments.map(goalOf),
    })),
    jobs: renumbered('jobs', snapshot.jobs).map(goalOf),
  };
}

import { SNAPSHOT_FORMAT } from './snapshot-format.ts';

/** Brings an older snapshot to the current version, step by step; anything else passes unchanged (and fails the schema). */
export function migrateSnapshot(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || (value as { format?: unknown }).format !== SNAPSHOT_FORMAT)
    return value;
  const snapshot = value as Record<string, unknown>;
  let migrated = snapshot;
  // 1 -> 2: sessions gained goals, working memory and the cycle log; a version 1 session had none.
  if (migrated.version === 1) migrated = { ...migrated, version: 2, goals: [], workingMemory: [], cycles: [] };
  // 2 -> 3: sessions gained episodes; a version 2 session had none.
  if (migrated.version === 2) migrated = { ...migrated, version: 3, episodes: [] };
  // 3 -> 4: sessions gained a psyche history and approvals; a version 3 session wore the default psyche.
  if (migrated.version === 3) migrated = { ...migrated, version: 4, psyches: [], approvals: [] };
  // 4 -> 5: sessions gained the agent's questions; a version 4 session had asked none.
  if (migrated.version === 4) migrated = { ...migrated, version: 5, questions: [] };
  // 5 -> 6: sessions gained imported documents; a version 5 session had none.
  if (migrated.version === 5) migrated = { ...migrated, version: 6, documents: [] };
  // 6 -> 7: sessions gained the agent's scratch notes; a version 6 session had written none.
  if (migrated.version === 6) migrated = { ...migrated, version: 7, notes: [] };
  // 7 -> 8: sessions gained plans and reflections; a version 7 session had made none (its goals plan afresh).
  if (migrated.version === 7) migrated = { ...migrated, version: 8, plans: [], reflections: [] };
  // 8 -> 9: sessions gained the persona they wear; a version 8 file carried none (its rows' ids are renumbered on restore).
  if (migrated.version === 8) migrated = { ...migrated, version: 9 };
  // 9 -> 10: goals gained the answer to the question they ask; a version 9 goal has none yet, and a
  // goal whose description asks a question is read and answered on its next cycle.
  if (migrated.version === 9) migrated = { ...migrated, version: 10 };
  // 10 -> 11: cycle records gained the evidence of a refused action and their child runs, approvals a red
  // team's finding; a version 10 session kept none of them.
  if (migrated.version === 10) migrated = { ...migrated, version: 11 };
  // 11 -> 12: the scratch notes became artifacts of every kind; a note is file_io's text artifact.
  if (migrated.version === 11) {
    const { notes, ...rest } = migrated;
    migrated = {
      ...rest,
      version: 12,
      artifacts: Array.isArray(notes) ? notes.map(artifactOfNote) : notes,
    };
  }
  // 12 -> 13: snapshots gained the background jobs; a version 12 file kept none, so a goal that waited
  // for one goes on (its tool defers the work again if it still must).
  if (migrated.version === 12)
    migrated = {
      ...migrated,
      version: 13,
      jobs: [],
      goals: Array.isArray(migrated.goals) ? migrated.goals.map(goalNotWaitingForJob) : migrated.goals,
    };
  // 13 -> 14: an inference's provenance may explain a batch of facts; a version 13 file has one record per fact, which still reads.
  if (migrated.version === 13) migrated = { ...migrated, version: 14 };
  return migrated;
}

/** A version 12 goal that waited for a background job, active again; anything else as it is (the schema checks it). */
function goalNotWaitingForJob(goal: unknown): unknown {
  if (typeof goal !== 'object' || goal === null || !('waitingForJob' in goal)) return goal;
  const { waitingForJob, ...rest } = goal as Record<string, unknown>;
  return {
    ...rest,
    ...(rest.status === 'waiting'
      ? {
          status: 'active',
          statusReason: `background job #${String(waitingForJob)} was not kept by a version 12 snapshot; the goal goes on`,
        }
      : {}),
  };
}

/** A version 11 note as a version 12 artifact; a note that is not an object is left for the schema to refuse. */
function artifactOfNote(note: unknown): unknown {
  if (typeof note !== 'object' || note === null) return note;
  const { findingsNoted: _findingsNoted, text, ...rest } = note as Record<string, unknown>;
  return { ...rest, tool: 'file_io', kind: 'text', text };
}

/**
 * A session snapshot: one JSON document holding a whole session (snapshot.ts: what is in it;
 * snapshot-file.ts: the file around it, its hash, gzip and limits). The UI reads the version too.
 */
export const SNAPSHOT_FORMAT = 'anima-snapshot';
/**
 * Version 2 added the agent's goals, working memory and cycle log; 3 its episodes; 4 the psyche's
 * versions and the approvals; 5 the agent's questions; 6 the imported documents; 7 the agent's
 * scratch notes; 8 its plans and reflections; 9 the persona it wears (as a bundle), numbers each
 * part's rows from 1 and carries the SHA-256 of its content; 10 the answers of goals that ask a
 * question. Older files are migrated on import.
 */
export const SNAPSHOT_VERSION = 10;

/**
 * The largest snapshot (unzipped) Anima reads, and so writes: the reader holds the whole document
 * as one string and then as objects, which past this a browser tab struggles to hold. Gzip saves
 * disk, not memory, so the limit is on the unzipped size either way.
 */
export const MAX_SNAPSHOT_BYTES = 256 * 2 ** 20;

/** The limits a snapshot file is read and written under: the same for both (tests pass smaller ones). */
export type SnapshotLimits = { maxBytes: number };
export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = { maxBytes: MAX_SNAPSHOT_BYTES };

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

import { MAX_NAME_CHARS, type SessionImportPreview, type SessionView, SNAPSHOT_VERSION } from '#core/api.ts';
import { type Problem, describeProblem } from '#core/result.ts';
import { STORAGE_FULL_TEXT } from '../storage/storage-messages.ts';

/** The longest session name the agent takes. */
export const SESSION_NAME_MAX_LENGTH = MAX_NAME_CHARS;

/** Why the controls that change sessions are disabled in a tab that only shows the session. */
export const SESSIONS_READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can change sessions: close it to change them here.';

/** Why the agent refused a change to a session. */
export type SessionFailureReason = 'invalid' | 'not-found' | 'read-only' | 'busy' | 'exists' | 'storage-full';

/** What the agent answers when it refuses a change. */
export type SessionRefusal = { ok: false; reason: SessionFailureReason; problems: Problem[] };

/** How a change went, as the screen says it: problems and warnings already in words ("at sha256: ..."). */
export type SessionReport = { tone: 'success' | 'failure'; message: string; problems: string[]; warnings: string[] };

const REASON_TEXT: Record<Exclude<SessionFailureReason, 'invalid'>, string> = {
  'not-found': 'the session is not on this device any more (another tab may have deleted it)',
  'read-only': 'Anima is open in another tab, and only that tab can change sessions',
  busy: 'a run, an import or a download is in progress: wait for it to end (or pause the run), then try again',
  exists: 'a session with its id is on this device already: import it as a copy, or replace the one here',
  'storage-full': STORAGE_FULL_TEXT,
};

/** A refusal in words: what did not happen, and why; for input that is not valid, each problem and where it is. */
export function refusalReport(what: string, refusal: SessionRefusal): SessionReport {
  // The other reasons say all there is; their problems would repeat them.
  if (refusal.reason === 'invalid')
    return { tone: 'failure', message: `${what}:`, problems: refusal.problems.map(describeProblem), warnings: [] };
  return { tone: 'failure', message: `${what}: ${REASON_TEXT[refusal.reason]}.`, problems: [], warnings: [] };
}

/** What is wrong with a name typed for a session, or undefined when the agent takes it. */
export function sessionNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'Give the session a name.';
  if (trimmed.length > SESSION_NAME_MAX_LENGTH)
    return `A session name has at most ${SESSION_NAME_MAX_LENGTH} characters.`;
  if (/[\p{Cc}\p{Zl}\p{Zp}]/u.test(trimmed)) return 'A session name is one line without control characters.';
  return undefined;
}

/** A call that failed outright (the worker broke, say). */
export function errorReport(what: string, message: string): SessionReport {
  return { tone: 'failure', message: `${what}: ${message}`, problems: [], warnings: [] };
}

export function successReport(message: string, warnings: readonly Problem[] = []): SessionReport {
  return { tone: 'success', message, problems: [], warnings: warnings.map(describeProblem) };
}

/** A session's size in storage: "12 KB", "1.2 MB", "340 MB", "1.5 GB". */
export function sizeText(bytes: number): string {
  const kilobytes = bytes / 1024;
  if (kilobytes < 1024) return `${Math.max(1, Math.round(kilobytes)).toLocaleString('en')} KB`;
  const megabytes = kilobytes / 1024;
  if (megabytes < 10) return `${(Math.round(megabytes * 10) / 10).toLocaleString('en')} MB`;
  if (megabytes < 1024) return `${Math.round(megabytes).toLocaleString('en')} MB`;
  return `${(Math.round((megabytes / 1024) * 10) / 10).toLocaleString('en')} GB`;
}

/** Its goals: "2 open of 3", "none". */
export function goalsText(goals: SessionView['goals']): string {
  return goals.total === 0 ? 'none' : `${goals.open.toLocaleString('en')} open of ${goals.total.toLocaleString('en')}`;
}

/** The version of its psyche: "the default" until it first changes, then "version 3". */
export function psycheText(version: number): string {
  return version === 0 ? 'the default' : `version ${version.toLocaleString('en')}`;
}

/**
 * The name a copy is offered: "NAME (copy)", or "NAME (copy 2)", "(copy 3)"... when that is taken
 * (a copy of a copy counts on from the original's name), shortened to stay within the longest name.
 */
export function copyName(name: string, taken: readonly string[] = []): string {
  const original = name.replace(/ \(copy(?: \d+)?\)$/, '');
  const takenNames = new Set(taken);
  for (let number = 1; ; number++) {
    const suffix = number === 1 ? ' (copy)' : ` (copy ${number})`;
    const candidate = `${original.slice(0, SESSION_NAME_MAX_LENGTH - suffix.length).trimEnd()}${suffix}`;
    if (!takenNames.has(candidate)) return candidate;
  }
}

/**
 * The question asked before a session is deleted. Deleting the open one opens another: the most
 * recently changed of the others (`next`), or a new empty session when it is the only one.
 */
export function deleteQuestion(
  session: Pick<SessionView, 'name' | 'isActive'>,
  next: Pick<SessionView, 'name'> | undefined,
): string {
  const question = `Delete “${session.name}” and everything in it: its graph, goals, cycles, memory and psyche? This cannot be undone; export it first to keep a copy.`;
  if (!session.isActive) return question;
  return `${question} It is open now: ${next ? `“${next.name}” opens instead` : 'a new empty session opens instead'}.`;
}

/** What deleting a session did, and which session is open now when it was the open one. */
export function deletedText(name: string, openNow: string | undefined): string {
  return openNow === undefined ? `Deleted “${name}”.` : `Deleted “${name}”. “${openNow}” is open now.`;
}

/** The format version of a file to import: "9", or "7 (migrated from version 7 to 9 as it is imported)". */
export function fileVersionText(fileVersion: number): string {
  return fileVersion < SNAPSHOT_VERSION
    ? `${fileVersion} (migrated from version ${fileVersion} to ${SNAPSHOT_VERSION} as it is imported)`
    : `${fileVersion}`;
}

/** What a file to import holds, in one line. */
export function previewCountsText(preview: Pick<SessionImportPreview, 'cycle' | 'goals' | 'triples'>): string {
  const count = (value: number, one: string, many: string) =>
    `${value.toLocaleString('en')} ${value === 1 ? one : many}`;
  return [
    count(preview.cycle, 'cycle', 'cycles'),
    count(preview.goals, 'goal', 'goals'),
    count(preview.triples, 'triple', 'triples'),
  ].join(', ');
}

/** What a check of a stored session found: whole, or the problems. */
export function checkReport(problems: readonly Problem[]): SessionReport {
  if (problems.length === 0) return successReport('Whole: no problems found.');
  const count = problems.length === 1 ? 'one problem' : `${problems.length.toLocaleString('en')} problems`;
  return {
    tone: 'failure',
    message: `Not whole: ${count} found.`,
    problems: problems.map(describeProblem),
    warnings: [],
  };
}

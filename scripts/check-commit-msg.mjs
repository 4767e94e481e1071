import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * The commit message rules (see README, "Contributing"): a subject of at most 72 characters that
 * says what changed, one change per commit, the why in a body after a blank line.
 * Run by .githooks/commit-msg; `node scripts/check-commit-msg.mjs FILE` checks a message file.
 */
export const SUBJECT_LIMIT = 72;

/** The problems of a commit message, in words; empty when it keeps the rules. */
export function commitMessageProblems(message) {
  const lines = message
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .map((line) => line.trimEnd());
  const subject = lines[0] ?? '';
  // Merges and fixups name what they join; git writes those subjects itself.
  if (/^(Merge|Revert|fixup!|squash!) /.test(subject)) return [];
  const problems = [];
  if (subject.trim() === '') problems.push('The subject line is empty.');
  if (subject.length > SUBJECT_LIMIT)
    problems.push(
      `The subject has ${subject.length} characters; at most ${SUBJECT_LIMIT}: say what changed, and put the why in the body.`,
    );
  if (/^Review\b/i.test(subject) || /;\s/.test(subject))
    problems.push('The subject lists several changes; make one commit per change.');
  if (/\.$/.test(subject)) problems.push('The subject ends with a full stop.');
  if (lines.length > 1 && lines[1] !== '') problems.push('The second line must be blank: the body starts after it.');
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    console.error('Usage: node scripts/check-commit-msg.mjs MESSAGE_FILE');
    process.exit(2);
  }
  const problems = commitMessageProblems(readFileSync(file, 'utf8'));
  for (const problem of problems) console.error(`commit message: ${problem}`);
  process.exit(problems.length > 0 ? 1 : 0);
}

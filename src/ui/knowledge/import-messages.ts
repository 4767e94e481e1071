import type { ImportOutcome, ImportShared } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { STORAGE_FULL_TEXT } from '../storage/storage-messages.ts';

/** What the Import panel says about an import that ended: a success, or a failure with the problems to list. */
export type ImportReport =
  { tone: 'success'; message: string } | { tone: 'failure'; message: string; problems: string[] };

/**
 * Writes the words for an import outcome. The agent sends reason codes and located problems;
 * the sentences are written here, in one place.
 */
export function describeImportOutcome(outcome: ImportOutcome, fileName: string): ImportReport {
  if (outcome.ok) {
    return {
      tone: 'success',
      message: [
        `Imported ${countOf(outcome.statements, 'statement')}: ${countOf(outcome.added, 'new triple')}, ${outcome.updated.toLocaleString()} raised in confidence.`,
        ...describeShared(outcome.shared),
      ].join(' '),
    };
  }
  switch (outcome.reason) {
    case 'cancelled':
      return { tone: 'failure', message: 'Import cancelled; nothing was changed.', problems: [] };
    case 'unknown-format':
      return {
        tone: 'failure',
        message: `The format of “${fileName}” is not clear from its name: choose N-Triples, Turtle or CSV under Format, or use a .nt, .ttl or .csv file.`,
        problems: [],
      };
    case 'read-only':
      return {
        tone: 'failure',
        message: `“${fileName}” was not imported: Anima is open in another tab, and only that tab can change the session. Close it, and this tab takes over.`,
        problems: [],
      };
    case 'invalid':
      return {
        tone: 'failure',
        message: `“${fileName}” was not imported; nothing was changed.`,
        problems: outcome.problems.map(describeProblem),
      };
    case 'storage-full':
      return { tone: 'failure', message: `“${fileName}” was not imported: ${STORAGE_FULL_TEXT}.`, problems: [] };
  }
}

/**
 * What a preview (a dry run) says: what the file would add, what it shares with the graph, and
 * that nothing is imported yet. A failed reading is said as an import's would be.
 */
export function describeImportPreview(outcome: ImportOutcome, fileName: string): ImportReport {
  if (!outcome.ok) return describeImportOutcome(outcome, fileName);
  return {
    tone: 'success',
    message: [
      `“${fileName}” would add ${countOf(outcome.added, 'new triple')} (of ${countOf(outcome.statements, 'statement')}) and raise ${outcome.updated.toLocaleString()} in confidence.`,
      ...describeShared(outcome.shared, { isPreview: true }),
      'Nothing is in the graph until you import it.',
    ].join(' '),
  };
}

function countOf(count: number, noun: string): string {
  return `${count.toLocaleString()} ${noun}${count === 1 ? '' : 's'}`;
}

/** What the file shares with the graph, in sentences: the relations it joins, and the things named as the graph's (linked, or how to link them). */
export function describeShared(
  shared: ImportShared | undefined,
  { isPreview = false }: { isPreview?: boolean } = {},
): string[] {
  if (!shared) return [];
  const sentences: string[] = [];
  const { relations, sameNames } = shared;
  const more = (count: number, shown: number) => (count > shown ? ` and ${(count - shown).toLocaleString()} more` : '');
  if (relations.count > 0)
    sentences.push(
      `${countOf(relations.count, 'relation')} of the file ${relations.count === 1 ? (isPreview ? 'would join a known one' : 'joins a known one') : isPreview ? 'would join known ones' : 'join known ones'}: ${relations.examples.map((example) => `${example.relation} as ${example.joins}`).join(', ')}${more(relations.count, relations.examples.length)}.`,
    );
  if (sameNames.count > 0) {
    const examples = `${sameNames.examples.map((example) => `“${example.symbol}” and “${example.existing}”`).join(', ')}${more(sameNames.count, sameNames.examples.length)}`;
    sentences.push(
      sameNames.linked > 0
        ? `Linked ${countOf(sameNames.linked, 'thing')} to the graph's of the same name, as the same: ${examples}.`
        : isPreview
          ? `${countOf(sameNames.count, 'thing')} ${sameNames.count === 1 ? 'has' : 'have'} the name of one in the graph (${examples}): to treat them as the same, tick “Link things of the same name” before you import; else they are kept apart.`
          : `${countOf(sameNames.count, 'thing')} ${sameNames.count === 1 ? 'has' : 'have'} the name of one in the graph (${examples}); they are kept apart. To treat them as the same, tick “Link things of the same name” and import the file again.`,
    );
  }
  return sentences;
}

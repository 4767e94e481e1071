import type { AgentApi, DocumentView } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { dateTimeText } from '../approvals/approval-messages.ts';
import { STORAGE_FULL_TEXT } from '../storage/storage-messages.ts';

/**
 * The words of the Documents panel, kept apart from its components so they can be tested: what an
 * import or a deletion did, a document's size, and whether the agent has read it yet.
 */

/** Why Import and Delete are disabled in a tab that only shows the session. */
export const DOCUMENTS_READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can change the session: close it to import or delete documents here.';

/** What the panel says about an import or a deletion that ended: a success, or a failure with the problems to list. */
export type DocumentReport =
  { tone: 'success'; message: string } | { tone: 'failure'; message: string; problems: string[] };

/** Says how an import went, from documentImport's answer. */
export function describeDocumentImport(
  result: Awaited<ReturnType<AgentApi['documentImport']>>,
  fileName: string,
): DocumentReport {
  if (result.ok)
    return { tone: 'success', message: `Imported ${result.document.name} (${sizeText(result.document.size)}).` };
  switch (result.reason) {
    case 'read-only':
      return {
        tone: 'failure',
        message: `“${fileName}” was not imported: ${DOCUMENTS_READ_ONLY_REASON}`,
        problems: [],
      };
    case 'invalid':
      return {
        tone: 'failure',
        message: `“${fileName}” was not imported; nothing was changed:`,
        problems: result.problems.map(describeProblem),
      };
    case 'storage-full':
      return { tone: 'failure', message: `“${fileName}” was not imported: ${STORAGE_FULL_TEXT}.`, problems: [] };
  }
}

/** Says how a deletion went, from documentDelete's answer. */
export function describeDocumentDelete(
  result: Awaited<ReturnType<AgentApi['documentDelete']>>,
  name: string,
): DocumentReport {
  if (result.ok)
    return { tone: 'success', message: `Deleted ${name}; the facts the agent took from it stay in the graph.` };
  return { tone: 'failure', message: `“${name}” was not deleted:`, problems: result.problems.map(describeProblem) };
}

/** The question asked before a deletion; it says what stays, since "delete" could be read as undoing the document's facts. */
export function deleteConfirmText(name: string): string {
  return `Delete the document “${name}”? The facts the agent already took from it stay in the graph.`;
}

/** A document's size in words: "1 character", "1,234 characters". */
export function sizeText(size: number): string {
  return `${size.toLocaleString('en')} ${size === 1 ? 'character' : 'characters'}`;
}

/** Whether the agent has turned a document into facts yet: "Not read yet", "Turned into 3 facts on 5 Mar 2026, 14:03". */
export function ingestionText(document: Pick<DocumentView, 'ingestedAt' | 'factsExtracted'>): string {
  if (document.ingestedAt === undefined) return 'Not read yet';
  const facts = document.factsExtracted ?? 0;
  const date = dateTimeText(document.ingestedAt);
  if (facts === 0) return `Read on ${date}; no simple sentences to turn into facts`;
  return `Turned into ${facts.toLocaleString('en')} ${facts === 1 ? 'fact' : 'facts'} on ${date}`;
}

/** A document's preview as the list shows it: the start of a longer document ends with an ellipsis. */
export function previewText(document: Pick<DocumentView, 'size' | 'preview'>): string {
  return document.preview.length < document.size ? `${document.preview.trimEnd()}…` : document.preview;
}

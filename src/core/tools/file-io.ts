import { z } from 'zod';
import { rejectionOf } from '#core/records/rejection.ts';
import { sentencesOf, singular, wordsOfText } from '#core/kg/sentence-facts.ts';
import { asksForNotes, NOTES_PENDING, scratchNoteName, scratchNoteText } from '#core/goals/scratch-note.ts';
import { describeAction } from '#core/psyche/shadow.ts';
import { goalWords } from './goal-words.ts';
import type { Tool, ToolState } from './tool.ts';

const MAX_SENTENCES = 5;

/** The documents that mention the goal, with the goal's words each mentions, most mentions first. */
function mentioning(state: ToolState) {
  const words = goalWords(state);
  return state.documents
    .map((document) => {
      return { document, words: words.filter((word) => document.words.has(singular(word))) };
    })
    .filter((entry) => entry.words.length > 0)
    .sort((a, b) => b.words.length - a.words.length || (a.document.id ?? 0) - (b.document.id ?? 0));
}

/** Why the goal has no note to write now, or undefined. */
function noNoteBecause(state: ToolState): string | undefined {
  if (!asksForNotes(state.goal)) return 'the goal asks for no notes';
  if (state.goal.findings.length <= (state.goal.notedFindings ?? 0)) return 'its notes already hold every finding';
  return undefined;
}

type FileIoInput = { documentId: number; words: string[] } | { note: string };

/** The action that writes a goal's note, as the shadow and the goal's blocked and denied actions name it. */
export function noteActionOf(goalId: number): string {
  return describeAction({ tool: 'file_io', input: { note: scratchNoteName(goalId) } satisfies FileIoInput });
}

/**
 * Works with files: reads what the imported documents say about the goal (the sentences of a
 * document that mention its words; what it reads counts as the tool's output for the goal's
 * criteria), and, for a goal that asks for notes, writes its findings to a note in the scratch
 * area (a download on the Goals screen). Writing comes first: a goal asking for notes completes
 * only once they hold every finding.
 */
export const fileIo: Tool<FileIoInput> = {
  name: 'file_io',
  description: "read what an imported document says about the goal; write the goal's notes to the scratch area",
  archetype: 'explorer',
  danger: 'safe',
  capabilities: ['readFiles', 'writeFiles'],
  capabilitiesOf: (input) => ('note' in input ? ['writeFiles'] : ['readFiles']),
  input: z.union([
    z.object({ documentId: z.number().int(), words: z.array(z.string().min(1).max(200)).min(1).max(50) }).strict(),
    z.object({ note: z.string().min(1).max(200) }).strict(),
  ]),
  unavailableBecause: (state) => {
    const noNote = noNoteBecause(state);
    if (noNote === undefined) return undefined;
    if (state.documents.length === 0) return `no document has been imported, and ${noNote}`;
    return mentioning(state).length === 0 ? `no imported document mentions the goal, and ${noNote}` : undefined;
  },
  baseScore: (state) =>
    noNoteBecause(state) !== undefined ? 0.5 : state.goal.statusReason === NOTES_PENDING ? 1 : 0.7,
  proposeInput: (state) => {
    if (noNoteBecause(state) === undefined) return { note: scratchNoteName(state.goal.id!) };
    const [best] = mentioning(state);
    return { documentId: best?.document.id ?? -1, words: best?.words ?? goalWords(state).slice(0, 1) };
  },
  run(input, state) {
    if ('note' in input) {
      const { goal } = state;
      if (input.note !== scratchNoteName(goal.id!))
        return {
          ok: false,
          summary: `file_io writes only its goal's own note (${scratchNoteName(goal.id!)})`,
          facts: [],
          symbols: [],
          rejection: rejectionOf(
            'invalid_arguments',
            `the goal's own note, ${scratchNoteName(goal.id!)}`,
            `asked to write ${input.note}`,
          ),
        };
      const text = scratchNoteText(state.graph, goal, state.cycle);
      return {
        ok: true,
        summary: `wrote ${input.note}: ${goal.findings.length} finding${goal.findings.length === 1 ? '' : 's'}`,
        facts: [],
        // Writing down what was found finds nothing new.
        evidence: '',
        symbols: [...state.goalSymbols].slice(0, 20),
        artifacts: [
          { name: input.note, kind: 'text', mediaType: 'text/markdown', bytes: new TextEncoder().encode(text) },
        ],
        notedFindings: goal.findings.length,
      };
    }
    const document = state.documents.find((candidate) => candidate.id === input.documentId);
    if (!document)
      return {
        ok: false,
        summary: `there is no document ${input.documentId}`,
        facts: [],
        symbols: [],
        rejection: rejectionOf(
          'precondition_miss',
          `document ${input.documentId} among the session's documents`,
          `${state.documents.length} documents, none with that id`,
        ),
      };
    const wanted = new Set(input.words.map(singular));
    const sentences = sentencesOf(document.text).filter((sentence) =>
      [...wordsOfText(sentence)].some((word) => wanted.has(word)),
    );
    const shown = sentences.slice(0, MAX_SENTENCES).map((sentence) => `"${sentence.slice(0, 300)}"`);
    return {
      ok: true,
      summary: `${document.name}: ${sentences.length} sentence${sentences.length === 1 ? '' : 's'} about ${input.words.join(', ')}${shown.length > 0 ? `: ${shown.join(' ')}` : ''}`,
      facts: [],
      // The sentences read are the evidence; the document's name and the words asked for are not.
      evidence: sentences.join(' '),
      symbols: [...state.goalSymbols].slice(0, 20),
    };
  },
};

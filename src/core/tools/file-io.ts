import { z } from 'zod';
import { sentencesOf, singular, wordsOfText } from '../kg/sentence-facts.ts';
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

/**
 * Reads what the imported documents say about the goal: the sentences of a document that
 * mention its words. What it reads counts as the tool's output for the goal's criteria.
 */
export const fileIo: Tool<{ documentId: number; words: string[] }> = {
  name: 'file_io',
  description: 'read what an imported document says about the goal',
  archetype: 'explorer',
  danger: 'safe',
  capabilities: ['readFiles'],
  input: z.object({ documentId: z.number().int(), words: z.array(z.string().min(1).max(200)).min(1).max(50) }),
  unavailableBecause: (state) => {
    if (state.documents.length === 0) return 'no document has been imported';
    return mentioning(state).length === 0 ? 'no imported document mentions the goal' : undefined;
  },
  baseScore: () => 0.5,
  proposeInput: (state) => {
    const [best] = mentioning(state);
    return { documentId: best?.document.id ?? -1, words: best?.words ?? goalWords(state).slice(0, 1) };
  },
  run(input, state) {
    const document = state.documents.find((candidate) => candidate.id === input.documentId);
    if (!document) return { ok: false, summary: `there is no document ${input.documentId}`, facts: [], symbols: [], rejection: 'precondition_miss' };
    const wanted = new Set(input.words.map(singular));
    const sentences = sentencesOf(document.text).filter((sentence) => [...wordsOfText(sentence)].some((word) => wanted.has(word)));
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

import { z } from 'zod';
import { factsOfText, singular, wordsOfText } from '../kg/sentence-facts.ts';
import { goalWords } from './goal-words.ts';
import type { FactIds, Tool, ToolState } from './tool.ts';

/** Facts read from a document are stated by someone, not checked: below what an import asserts. */
export const EXTRACTION_CONFIDENCE = 0.8;

function unread(state: ToolState) {
  return state.documents.filter((document) => document.ingestedAt === undefined);
}

/** The first unread document that mentions the goal, else the first unread one. */
function bestDocument(state: ToolState) {
  const words = goalWords(state);
  const documents = unread(state);
  return documents.find((document) => {
    const text = wordsOfText(document.text);
    return words.some((word) => text.has(singular(word)));
  }) ?? documents[0];
}

/**
 * Turns a document into facts: its simple "X is a Y" / "X has Y" sentences (the symbolic form;
 * a model reads more), each with the sentence as provenance. Each document is read once.
 */
export const textIngest: Tool<{ documentId: number }> = {
  name: 'text_ingest',
  description: 'turn a document into triples (simple "X is a Y" / "X has Y" sentences)',
  archetype: undefined,
  danger: 'cautious',
  capabilities: ['readFiles', 'writeKg'],
  input: z.object({ documentId: z.number().int() }),
  unavailableBecause: (state) => {
    if (state.documents.length === 0) return 'no document has been imported';
    return unread(state).length === 0 ? 'every document has been turned into facts already' : undefined;
  },
  baseScore: (state) => {
    const document = bestDocument(state);
    if (!document) return 0;
    const words = wordsOfText(document.text);
    return goalWords(state).some((word) => words.has(singular(word))) ? 0.7 : 0.3;
  },
  proposeInput: (state) => ({ documentId: bestDocument(state)?.id ?? -1 }),
  run(input, state) {
    const document = state.documents.find((candidate) => candidate.id === input.documentId);
    if (!document) return { ok: false, summary: `there is no document ${input.documentId}`, facts: [], symbols: [], rejection: 'precondition_miss' };
    const read = factsOfText(document.text);
    const batch = state.graph.batch({ now: state.now });
    const sentenceOf = new Map<string, string>();
    for (const fact of read) {
      const subject = batch.resolve({ type: 'label', value: fact.subject }, 'subject');
      const predicate = batch.resolve({ type: 'label', value: fact.predicate }, 'predicate');
      const object = batch.resolve({ type: 'label', value: fact.object }, 'object');
      batch.assert(subject, predicate, object, EXTRACTION_CONFIDENCE);
      sentenceOf.set(`${subject} ${predicate} ${object}`, fact.sentence);
    }
    const delta = batch.delta;
    const facts: FactIds[] = [...delta.addedTriples, ...delta.updatedTriples].map((triple) => [triple.subject, triple.predicate, triple.object]);
    const shown = read.slice(0, 5).map((fact) => `${fact.subject} ${fact.predicate} ${fact.object}`);
    return {
      ok: true,
      summary: `${document.name}: ${read.length} facts from its sentences${shown.length > 0 ? `: ${shown.join(', ')}${read.length > shown.length ? ', …' : ''}` : ''}`,
      facts,
      // What it found is in the facts; the document's name proves nothing.
      evidence: '',
      symbols: [...new Set(facts.flatMap(([subject, , object]) => [subject, object]))].slice(0, 50),
      ingestedDocument: { id: document.id!, facts: facts.length },
      graphChange: {
        delta,
        provenance: (triple) => ({
          sessionId: state.sessionId,
          kind: 'extraction',
          sources: [`document:${document.id}`],
          confidence: EXTRACTION_CONFIDENCE,
          cycle: state.cycle,
          detail: `${document.name}: "${sentenceOf.get(`${triple.subject} ${triple.predicate} ${triple.object}`) ?? ''}"`,
          createdAt: state.now,
        }),
      },
    };
  },
};

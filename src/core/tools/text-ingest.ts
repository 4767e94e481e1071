import { z } from 'zod';
import { factsOfText, singular, wordsOfText } from '../kg/sentence-facts.ts';
import { goalWords } from './goal-words.ts';
import type { FactIds, Tool, ToolState } from './tool.ts';

/** Facts read from a document are stated by someone, not checked: below what an import asserts. */
export const EXTRACTION_CONFIDENCE = 0.8;

/** The unread documents that mention the goal, first imported first. */
function unreadAboutGoal(state: ToolState) {
  const words = goalWords(state).map(singular);
  return state.documents.filter((document) => document.ingestedAt === undefined && words.some((word) => document.words.has(word)));
}

/**
 * Turns a document that mentions the goal into facts: its simple "X is a Y" / "X has Y"
 * sentences (the symbolic form; a model reads more), each with the sentence as provenance. Each
 * document is read once; every fact it states enters the graph, and those about the goal are
 * the goal's findings.
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
    return unreadAboutGoal(state).length === 0 ? 'no unread document mentions the goal' : undefined;
  },
  baseScore: () => 0.7,
  proposeInput: (state) => ({ documentId: unreadAboutGoal(state)[0]?.id ?? -1 }),
  run(input, state) {
    const document = state.documents.find((candidate) => candidate.id === input.documentId);
    if (!document) return { ok: false, summary: `there is no document ${input.documentId}`, facts: [], symbols: [], rejection: 'precondition_miss' };
    const read = factsOfText(document.text, { isKnown: (label) => state.graph.symbolByLabel(label) !== undefined });
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
    // Every fact enters the graph; only those about the goal are its findings.
    const goalSymbols = new Set(state.goalSymbols);
    const words = new Set(goalWords(state).map(singular));
    const labelOf = (id: number) => state.graph.symbol(id)?.label ?? delta.symbols.find((symbol) => symbol.id === id)?.label ?? '';
    const isAboutGoal = (id: number) => goalSymbols.has(id) || [...wordsOfText(labelOf(id).replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2'))].some((word) => words.has(word));
    const facts: FactIds[] = [...delta.addedTriples, ...delta.updatedTriples]
      .filter((triple) => isAboutGoal(triple.subject) || isAboutGoal(triple.object))
      .map((triple) => [triple.subject, triple.predicate, triple.object]);
    const shown = read.slice(0, 5).map((fact) => `${fact.subject} ${fact.predicate} ${fact.object}`);
    return {
      ok: true,
      summary: `${document.name}: ${read.length} facts from its sentences, ${facts.length} about the goal${shown.length > 0 ? `: ${shown.join(', ')}${read.length > shown.length ? ', …' : ''}` : ''}`,
      facts,
      // What it found is in the facts; the document's name proves nothing.
      evidence: '',
      symbols: [...new Set(facts.flatMap(([subject, , object]) => [subject, object]))].slice(0, 50),
      ingestedDocument: { id: document.id!, facts: delta.addedTriples.length + delta.updatedTriples.length },
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

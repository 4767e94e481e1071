import { z } from 'zod';
import { rejectionOf } from '#core/records/rejection.ts';
import { factsOfText, singular, wordsOfText } from '#core/kg/sentence-facts.ts';
import { goalWords } from './goal-words.ts';
import type { FactIds, Tool, ToolState } from './tool.ts';
import { askForFacts, assertModelFacts, bottleneckOutcome, modelProvenance } from './model-facts.ts';
import type { Bottleneck } from '#core/records/model-use.ts';
import type { ModelUse } from '#core/records/model-use.ts';

/** How much of a document one model call reads (about 1,500 tokens, room left in a 4k context). */
export const MODEL_READ_CHARACTERS = 6000;

/** Facts read from a document are stated by someone, not checked: below what an import asserts. */
export const EXTRACTION_CONFIDENCE = 0.8;

/** The unread documents that mention the goal, first imported first. */
function unreadAboutGoal(state: ToolState) {
  const words = goalWords(state).map(singular);
  return state.documents.filter(
    (document) => document.ingestedAt === undefined && words.some((word) => document.words.has(word)),
  );
}

/**
 * Turns a document that mentions the goal into facts: its simple "X is a Y" / "X has Y"
 * sentences, each with the sentence as provenance, and, with a model bound, the facts the model
 * reads in it (capped, with the model as provenance). Each document is read once; every fact it
 * states enters the graph, and those about the goal are the goal's findings.
 */
export const textIngest: Tool<{ documentId: number; by: 'sentences' | 'model' }> = {
  name: 'text_ingest',
  description: 'turn a document into triples (simple "X is a Y" / "X has Y" sentences, and with a model what it reads)',
  archetype: undefined,
  danger: 'cautious',
  capabilities: ['readFiles', 'writeKg', 'llm'],
  capabilitiesOf: (input) => (input.by === 'model' ? ['readFiles', 'writeKg', 'llm'] : ['readFiles', 'writeKg']),
  input: z.object({ documentId: z.number().int(), by: z.enum(['sentences', 'model']).default('sentences') }),
  unavailableBecause: (state) => {
    if (state.documents.length === 0) return 'no document has been imported';
    return unreadAboutGoal(state).length === 0 ? 'no unread document mentions the goal' : undefined;
  },
  baseScore: () => 0.7,
  proposeInput: (state) => ({
    documentId: unreadAboutGoal(state)[0]?.id ?? -1,
    by: state.model ? 'model' : 'sentences',
  }),
  async run(input, state) {
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
    const read = factsOfText(document.text, { isKnown: (label) => state.graph.symbolByLabel(label) !== undefined });
    // With a model, it reads the document too; a model that gives no answer leaves the sentences' facts.
    let modelRead: { answer: string; triples: Parameters<typeof assertModelFacts>[1]; use: ModelUse } | undefined;
    let bottleneck: { bottleneck: Bottleneck; use: ModelUse } | undefined;
    if (input.by === 'model') {
      if (!state.model)
        return {
          ok: false,
          summary: 'text_ingest: no model is bound to this run',
          facts: [],
          symbols: [],
          rejection: rejectionOf('dependency_unavailable', 'a language model bound to the run', 'no model is bound'),
        };
      const excerpt = document.text.slice(0, MODEL_READ_CHARACTERS);
      const answer = await askForFacts(state.model, {
        name: 'text_ingest',
        prompt: `Goal: ${state.goal.description}\nDocument "${document.name}"${document.text.length > excerpt.length ? ` (its first ${excerpt.length} of ${document.text.length} characters)` : ''}:\n${excerpt}\nGive the facts this document states as triples, the ones about the goal first; the answer is a one-line summary of the document.`,
      });
      if (answer.ok) modelRead = answer;
      else if (read.length === 0) return bottleneckOutcome('text_ingest', answer, state.goalSymbols);
      else bottleneck = answer;
    }
    const batch = state.graph.batch({ now: state.now });
    const sentenceOf = new Map<string, string>();
    for (const fact of read) {
      const subject = batch.resolve({ type: 'label', value: fact.subject }, 'subject');
      const predicate = batch.resolve({ type: 'label', value: fact.predicate }, 'predicate');
      const object = batch.resolve({ type: 'label', value: fact.object }, 'object');
      batch.assert(subject, predicate, object, EXTRACTION_CONFIDENCE);
      sentenceOf.set(`${subject} ${predicate} ${object}`, fact.sentence);
    }
    const modelConfidenceOf =
      modelRead && state.model
        ? assertModelFacts(batch, modelRead.triples, state.model.confidenceCap)
        : new Map<string, number>();
    const delta = batch.delta;
    // A fact a sentence states keeps the sentence as its source, whatever the model said of it.
    const saidByModel =
      modelRead && state.model
        ? modelProvenance({ ...state, model: state.model }, delta, {
            tool: 'text_ingest',
            answer: modelRead.answer,
            confidenceOf: modelConfidenceOf,
          })
        : undefined;
    // Every fact enters the graph; only those about the goal are its findings.
    const goalSymbols = new Set(state.goalSymbols);
    const words = new Set(goalWords(state).map(singular));
    const labelOf = (id: number) =>
      state.graph.symbol(id)?.label ?? delta.symbols.find((symbol) => symbol.id === id)?.label ?? '';
    const isAboutGoal = (id: number) =>
      goalSymbols.has(id) ||
      [...wordsOfText(labelOf(id).replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2'))].some((word) => words.has(word));
    const facts: FactIds[] = [...delta.addedTriples, ...delta.updatedTriples]
      .filter((triple) => isAboutGoal(triple.subject) || isAboutGoal(triple.object))
      .map((triple) => [triple.subject, triple.predicate, triple.object]);
    const shown = [
      ...read.slice(0, 5).map((fact) => `${fact.subject} ${fact.predicate} ${fact.object}`),
      ...(modelRead?.triples.slice(0, 5).map((triple) => `${triple.subject} ${triple.predicate} ${triple.object}`) ??
        []),
    ];
    const total = read.length + (modelRead?.triples.length ?? 0);
    const modelUse = modelRead?.use ?? bottleneck?.use;
    const modelPart = modelRead
      ? `, ${modelRead.triples.length} read by the model`
      : bottleneck
        ? ` (the model gave no answer: ${bottleneck.bottleneck.kind.replace(/_/g, ' ')})`
        : '';
    return {
      ok: true,
      summary: `${document.name}: ${read.length} facts from its sentences${modelPart}, ${facts.length} about the goal${shown.length > 0 ? `: ${shown.join(', ')}${total > shown.length ? ', …' : ''}` : ''}`,
      facts,
      // What it found is in the facts; the document's name proves nothing.
      evidence: '',
      symbols: [...new Set(facts.flatMap(([subject, , object]) => [subject, object]))].slice(0, 50),
      ingestedDocument: { id: document.id!, facts: delta.addedTriples.length + delta.updatedTriples.length },
      graphChange: {
        delta,
        provenance: (triple) => {
          const key = `${triple.subject} ${triple.predicate} ${triple.object}`;
          if (saidByModel && !sentenceOf.has(key)) return saidByModel(triple);
          return {
            sessionId: state.sessionId,
            kind: 'extraction',
            sources: [`document:${document.id}`],
            confidence: EXTRACTION_CONFIDENCE,
            cycle: state.cycle,
            detail: `${document.name}: "${sentenceOf.get(key) ?? ''}"`,
            createdAt: state.now,
          };
        },
      },
      ...(modelUse ? { modelUse } : {}),
    };
  },
};

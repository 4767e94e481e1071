import { z } from 'zod';
import type { Triple } from './triple.ts';

/** Why something is in the graph or the log: an import, a rule, a decision, a veto, ... */
export const provenanceKindSchema = z.enum([
  'import',
  'starter-graph',
  'inference',
  'decision',
  'eviction',
  'decomposition',
  'consolidation',
  'analogy',
  'shadow-veto',
  'approval-request',
  'background-job',
  'approval-decision',
  'psyche-change',
  'question',
  'user-answer',
  'extraction',
  'fetch',
  'assertion',
  'retraction',
  'reflection',
  'model',
  'abandonment',
  'sparql',
  'tool-server',
]);

export type ProvenanceKind = z.infer<typeof provenanceKindSchema>;

/** Why a fact is in the graph, in a word or two, for each kind of provenance (the screens and the findings' filter say it so). */
export const PROVENANCE_KIND_WORDS: Readonly<Record<ProvenanceKind, string>> = {
  import: 'Imported',
  'starter-graph': 'Starter graph',
  inference: 'Inferred',
  decision: 'Decided',
  eviction: 'Forgotten',
  decomposition: 'Split',
  consolidation: 'Remembered',
  analogy: 'By analogy',
  'shadow-veto': 'Vetoed',
  'approval-request': 'Asked for approval',
  'approval-decision': 'Answered',
  'background-job': 'Background work',
  'psyche-change': 'Psyche changed',
  question: 'Asked you',
  'user-answer': 'Your answer',
  extraction: 'Read in a document',
  fetch: 'Fetched from the web',
  assertion: 'Asserted as asked',
  retraction: 'Retracted as asked',
  reflection: 'Reflected',
  model: 'Said by a model',
  abandonment: 'Abandoned',
  sparql: 'Brought in from a SPARQL endpoint',
  'tool-server': 'Called a tool of a tool server',
};

const symbolIdSchema = z.number().int();

/**
 * The derivations one provenance record explains at most: a cycle's or an inference's derived
 * facts share records of this many, not one record each (a record per fact was most of the cost of
 * a cycle that derives, and of the storage of a full inference).
 */
export const DERIVATIONS_PER_RECORD = 1000;

/** One fact a rule derived: the fact, its confidence, the rule, and its premises with their confidence then. */
export const derivationEntrySchema = z.object({
  fact: z.tuple([symbolIdSchema, symbolIdSchema, symbolIdSchema]),
  confidence: z.number().min(0).max(1),
  rule: z.string(),
  premises: z.array(z.tuple([symbolIdSchema, symbolIdSchema, symbolIdSchema, z.number().min(0).max(1)])),
});
export type DerivationEntry = z.infer<typeof derivationEntrySchema>;

/** Where a fact or a decision came from. */
export const provenanceRecordSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  kind: provenanceKindSchema,
  sources: z.array(z.string()),
  confidence: z.number().min(0).max(1),
  cycle: z.number().int().nonnegative(),
  detail: z.string(),
  createdAt: z.number(),
  /** The facts an inference derived, each with its rule and premises (kind "inference" only). */
  derivations: z.array(derivationEntrySchema).max(DERIVATIONS_PER_RECORD).optional(),
});
export type ProvenanceRecord = z.infer<typeof provenanceRecordSchema>;

/** A provenance record before it is stored (the database gives it its id). */
export type ProvenanceDraft = Omit<ProvenanceRecord, 'id'>;

/**
 * Derivations as typed-array columns, as they are stored (see derivation-columns.ts): each fact,
 * its confidence and rule, and where its premises end in the premise columns.
 */
export type DerivationColumns = {
  facts: Int32Array;
  confidences: Float64Array;
  rules: string[];
  ruleIndexes: Int32Array;
  premiseEnds: Int32Array;
  premiseFacts: Int32Array;
  premiseConfidences: Float64Array;
};

/** A provenance record as it is added: its derivations listed, or in columns already (an inference's). */
export type ProvenanceInsert = Omit<ProvenanceRecord, 'derivations'> & {
  derivations?: DerivationEntry[] | DerivationColumns;
};

/**
 * How a stored graph change is explained: one record for all of it (an import), one per triple (a
 * removal with its reason, a fact a model said), or one per batch of DERIVATIONS_PER_RECORD
 * triples (derivations, each explained inside its record).
 */
export type ChangeProvenance =
  | ProvenanceDraft
  | ((triple: Triple) => ProvenanceDraft)
  | { perBatch: (triples: readonly Triple[]) => ProvenanceInsert };

/** The entry of a record's derivations that explains a fact, if it has one. */
export function derivationOfFact(
  record: Pick<ProvenanceRecord, 'derivations'>,
  [subject, predicate, object]: readonly [number, number, number],
): DerivationEntry | undefined {
  return record.derivations?.find(({ fact }) => fact[0] === subject && fact[1] === predicate && fact[2] === object);
}

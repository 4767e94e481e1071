import { z } from 'zod';

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
});
export type ProvenanceRecord = z.infer<typeof provenanceRecordSchema>;

/** A provenance record before it is stored (the database gives it its id). */
export type ProvenanceDraft = Omit<ProvenanceRecord, 'id'>;

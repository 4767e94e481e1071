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
]);

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

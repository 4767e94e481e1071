import type { AgentApi } from '#core/api.ts';

/** A provenance record as kgProvenance returns it. */
export type ProvenanceRecord = Extract<Awaited<ReturnType<AgentApi['kgProvenance']>>, { isFound: true }>['record'];

/**
 * Why a fact is in the graph, in a word or two, for each kind of provenance the agent records.
 * Typed against the contract, so a new kind fails the type check until it has its words here.
 */
export const PROVENANCE_KIND_LABELS = {
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
} as const satisfies Record<ProvenanceRecord['kind'], string>;

import type { GoalStatus } from '#core/records/goal.ts';

/** How a fact came to be known: imported or asserted, inferred by a rule, or proposed (analogy, model) and unconfirmed. */
export type FindingOrigin = 'stated' | 'derived' | 'proposed';

/** One finding of a goal, as labels: what synthesis renders. */
export type SynthesisFinding = {
  /** Labels, e.g. "Dog", "is-a", "Mammal". Untrusted: rendered as plain text, never expanded. */
  subject: string;
  predicate: string;
  object: string;
  /** 0..1 */
  confidence: number;
  origin: FindingOrigin;
  /** For derived facts, the rule's name, e.g. "is-a-transitive". */
  rule?: string;
  /** It matches the goal's criteria (answers come first). */
  isAnswer: boolean;
};

/** The findings of one goal with its state and gaps: built by the agent service, rendered by a grammar. */
export type SynthesisInput = {
  goal: { description: string; criteria: string; status: GoalStatus; statusReason?: string };
  /** Already deduplicated, answers first. */
  findings: SynthesisFinding[];
  /** Criteria keywords nothing was found for (the gaps). */
  missing: string[];
  persona: SynthesisPersona;
};

/** The persona a text is written as; only the name is used by grammars today. */
export type SynthesisPersona = { name: string; traits: string[]; tone: string[] };

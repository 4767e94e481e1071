import type { CycleRecord } from '#core/records/cycle.ts';
import { toolAction } from '#core/tools/tool-words.ts';
import { SCORING, readBreakdown, type StoredBreakdown } from './score.ts';

/** A score's part as a number beside its words: "+0.15", "−0.40". */
const signed = (value: number) => `${value < 0 ? '−' : '+'}${Math.abs(value).toFixed(2)}`;

/** Parts this small (the archetypes' nudge at nearly even weights) say nothing worth a word. */
const NEGLIGIBLE = 0.005;

/** The cycles ago a recency penalty says the tool ran. */
function ranWhen(recency: number): string {
  const ago = SCORING.recencyPenalties.findIndex((penalty) => Math.abs(penalty - recency) < NEGLIGIBLE);
  return ago === 0 ? 'it ran in the last cycle' : `it ran ${ago === 1 ? 'two' : 'three'} cycles ago`;
}

/** "a", "a and b", "a, b and c". */
function listInWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** What raised a score and what lowered it, each part in words with its number. */
function partsInWords(parts: StoredBreakdown): { raised: string[]; lowered: string[] } {
  const raised: string[] = [];
  const lowered: string[] = [];
  if (parts.novelty > 0) raised.push(`it has not been tried on this goal yet (${signed(parts.novelty)})`);
  if (parts.plan > 0) raised.push(`the plan asks for it next (${signed(parts.plan)})`);
  // The recalled text says it already: "it worked on Dog before (episode 3)".
  if (parts.episodic > 0) raised.push(`${parts.recalled ?? 'it worked here before'} (${signed(parts.episodic)})`);
  if (parts.pressure > 0) raised.push(`working memory is nearly full (${signed(parts.pressure)})`);
  if (parts.archetype >= NEGLIGIBLE) raised.push(`the psyche's archetypes favour it (${signed(parts.archetype)})`);
  if (parts.recency > 0) lowered.push(`${ranWhen(parts.recency)} (${signed(-parts.recency)})`);
  if (parts.episodic < 0)
    lowered.push(`${parts.recalled ?? 'it did not work here before'} (${signed(parts.episodic)})`);
  if (parts.archetype <= -NEGLIGIBLE) lowered.push(`the psyche's archetypes hold it back (${signed(parts.archetype)})`);
  if (parts.bias > 0)
    lowered.push(
      `the shadow is biased against it${parts.biasedBy ? `: ${parts.biasedBy}` : ''} (${signed(-parts.bias)})`,
    );
  return { raised, lowered };
}

/**
 * A tool's score in words, every part with its number: "0.55: fits this goal 0.80; raised
 * because it has not been tried on this goal yet (+0.15); lowered because it ran in the last
 * cycle (−0.40)", and the goal's priority's factor when it scaled the sum. A text that is no
 * stored breakdown is given back as it is.
 */
export function scoreInWords(breakdown: string): string {
  const parts = readBreakdown(breakdown);
  if (!parts) return breakdown;
  const { raised, lowered } = partsInWords(parts);
  const sum =
    parts.base -
    parts.recency +
    parts.novelty +
    parts.episodic +
    parts.pressure +
    parts.archetype -
    parts.bias +
    parts.plan;
  // The priority factor is not stored: the total over the sum gives it back (to the breakdown's two decimals).
  const factor = sum > 0 ? parts.total / sum : 1;
  return [
    `${parts.total.toFixed(2)}: fits this goal ${parts.base.toFixed(2)}`,
    ...(raised.length > 0 ? [`raised because ${listInWords(raised)}`] : []),
    ...(lowered.length > 0 ? [`lowered because ${listInWords(lowered)}`] : []),
    ...(factor < 0.98 ? [`times ${factor.toFixed(2)} for the goal's priority`] : []),
  ].join('; ');
}

/**
 * Why a cycle chose its tool, in a sentence: "Query the knowledge graph (kg_query), chosen
 * because it has not been tried on this goal yet and the plan asks for it next."
 */
export function choiceInWords(record: Pick<CycleRecord, 'tool' | 'candidates'>): string {
  const tool = `${toolAction(record.tool)} (${record.tool})`;
  const scored = record.candidates.filter((candidate) => candidate.score !== undefined);
  const chosen = record.candidates.find((candidate) => candidate.tool === record.tool);
  const parts = chosen?.breakdown === undefined ? undefined : readBreakdown(chosen.breakdown);
  if (!parts) return `${tool}.`;
  if (scored.length === 1) return `${tool}, the only tool that could work on this goal now.`;
  const reasons = partsInWords(parts).raised.map((reason) => reason.replace(/ \([+−][\d.]+\)$/, ''));
  return reasons.length > 0
    ? `${tool}, chosen because ${listInWords(reasons)}.`
    : `${tool}, chosen because it fits this goal best of the ${scored.length} tools scored.`;
}

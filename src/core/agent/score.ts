/** The parts of a tool's score for one decision (DESIGN section 5). */
export type ScoreBreakdown = {
  base: number;
  recency: number;
  novelty: number;
  episodic: number;
  pressure: number;
  archetype: number;
  bias: number;
  plan: number;
  /** The goal's priority factor, 0.5 + 0.5 x priority / 255. */
  priorityFactor: number;
  total: number;
};

/** Constants of the scoring formula, configurable; these are DESIGN's defaults. */
export const SCORING = {
  recencyPenalties: [0.4, 0.2, 0.1],
  novelty: 0.15,
  episodic: 0.2,
  pressure: 0.2,
  pressureThreshold: 0.8,
  archetypeScale: 0.15,
  biasScale: 0.1,
  planStep: 0.25,
} as const;

/** What the score of one tool for one goal depends on. */
export type ScoreInput = {
  base: number;
  /** The tools chosen for this goal, most recent first. */
  recentTools: readonly string[];
  tool: string;
  isNovel: boolean;
  /** What recalled episodes say of this tool on the goal's symbols: it worked there (a bonus), it did not (a penalty), or nothing. */
  episodic?: 'worked' | 'failed' | undefined;
  isConsolidation: boolean;
  memoryPressure: number;
  /** Above this pressure consolidation gets the pressure bonus (the session's consolidation threshold). */
  pressureThreshold?: number;
  archetypeWeight: number;
  biasSeverity: number;
  isPlanStep: boolean;
  priority: number;
};

/**
 * total = max(0, base - recency + novelty ± episodic + pressure + archetype - bias + plan)
 *         x (0.5 + 0.5 x priority / 255)
 */
export function scoreTool(input: ScoreInput): ScoreBreakdown {
  const used = input.recentTools.slice(0, SCORING.recencyPenalties.length).indexOf(input.tool);
  const recency = used === -1 ? 0 : SCORING.recencyPenalties[used]!;
  const novelty = input.isNovel ? SCORING.novelty : 0;
  const episodic = input.episodic === 'worked' ? SCORING.episodic : input.episodic === 'failed' ? -SCORING.episodic : 0;
  const pressure =
    input.isConsolidation && input.memoryPressure > (input.pressureThreshold ?? SCORING.pressureThreshold)
      ? SCORING.pressure
      : 0;
  const archetype = (input.archetypeWeight - 0.5) * SCORING.archetypeScale;
  const bias = input.biasSeverity * SCORING.biasScale;
  const plan = input.isPlanStep ? SCORING.planStep : 0;
  const priorityFactor = 0.5 + (0.5 * input.priority) / 255;
  const total =
    Math.max(0, input.base - recency + novelty + episodic + pressure + archetype - bias + plan) * priorityFactor;
  return { base: input.base, recency, novelty, episodic, pressure, archetype, bias, plan, priorityFactor, total };
}

/** `[score=0.85: base=0.80 recency=-0.00 novelty=+0.15 episodic=+0.00 pressure=+0.00 archetype=+0.030 bias=-0.00 plan=+0.25]` */
export function formatBreakdown(score: ScoreBreakdown): string {
  const signed = (value: number, digits = 2) => `${value < 0 ? '-' : '+'}${Math.abs(value).toFixed(digits)}`;
  return (
    `[score=${score.total.toFixed(2)}: base=${score.base.toFixed(2)} recency=-${score.recency.toFixed(2)} novelty=${signed(score.novelty)} ` +
    `episodic=${signed(score.episodic)} pressure=${signed(score.pressure)} archetype=${signed(score.archetype, 3)} bias=-${score.bias.toFixed(2)} plan=${signed(score.plan)}]`
  );
}

/** A stored breakdown read back: its parts, and what follows them (an episode recalled, the biases). */
export type StoredBreakdown = Omit<ScoreBreakdown, 'priorityFactor'> & { recalled?: string; biasedBy?: string };

const STORED_BREAKDOWN =
  /^\[score=([\d.]+): base=(-?[\d.]+) recency=-([\d.]+) novelty=([+-][\d.]+) episodic=([+-][\d.]+) pressure=([+-][\d.]+) archetype=([+-][\d.]+) bias=-([\d.]+) plan=([+-][\d.]+)\](?: recalled: (.*?))?(?: biased by (.*))?$/;

/** Reads back what {@link formatBreakdown} wrote (and the cycle added); undefined for any other text. */
export function readBreakdown(text: string): StoredBreakdown | undefined {
  const match = STORED_BREAKDOWN.exec(text);
  if (!match) return undefined;
  const [total, base, recency, novelty, episodic, pressure, archetype, bias, plan] = match.slice(1, 10).map(Number);
  return {
    total: total!,
    base: base!,
    recency: recency!,
    novelty: novelty!,
    episodic: episodic!,
    pressure: pressure!,
    archetype: archetype!,
    bias: bias!,
    plan: plan!,
    ...(match[10] !== undefined ? { recalled: match[10] } : {}),
    ...(match[11] !== undefined ? { biasedBy: match[11] } : {}),
  };
}

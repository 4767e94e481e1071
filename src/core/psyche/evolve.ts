import { type Archetype, dominantArchetype, type Psyche } from '#core/records/psyche.ts';

/**
 * One use of a tool since the last evolution: it advanced or completed its goal, it failed (the
 * tool could not do it), or it changed nothing; and if not in its own cycle, what it contributed
 * later (`credit`, in words), which counts as a success.
 */
export type ToolUse = {
  tool: string;
  archetype: Archetype | undefined;
  result: 'succeeded' | 'failed' | 'no-change';
  credit?: string;
};

/** The rules of DESIGN section 7, as constants. */
export const EVOLUTION = {
  minUses: 2,
  successRate: 0.7,
  failureRate: 0.3,
  step: 0.02,
  minWeight: 0.1,
  maxWeight: 0.95,
  growthPerEncounter: 0.01,
  maxEncountersCounted: 5,
} as const;

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * Evolves a psyche at reflection: each tool used at least twice since the last evolution, counting
 * the uses that succeeded, failed, or contributed to a later success (a use that changed nothing
 * and prepared nothing is no evidence), moves its archetype by +0.02 (success rate above 0.7) or
 * -0.02 (below 0.3), clamped to [0.1, 0.95];
 * individuation grows by 0.01 per shadow encounter since the last evolution (at most 5), up to 1.
 * Returns the evolved psyche and what changed, in words (empty: nothing did).
 */
export function evolvePsyche(
  psyche: Psyche,
  uses: readonly ToolUse[],
  cycle: number,
): { psyche: Psyche; changes: string[] } {
  const byTool = new Map<
    string,
    { archetype: Archetype | undefined; uses: number; successes: number; credits: string[]; idle: number }
  >();
  for (const use of uses) {
    const counts = byTool.get(use.tool) ?? { archetype: use.archetype, uses: 0, successes: 0, credits: [], idle: 0 };
    // A use that changed nothing and prepared nothing is no evidence either way: the goal may have had nothing to find.
    if (use.result === 'no-change' && use.credit === undefined) counts.idle++;
    else {
      counts.uses++;
      if (use.result === 'succeeded') counts.successes++;
      else if (use.credit !== undefined) counts.credits.push(use.credit);
    }
    byTool.set(use.tool, counts);
  }
  const archetypes = { ...psyche.archetypes };
  const changes: string[] = [];
  for (const [tool, counts] of [...byTool].sort(([a], [b]) => a.localeCompare(b))) {
    if (!counts.archetype || counts.uses < EVOLUTION.minUses) continue;
    const rate = (counts.successes + counts.credits.length) / counts.uses;
    const step = rate > EVOLUTION.successRate ? EVOLUTION.step : rate < EVOLUTION.failureRate ? -EVOLUTION.step : 0;
    if (step === 0) continue;
    const before = archetypes[counts.archetype];
    // Clamped in the step's direction only: a weight set outside the range by the user never moves against the evidence.
    const after = round(
      step > 0
        ? Math.max(before, Math.min(EVOLUTION.maxWeight, before + step))
        : Math.min(before, Math.max(EVOLUTION.minWeight, before + step)),
    );
    if (after === before) continue;
    archetypes[counts.archetype] = after;
    const credited =
      counts.credits.length > 0
        ? `; ${counts.credits.length} more contributed later: ${[...new Set(counts.credits)].join(', ')}`
        : '';
    const idle = counts.idle > 0 ? `; ${counts.idle} more changed nothing` : '';
    changes.push(
      `${counts.archetype} ${before.toFixed(2)} -> ${after.toFixed(2)} (${tool} succeeded ${counts.successes} of ${counts.uses}${credited}${idle})`,
    );
  }
  const self = psyche.selfIntegration;
  const newEncounters = Math.max(0, self.shadowEncounters - self.encountersAtLastEvolution);
  const growth = EVOLUTION.growthPerEncounter * Math.min(newEncounters, EVOLUTION.maxEncountersCounted);
  const individuationLevel = round(Math.min(1, self.individuationLevel + growth));
  if (individuationLevel !== self.individuationLevel)
    changes.push(
      `individuation ${self.individuationLevel.toFixed(2)} -> ${individuationLevel.toFixed(2)} (${newEncounters} shadow encounter${newEncounters === 1 ? '' : 's'})`,
    );
  const hasRebalanced = hasWeightChanged(psyche.archetypes, archetypes);
  return {
    psyche: {
      ...psyche,
      archetypes,
      selfIntegration: {
        ...self,
        individuationLevel,
        lastEvolutionCycle: cycle,
        encountersAtLastEvolution: self.shadowEncounters,
        rebalanceCount: self.rebalanceCount + (hasRebalanced ? 1 : 0),
        dominantArchetype: dominantArchetype(archetypes),
      },
    },
    changes,
  };
}

function hasWeightChanged(before: Psyche['archetypes'], after: Psyche['archetypes']): boolean {
  return (Object.keys(before) as Archetype[]).some((archetype) => before[archetype] !== after[archetype]);
}

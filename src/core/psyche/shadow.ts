import { quoteInput } from '#core/quote-input.ts';
import type { Problem } from '#core/result.ts';
import { DANGER_LEVELS, type Capability, type DangerLevel } from '#core/records/capability.ts';
import type { Psyche, ShadowPattern } from '#core/records/psyche.ts';
import { matchedTriggerText, normaliseForShadow } from '#core/records/trigger-text.ts';

/** What the shadow looks at: the tool's name, danger and capabilities, and the action's input. */
export type ShadowAction = { tool: string; danger: DangerLevel; capabilities: readonly Capability[]; input: unknown };

/** The seed's action description, `tool={name} input={json}`, which text triggers are matched against. */
export function describeAction(action: Pick<ShadowAction, 'tool' | 'input'>): string {
  return `tool=${action.tool} input=${JSON.stringify(action.input) ?? 'undefined'}`;
}

/**
 * What would keep the shadow's patterns from meaning what they say, as problems at model paths
 * (`shadow.vetoPatterns.0.triggers.1`), for whoever takes a psyche from a user to refuse it:
 * - a text trigger with nothing visible left once normalised (case, width, zero-width characters
 *   and spacing set aside) matches nothing, so it is refused, whatever else the pattern has;
 * - a pattern fires on a visible text trigger, a capability (any tool that has it) or a danger
 *   threshold; one with none of them can never fire. (When it has only invisible triggers, their
 *   problems already say so.)
 */
export function shadowPolicyProblems(shadow: Psyche['shadow']): Problem[] {
  const kinds = [
    ['vetoPatterns', 'veto'],
    ['biasPatterns', 'bias'],
  ] as const;
  return kinds.flatMap(([key, kind]) =>
    shadow[key].flatMap((pattern, index): Problem[] => {
      const path = `shadow.${key}.${index}`;
      const invisible = pattern.triggers.flatMap((trigger, triggerIndex) =>
        matchedTriggerText(trigger) === ''
          ? [
              {
                path: `${path}.triggers.${triggerIndex}`,
                message: `the trigger ${quoteInput(trigger, 60)} of the ${kind} pattern ${quoteInput(pattern.name, 60)} has no visible character (case, width, zero-width characters and spacing aside), so it could never match`,
              },
            ]
          : [],
      );
      if (invisible.length > 0) return invisible;
      if (pattern.triggers.length > 0 || pattern.capabilityTriggers.length > 0 || pattern.dangerThreshold !== undefined)
        return [];
      return [
        {
          path,
          message: `the ${kind} pattern ${quoteInput(pattern.name, 60)} can never fire: it has no text trigger, capability trigger or danger threshold`,
        },
      ];
    }),
  );
}

/** Why a pattern fired: the trigger that matched. */
export type ShadowMatch = { pattern: ShadowPattern; because: string };

// Decide judges every candidate's action against every pattern: a pattern's triggers are normalised once.
const normalisedTriggers = new WeakMap<ShadowPattern, string[]>();
function normalisedTriggersOf(pattern: ShadowPattern): string[] {
  let triggers = normalisedTriggers.get(pattern);
  if (!triggers) normalisedTriggers.set(pattern, (triggers = pattern.triggers.map(matchedTriggerText)));
  return triggers;
}

function matchOf(pattern: ShadowPattern, action: ShadowAction, description: string): ShadowMatch | undefined {
  const wanted = normalisedTriggersOf(pattern);
  for (const [index, trigger] of pattern.triggers.entries()) {
    if (wanted[index] !== '' && description.includes(wanted[index]!))
      return { pattern, because: `"${trigger}" in the action` };
  }
  const capability = pattern.capabilityTriggers.find((candidate) => action.capabilities.includes(candidate));
  if (capability) return { pattern, because: `${action.tool} uses ${capability}` };
  if (
    pattern.dangerThreshold !== undefined &&
    DANGER_LEVELS.indexOf(action.danger) >= DANGER_LEVELS.indexOf(pattern.dangerThreshold)
  )
    return { pattern, because: `${action.tool} is ${action.danger} (threshold ${pattern.dangerThreshold})` };
  return undefined;
}

/** What the shadow says about an action: the veto patterns and the bias patterns it fires. */
export type ShadowVerdict = { vetoes: ShadowMatch[]; biases: ShadowMatch[]; biasSeverity: number };

export function judgeAction(psyche: Pick<Psyche, 'shadow'>, action: ShadowAction): ShadowVerdict {
  const description = normaliseForShadow(describeAction(action));
  const matches = (patterns: readonly ShadowPattern[]) =>
    patterns.flatMap((pattern) => matchOf(pattern, action, description) ?? []);
  const biases = matches(psyche.shadow.biasPatterns);
  return {
    vetoes: matches(psyche.shadow.vetoPatterns),
    biases,
    biasSeverity: biases.reduce((sum, match) => sum + match.pattern.severity, 0),
  };
}

/**
 * The veto that decides an action's fate: a hard veto (the action is blocked) wins over one that
 * only asks for the user's approval.
 */
export function decisiveVeto(verdict: ShadowVerdict): ShadowMatch | undefined {
  return verdict.vetoes.find((match) => !match.pattern.requireApproval) ?? verdict.vetoes[0];
}

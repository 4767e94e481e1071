import { z } from 'zod';
import { factsText, keywordTextWords } from '#core/goals/goal.ts';
import type { Tool } from './tool.ts';

/** Cycles without progress before the agent asks the user rather than keep trying alone. */
export const ASK_AFTER_CYCLES_WITHOUT_PROGRESS = 3;

/** The criteria words no finding of the goal mentions yet: what the question asks about. */
function unfound(state: Parameters<Tool['baseScore']>[0]): string[] {
  const { graph, goal, criteria } = state;
  if (criteria.kind === 'pattern') return [criteria.text];
  const words = keywordTextWords(factsText(graph, goal.findings));
  return criteria.keywords.filter((keyword) => !words.has(keyword));
}

/**
 * Asks the user what the graph cannot tell: once a goal has gone some cycles without progress,
 * at most once per stall. The goal waits for the answer (see settle-outcome.ts and the questions).
 */
export const userInteract: Tool<{ question: string }> = {
  name: 'user_interact',
  description: 'ask the user a question; the goal waits for the answer',
  archetype: 'healer',
  danger: 'safe',
  capabilities: ['user'],
  input: z.object({ question: z.string().min(1).max(2000) }),
  unavailableBecause: (state) => {
    const { goal } = state;
    if (goal.askedAtCycle !== undefined && goal.askedAtCycle > goal.lastProgressCycle)
      return 'it already asked since the goal last made progress';
    if (goal.cyclesWorked - goal.lastProgressCycle < ASK_AFTER_CYCLES_WITHOUT_PROGRESS)
      return `the goal made progress within the last ${ASK_AFTER_CYCLES_WITHOUT_PROGRESS} cycles: no need to ask yet`;
    return undefined;
  },
  baseScore: () => 0.45,
  proposeInput: (state) => {
    const missing = unfound(state);
    const about =
      missing.length > 0
        ? missing.map((word) => `"${word}"`).join(', ')
        : `"${state.goal.successCriteria || state.goal.description}"`;
    return { question: `For "${state.goal.description}" I found nothing yet about ${about}. What do you know?` };
  },
  run: (input) => ({ ok: true, summary: `asked: ${input.question}`, facts: [], symbols: [], question: input.question }),
};

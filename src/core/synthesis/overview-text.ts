import { countText } from '#core/count-text.ts';
import type { Grammar, OverviewPlaceholder } from './grammar.ts';
import type { OutlineOverview } from './outline.ts';
import { plainText } from '#core/plain-text.ts';
import type { SynthesisPersona } from './synthesis-input.ts';
import { fillTemplate } from './template.ts';

/**
 * The overview: the persona opener (when a persona is given) and `overview.text` with the goal,
 * its status and the counts. Empty when the grammar has no overview text (terse).
 */
export function overviewText(
  overview: OutlineOverview,
  grammar: Grammar,
  persona?: Pick<SynthesisPersona, 'name'>,
): string {
  if (grammar.overview.text === '') return '';
  const status = grammar.status[overview.status];
  const values: Record<OverviewPlaceholder, string> = {
    goal: overview.goal,
    criteria: overview.criteria,
    status: overview.statusReason ? `${status} (${overview.statusReason})` : status,
    facts: counted(overview.factCount, grammar.nouns.fact),
    answers: counted(overview.answerCount, grammar.nouns.answer),
  };
  const personaName = persona ? plainText(persona.name) : '';
  const opener = personaName ? fillTemplate(grammar.openers.persona, { persona: personaName }) : '';
  return opener + fillTemplate(grammar.overview.text, values);
}

function counted(count: number, [singular, plural]: readonly [string, string]): string {
  return countText(count, singular, plural);
}

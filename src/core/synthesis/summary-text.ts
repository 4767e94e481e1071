import { countText, numberText } from '#core/count-text.ts';
import type { Grammar } from './grammar.ts';
import type { Outline } from './outline.ts';

/**
 * The summary a long write-up opens with, as lines: the count of facts, then a line a group
 * ("- a kind of Mammal: 1,181 (Aardvark, Aardwolf, Bat, …)"), and the facts of the smaller groups
 * counted together ("- 18 other classifications", "- 7 other facts"). Empty when the outline has
 * no summary (a short goal reads whole).
 */
export function summaryLines(outline: Outline, grammar: Grammar, bullet: string): string[] {
  const { summary } = outline;
  if (!summary) return [];
  const [singular, plural] = grammar.nouns.fact;
  const groupLines = summary.groups.map((group) => {
    const more = group.count > group.names.length ? ', …' : '';
    return `${bullet}${group.label}: ${numberText(group.count)} (${group.names.join(', ')}${more})`;
  });
  const other = [
    ...(summary.otherClassificationCount > 0
      ? [`${bullet}${countText(summary.otherClassificationCount, 'other classification')}`]
      : []),
    ...(summary.otherCount > 0
      ? [`${bullet}${countText(summary.otherCount, `other ${singular}`, `other ${plural}`)}`]
      : []),
  ];
  return [`${countText(outline.overview.factCount, singular, plural)} by kind:`, ...groupLines, ...other];
}

/** Where the facts a long write-up leaves out are: one line, empty when none are left out. */
export function omittedText(outline: Outline, grammar: Grammar): string {
  if (outline.omittedCount === 0) return '';
  const [singular, plural] = grammar.nouns.fact;
  return `… and ${countText(outline.omittedCount, `more ${singular}`, `more ${plural}`)}, not written out here: the findings list shows them all.`;
}

import { factText } from './fact-text.ts';
import type { Grammar } from './grammar.ts';
import type { Outline } from './outline.ts';
import { omittedText, summaryLines } from './summary-text.ts';
import { fillTemplate } from './template.ts';

/**
 * Lines: one line a fact, answers first, with nothing between them; the overview and the gaps
 * (`gaps.intro`, then a line a gap) only when the grammar writes them (terse writes neither). A long
 * goal opens with its summary and ends its facts with a line on those left out.
 */
export function renderLines(outline: Outline, grammar: Grammar, overview: string): string {
  const lines: string[] = [];
  if (overview !== '') lines.push(overview);
  lines.push(...summaryLines(outline, grammar, '- '));
  if (outline.sections.length === 0 && grammar.empty !== '') lines.push(grammar.empty);
  for (const section of outline.sections) {
    for (const item of section.items) lines.push(factText(item, grammar));
  }
  const omitted = omittedText(outline, grammar);
  if (omitted !== '') lines.push(omitted);
  if (outline.gaps.length > 0 && grammar.gaps.item !== '') {
    if (grammar.gaps.intro !== '') lines.push(grammar.gaps.intro);
    for (const gap of outline.gaps) lines.push(fillTemplate(grammar.gaps.item, { gap }));
  }
  return lines.join('\n');
}

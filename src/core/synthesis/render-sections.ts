import { factText } from './fact-text.ts';
import type { Grammar } from './grammar.ts';
import type { Outline } from './outline.ts';
import { omittedText, summaryLines } from './summary-text.ts';
import { fillTemplate } from './template.ts';

type SectionsLayout = Extract<Grammar['layout'], { kind: 'sections' }>;

/**
 * Sections: the overview, the summary of a long goal, then each section as a heading line and one
 * bullet a fact, the facts left out (a line), then the gaps as a section of their own (`gaps.intro` as a line under its heading); blocks apart by a
 * blank line. A heading that fills to "" is left out. Openers are not used (they are prose).
 */
export function renderSections(outline: Outline, grammar: Grammar, layout: SectionsLayout, overview: string): string {
  const blocks: string[] = [];
  if (overview !== '') blocks.push(overview);
  const summary = summaryLines(outline, grammar, layout.bullet);
  if (summary.length > 0) blocks.push(summary.join('\n'));
  if (outline.sections.length === 0 && grammar.empty !== '') blocks.push(grammar.empty);
  const heading = (text: string) => {
    const line = fillTemplate(layout.heading, { heading: text });
    return line === '' ? [] : [line];
  };
  for (const section of outline.sections) {
    blocks.push(
      [
        ...heading(grammar.headings[section.kind]),
        ...section.items.map((item) => layout.bullet + factText(item, grammar)),
      ].join('\n'),
    );
  }
  const omitted = omittedText(outline, grammar);
  if (omitted !== '') blocks.push(omitted);
  if (outline.gaps.length > 0 && grammar.gaps.item !== '') {
    const intro = grammar.gaps.intro === '' ? [] : [grammar.gaps.intro];
    const bullets = outline.gaps.map((gap) => layout.bullet + fillTemplate(grammar.gaps.item, { gap }));
    blocks.push([...heading(grammar.headings.gaps), ...intro, ...bullets].join('\n'));
  }
  return blocks.join('\n\n');
}

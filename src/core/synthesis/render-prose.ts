import { factText } from './fact-text.ts';
import type { Grammar } from './grammar.ts';
import type { Outline } from './outline.ts';
import { omittedText, summaryLines } from './summary-text.ts';
import { fillTemplate } from './template.ts';

type ProseLayout = Extract<Grammar['layout'], { kind: 'prose' }>;

/**
 * Prose: the overview, the summary of a long goal (a list), then one paragraph a section, the
 * facts left out (a line), then the gaps as one sentence; paragraphs
 * apart by a blank line. A section's facts go `per_sentence` to a sentence, joined by `join`; its
 * first sentence starts with a section opener, the others with connecting phrases, both cycled in
 * order through the whole text (deterministic, no randomness). A subject the fact before it in the
 * same sentence named becomes the pronoun ("Dog is a Mammal, and it has Tail").
 */
export function renderProse(outline: Outline, grammar: Grammar, layout: ProseLayout, overview: string): string {
  const paragraphs: string[] = [];
  if (overview !== '') paragraphs.push(overview);
  const summary = summaryLines(outline, grammar, '- ');
  if (summary.length > 0) paragraphs.push(summary.join('\n'));
  if (outline.sections.length === 0 && grammar.empty !== '') paragraphs.push(grammar.empty);
  let connectorCount = 0;
  outline.sections.forEach((section, sectionIndex) => {
    const opener = fillTemplate(phraseAt(grammar.openers.section, sectionIndex), {
      heading: grammar.headings[section.kind],
    });
    const sentences: string[] = [];
    for (let start = 0; start < section.items.length; start += layout.per_sentence) {
      const chunk = section.items.slice(start, start + layout.per_sentence);
      const facts = chunk.map((item, index) => {
        const isRepeatedSubject = layout.pronoun !== '' && index > 0 && chunk[index - 1]?.subject === item.subject;
        return factText(item, grammar, isRepeatedSubject ? layout.pronoun : item.subject);
      });
      const lead = start === 0 ? opener : phraseAt(grammar.openers.connect, connectorCount++);
      sentences.push(lead + facts.join(layout.join) + layout.end);
    }
    paragraphs.push(sentences.join(' '));
  });
  const omitted = omittedText(outline, grammar);
  if (omitted !== '') paragraphs.push(omitted);
  if (outline.gaps.length > 0 && grammar.gaps.item !== '') {
    const gaps = outline.gaps.map((gap) => fillTemplate(grammar.gaps.item, { gap }));
    paragraphs.push(grammar.gaps.intro + listOf(gaps, layout) + layout.end);
  }
  return paragraphs.join('\n\n');
}

/** The n-th phrase, cycling; '' when there are none. */
function phraseAt(phrases: readonly string[], index: number): string {
  return phrases.length === 0 ? '' : (phrases[index % phrases.length] ?? '');
}

/** "a", "a and b", "a, b and c". */
function listOf(parts: string[], layout: ProseLayout): string {
  if (parts.length <= 1) return parts.join('');
  return parts.slice(0, -1).join(layout.list_separator) + layout.list_final + parts.at(-1);
}

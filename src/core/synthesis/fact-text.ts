import type { Grammar, ItemPlaceholder } from './grammar.ts';
import type { OutlineItem } from './outline.ts';
import { fillTemplate } from './template.ts';

/**
 * The text of one fact: its kind's template, wrapped by its origin's (`{fact}`). `shownSubject`
 * replaces the subject's name, for a pronoun in prose. Labels are inserted as they are (the outline
 * made them plain); neither fill rescans them.
 */
export function factText(item: OutlineItem, grammar: Grammar, shownSubject = item.subject): string {
  const values: Record<ItemPlaceholder, string> = {
    subject: shownSubject,
    predicate: item.predicate,
    object: item.object,
    relation: item.predicate.replace(/[-_]+/g, ' '),
    a: /^[aeiou]/i.test(item.object) ? 'an' : 'a',
    confidence: formatConfidence(item.confidence, grammar.confidence),
    // A derived fact should name its rule; the words keep a sentence whole when one does not.
    rule: item.rule ?? (item.origin === 'derived' ? 'an unnamed rule' : ''),
  };
  return fillTemplate(grammar.origins[item.origin], {
    ...values,
    fact: fillTemplate(grammar.templates[item.kind], values),
  });
}

/** A confidence as the grammar shows it: `0.95` (decimal) or `95%` (percent). */
export function formatConfidence(confidence: number, format: Grammar['confidence']): string {
  return format.style === 'percent'
    ? `${(confidence * 100).toFixed(format.decimals)}%`
    : confidence.toFixed(format.decimals);
}

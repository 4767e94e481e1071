import type { Grammar } from './grammar.ts';
import type { Outline } from './outline.ts';
import { overviewText } from './overview-text.ts';
import { renderLines } from './render-lines.ts';
import { renderProse } from './render-prose.ts';
import { renderSections } from './render-sections.ts';
import type { SynthesisPersona } from './synthesis-input.ts';

/**
 * Writes an outline as plain text in a grammar, optionally as a persona (named in the overview's
 * opener). Plain text for a `white-space: pre-wrap` view: no HTML is produced and nothing is
 * escaped. Deterministic: the same outline, grammar and persona give the same text.
 */
export function renderFindings(outline: Outline, grammar: Grammar, persona?: Pick<SynthesisPersona, 'name'>): string {
  const overview = overviewText(outline.overview, grammar, persona);
  const { layout } = grammar;
  switch (layout.kind) {
    case 'prose':
      return renderProse(outline, grammar, layout, overview);
    case 'sections':
      return renderSections(outline, grammar, layout, overview);
    case 'lines':
      return renderLines(outline, grammar, overview);
    default:
      throw new Error(`unknown grammar layout ${String(layout satisfies never)}`);
  }
}

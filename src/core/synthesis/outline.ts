import { type FactKind, factKindOf } from './fact-kind.ts';
import { plainText } from '#core/plain-text.ts';
import type { FindingOrigin, SynthesisInput } from './synthesis-input.ts';
import { type OutlineSummary, summarize } from './summary.ts';

/** One fact ready to render: labels made plain (one line each), its kind and origin. */
export type OutlineItem = {
  subject: string;
  predicate: string;
  object: string;
  confidence: number;
  origin: FindingOrigin;
  rule?: string;
  kind: FactKind;
};

/**
 * What a section holds: the answers to the goal, or the other facts by kind (`parts` holds both
 * part kinds). The heading is the grammar's (`headings.<kind>`), so the outline has none.
 */
export type SectionKind = 'answers' | 'classification' | 'parts' | 'other';

/** The section kinds in the order they are rendered. */
export const SECTION_KINDS = ['answers', 'classification', 'parts', 'other'] as const satisfies readonly SectionKind[];

export type OutlineSection = { kind: SectionKind; items: OutlineItem[] };

/** The goal, its status and how much was found. */
export type OutlineOverview = {
  goal: string;
  criteria: string;
  status: SynthesisInput['goal']['status'];
  statusReason?: string;
  factCount: number;
  answerCount: number;
};

/**
 * The findings of a goal laid out for rendering (DESIGN: `{overview, sections[{heading, items}], gaps}`).
 * A long goal also has a summary of its facts by kind, and its sections hold only the first facts:
 * `omittedCount` says how many more the findings list has.
 */
export type Outline = {
  overview: OutlineOverview;
  summary?: OutlineSummary;
  sections: OutlineSection[];
  omittedCount: number;
  gaps: string[];
};

// Goal text may be long; a label is a name.
const MAX_GOAL_LENGTH = 500;
/** A goal with more facts than this opens its write-up with a summary by kind. */
export const SUMMARY_FROM_FACTS = 10;
/**
 * The facts a write-up writes out of each section: every kind gets a sample (a long list of answers
 * would otherwise crowd out the rest); the others are counted and left to the findings list.
 */
export const MAX_WRITTEN_FACTS_PER_SECTION = 12;

/**
 * Lays out the findings of a goal: the answers first, then the other facts in sections by kind
 * (classification, parts, other), then the gaps. Empty sections are left out. Deterministic.
 *
 * Why by kind and not by subject: the sections stay few (at most four) with headings the grammar
 * names, however many subjects there are; by subject, 2,000 findings about 500 things would make
 * 500 headings of labels. Inside a section the facts about one subject are kept together (in the
 * order each subject first appears, facts in the order found), so prose can say "Dog is a Mammal,
 * and it has Tail" and a reader scans one subject at a time.
 */
export function outlineFindings(input: SynthesisInput): Outline {
  const bySection = new Map<SectionKind, OutlineItem[]>(SECTION_KINDS.map((kind) => [kind, []]));
  for (const finding of input.findings) {
    const predicate = plainText(finding.predicate);
    const kind = factKindOf(predicate);
    const rule = finding.rule === undefined ? undefined : plainText(finding.rule);
    const item: OutlineItem = {
      subject: plainText(finding.subject),
      predicate,
      object: plainText(finding.object),
      confidence: Number.isFinite(finding.confidence) ? Math.min(1, Math.max(0, finding.confidence)) : 0,
      origin: finding.origin,
      ...(rule ? { rule } : {}),
      kind,
    };
    bySection.get(finding.isAnswer ? 'answers' : sectionOf(kind))?.push(item);
  }
  const grouped = SECTION_KINDS.map((kind) => ({ kind, items: groupBySubject(bySection.get(kind) ?? []) })).filter(
    (section) => section.items.length > 0,
  );
  const allItems = grouped.flatMap((section) => section.items);
  const sections = grouped.map(({ kind, items }) => ({ kind, items: items.slice(0, MAX_WRITTEN_FACTS_PER_SECTION) }));
  const writtenCount = sections.reduce((sum, section) => sum + section.items.length, 0);
  const { goal } = input;
  const statusReason = goal.statusReason === undefined ? '' : plainText(goal.statusReason, MAX_GOAL_LENGTH);
  return {
    overview: {
      goal: plainText(goal.description, MAX_GOAL_LENGTH),
      criteria: plainText(goal.criteria, MAX_GOAL_LENGTH),
      status: goal.status,
      ...(statusReason ? { statusReason } : {}),
      factCount: input.findings.length,
      answerCount: input.findings.filter((finding) => finding.isAnswer).length,
    },
    ...(allItems.length > SUMMARY_FROM_FACTS ? { summary: summarize(allItems) } : {}),
    sections,
    omittedCount: allItems.length - writtenCount,
    gaps: input.missing.map((keyword) => plainText(keyword)).filter((keyword) => keyword !== ''),
  };
}

function sectionOf(kind: FactKind): SectionKind {
  return kind === 'part' || kind === 'part_of' ? 'parts' : kind;
}

/** Stable: subjects in the order they first appear, each subject's facts in their own order. */
function groupBySubject(items: OutlineItem[]): OutlineItem[] {
  const bySubject = new Map<string, OutlineItem[]>();
  for (const item of items) {
    const group = bySubject.get(item.subject);
    if (group) group.push(item);
    else bySubject.set(item.subject, [item]);
  }
  return [...bySubject.values()].flat();
}

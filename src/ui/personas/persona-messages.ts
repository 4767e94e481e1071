import {
  PART_TYPE_TITLES,
  type ArcView,
  type AssembledPersonaView,
  type PersonaImportPreview,
  type PersonaManifest,
  type PersonaSummary,
  type TraitType,
} from '#core/api.ts';
import { type Problem, describeProblem } from '#core/result.ts';
import { countText } from '#core/api.ts';

/**
 * The words of the Personas screen, kept apart from its components so they can be tested: what
 * each refusal reason means, counts, where a part of the prompt came from, what was left out and
 * why, the question before a delete, and what an import would create.
 */

/** Why the catalog refused a change or an assembly (the core's reason codes). */
export type RefusalReason =
  'invalid' | 'not-found' | 'name-taken' | 'in-use' | 'read-only' | 'pinned-over-budget' | 'too-large' | 'storage-full';

/**
 * A refusal as the catalog answers it. Its reason is typed as a string: the contract's schemas
 * of some calls (personaGet, personaExport) widen their reason enums to string.
 */
export type Refusal = { ok: false; reason: string; problems: Problem[] };

/** How a change went: what it did, or why nothing changed and where (problems keep their `path`, so forms show them by their field). */
export type ChangeReport =
  { tone: 'success'; message: string } | { tone: 'failure'; message: string; reason?: string; problems: Problem[] };

/** Why this tab cannot change the catalog. */
export const READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can change personas: close it to change them here.';

/** Each reason code in words, to follow "…was not saved: ". */
export const REASON_TEXT = {
  invalid: 'some of it is not valid',
  'not-found': 'it is not there any more (another tab may have changed the catalog)',
  'name-taken': 'the name is already taken',
  'in-use': 'it is still in use',
  'read-only': READ_ONLY_REASON,
  'pinned-over-budget':
    'the budget cannot hold what may not be left out (the persona, its guardrails and its pinned parts)',
  'too-large': 'the file would be too large',
  'storage-full': 'storage is full',
} as const satisfies Record<RefusalReason, string>;

/** The part types in words (the headings of the assembled prompt). */
export const PART_TYPE_LABELS = PART_TYPE_TITLES;

/** The trait types in words. */
export const TRAIT_TYPE_LABELS = {
  personality: 'Personality',
  cognitive: 'Cognitive',
  emotional: 'Emotional',
  social: 'Social',
  behavioral: 'Behavioral',
} as const satisfies Record<TraitType, string>;

/** Where a part of the assembled prompt came from. */
export const SOURCE_TEXT = {
  persona: 'own',
  stage: 'arc stage',
  override: 'override',
} as const satisfies Record<AssembledPersonaView['parts'][number]['source'], string>;

/** Why an item was left out of the assembled prompt. */
export const LEFT_OUT_TEXT = {
  budget: 'over the token budget',
  limit: 'beyond the limit of parts',
} as const satisfies Record<AssembledPersonaView['leftOut'][number]['because'], string>;

/** A reason code in words; one this screen does not know is shown as it came. */
export function reasonText(reason: string): string {
  return Object.hasOwn(REASON_TEXT, reason) ? REASON_TEXT[reason as RefusalReason] : reason;
}

/** The failure of a change: "<what>: <reason in words>.", with the located problems. */
export function failureReport(what: string, refusal: Refusal): ChangeReport {
  return {
    tone: 'failure',
    message: `${what}: ${reasonText(refusal.reason)}.`,
    reason: refusal.reason,
    problems: refusal.problems,
  };
}

/** The failure of a call that threw (the worker broke, or the contract did). */
export function errorReport(what: string, message: string): ChangeReport {
  return { tone: 'failure', message: `${what}: ${message}`, problems: [] };
}

/** The problems of one field: its own path, or a path inside it ("tags.2", "stages.0.name"). */
export function problemsAt(problems: readonly Problem[], key: string): Problem[] {
  return problems.filter((problem) => problem.path === key || problem.path?.startsWith(`${key}.`) === true);
}

/** The problems no field shows, in words (with their place). */
export function otherProblems(problems: readonly Problem[], keys: readonly string[]): string[] {
  return problems.filter((problem) => !keys.some((key) => problemsAt([problem], key).length > 0)).map(describeProblem);
}

/** The problems of a report in words, each with its place ("at parts.1.name: …"). */
export function problemTexts(report: ChangeReport | undefined): string[] {
  return report?.tone === 'failure' ? report.problems.map(describeProblem) : [];
}

/** "3 parts, 1 trait, 0 skills, 1 guardrail". */
export function countsText(persona: Pick<PersonaSummary, 'parts' | 'traits' | 'skills' | 'guardrails'>): string {
  return [
    countText(persona.parts, 'part'),
    countText(persona.traits, 'trait'),
    countText(persona.skills, 'skill'),
    countText(persona.guardrails, 'guardrail'),
  ].join(', ');
}

/** "growth, at stage stern", or "none". */
export function arcText(arc: PersonaSummary['arc']): string {
  return arc ? `${arc.name}, at stage ${arc.stage}` : 'none';
}

/** "My session", "My session and Work", or "no session". */
export function wornByText(sessions: readonly string[]): string {
  if (sessions.length === 0) return 'no session';
  if (sessions.length === 1) return sessions[0]!;
  return `${sessions.slice(0, -1).join(', ')} and ${sessions.at(-1)!}`;
}

/** What the current session wears, in a sentence. */
export function wornText(worn: PersonaSummary | undefined): string {
  return worn ? `This session wears ${worn.name}.` : 'This session wears no persona.';
}

/** The question asked before a persona is deleted, naming what happens. */
export function personaDeleteQuestion(persona: Pick<PersonaSummary, 'name' | 'wornBy'>): string {
  const sessions = persona.wornBy.length > 0 ? ` ${wornByText(persona.wornBy)} will wear no persona.` : '';
  return `Delete the persona ${persona.name}? Its links go; its parts, traits, skills and guardrails stay in the library.${sessions}`;
}

/** The question asked before an arc is deleted. */
export function arcDeleteQuestion(arc: Pick<ArcView, 'name'>): string {
  return `Delete the arc ${arc.name}? Its stages go with it; the parts they use stay in the library.`;
}

/** "about 120 tokens". */
export function tokensText(tokens: number): string {
  return `about ${countText(tokens, 'token')}`;
}

/** A part of the assembled prompt: "warm-tone (Tone) · own", with "summary only" when the budget shortened it. */
export function assembledPartText(
  part: AssembledPersonaView['parts'][number],
  view: AssembledPersonaView['view'],
): string {
  const shortened = view === 'detail' && part.view === 'summary' ? ' · summary only (the budget shortened it)' : '';
  return `${part.name} (${PART_TYPE_LABELS[part.type]}) · ${SOURCE_TEXT[part.source]}${part.pinned ? ' · pinned' : ''}${shortened}`;
}

/** An item left out of the prompt: "teach-goal (part): over the token budget". */
export function leftOutText(item: AssembledPersonaView['leftOut'][number]): string {
  return `${item.name} (${item.kind}): ${LEFT_OUT_TEXT[item.because]}`;
}

/** The manifest's token figures: "Summary about 40 tokens; detail about 55 tokens; compiled about 40 tokens". */
export function manifestTokensText(tokens: PersonaManifest['tokens']): string {
  const figures = [`Summary ${tokensText(tokens.summary)}`, `detail ${tokensText(tokens.detail)}`];
  if (tokens.compiled !== undefined) figures.push(`compiled ${tokensText(tokens.compiled)}`);
  return figures.join('; ');
}

/** When a persona was compiled, and whether it still matches: "Compiled 3/14/2024, 10:00:00 AM." / "… — out of date: it changed since." */
export function compiledText(
  compiled: { compiledAt: number; isCurrent: boolean } | undefined,
  formatTime: (time: number) => string = (time) => new Date(time).toLocaleString(),
): string {
  if (!compiled) return 'Not compiled yet: a session wearing it gives its model the summary as assembled now.';
  return compiled.isCurrent
    ? `Compiled ${formatTime(compiled.compiledAt)}.`
    : `Compiled ${formatTime(compiled.compiledAt)}: out of date, the persona has changed since; its model still gets the compiled text until you compile again.`;
}

/** The format of an import file in words. */
export const IMPORT_FORMAT_TEXT = {
  bundle: 'Anima persona bundle',
  'card-v1': 'character card (V1)',
  'card-v2': 'character card (V2)',
  'card-v3': 'character card (V3)',
} as const satisfies Record<PersonaImportPreview['format'], string>;

/** An item an import would create or reuse: "part “x: description” (identity): new". */
export function importItemText(item: PersonaImportPreview['items'][number]): string {
  const type = item.type ? ` (${item.type})` : '';
  return `${item.kind} ${item.name}${type}: ${item.state === 'new' ? 'new' : 'reused (the same one is already in the library)'}`;
}

/** The card fields an import keeps for export, or that there are none. */
export function keptFieldsText(kept: readonly string[]): string {
  return kept.length > 0 ? kept.join(', ') : 'none';
}

/** A tag list as the catalog shows it: "teaching, calm", or "no tags". */
export function tagsText(tags: readonly string[]): string {
  return tags.length > 0 ? tags.join(', ') : 'no tags';
}

/** A guardrail's severity and what a match does: "severity 0.9, asks for approval". */
export function guardrailText(guardrail: {
  severity: number;
  requireApproval: boolean;
  triggers: readonly string[];
}): string {
  const triggers =
    guardrail.triggers.length > 0 ? `, ${countText(guardrail.triggers.length, 'trigger')}` : ', no triggers';
  return `severity ${guardrail.severity}, ${guardrail.requireApproval ? 'asks for approval' : 'blocks'}${triggers}`;
}

/** Who uses a library item: "Used by Mentor", or "Not used". */
export function usedByText(usedBy: readonly string[]): string {
  return usedBy.length > 0 ? `Used by ${usedBy.join(', ')}` : 'Not used';
}

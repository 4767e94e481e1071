import type { Result } from '#core/result.ts';
import {
  PART_TYPE_TITLES,
  PART_TYPES,
  type ArcRecord,
  type ArcStageRecord,
  type GuardrailRecord,
  type PartRecord,
  type PartType,
  type PersonaRecord,
  type SkillRecord,
  type TraitRecord,
} from '#core/records/persona-catalog.ts';
import { estimateTokens } from './token-estimate.ts';

/** A persona with everything linked to it, read from the catalog in one transaction. */
export type PersonaDefinition = {
  persona: PersonaRecord;
  /** In the persona's order. */
  parts: { part: PartRecord; order: number; priority: number; pinned: boolean }[];
  traits: TraitRecord[];
  skills: SkillRecord[];
  guardrails: GuardrailRecord[];
  arc?: { arc: ArcRecord; stages: ArcStageRecord[]; current: ArcStageRecord; stageParts: PartRecord[] };
};

/** How to assemble: the view, runtime overrides (by part type), a types filter, a top-N limit, a token budget. */
export type AssemblyOptions = {
  detail: boolean;
  overrides?: Partial<Record<PartType, PartRecord>>;
  types?: readonly PartType[];
  limit?: number;
  budgetTokens?: number;
};

/** Where an assembled part came from: priority runtime override > arc stage > the persona's own. */
export type PartSource = 'override' | 'stage' | 'persona';

export type AssembledPart = {
  name: string;
  type: PartType;
  source: PartSource;
  priority: number;
  pinned: boolean;
  /** 'summary' for a detail-view part the budget shortened. */
  view: 'summary' | 'detail';
  text: string;
};

/** Why an item is not in the assembled prompt. */
export type LeftOut = { kind: 'part' | 'trait' | 'skill'; name: string; because: 'limit' | 'budget' };

export type AssembledPersona = {
  name: string;
  view: 'summary' | 'detail';
  /** The prompt: the persona, its parts, traits, skills and guardrails, as plain text. */
  text: string;
  tokens: number;
  parts: AssembledPart[];
  traits: string[];
  skills: string[];
  guardrails: string[];
  leftOut: LeftOut[];
  stage?: { arc: string; stage: string };
};

/** The budget cannot hold what may not be dropped (the persona's own text, guardrails, pinned parts). */
export type OverBudget = { reason: 'pinned-over-budget'; budgetTokens: number; fixedTokens: number; pinned: string[] };

type Candidate = { part: PartRecord; order: number; priority: number; pinned: boolean; source: PartSource };

/**
 * The parts in effect, per type: a runtime override replaces every part of its type, else the
 * current arc stage's parts of that type do, else the persona's own parts stand. A replacing part
 * takes the place, priority and pin of the first part it replaces; one of a type the persona
 * lacks goes last, unpinned, at priority 0.
 */
export function effectiveParts(
  definition: PersonaDefinition,
  overrides: AssemblyOptions['overrides'] = {},
): Candidate[] {
  const own = definition.parts.map((link): Candidate => ({ ...link, source: 'persona' }));
  const stageParts = definition.arc?.stageParts ?? [];
  const lastOrder = own.reduce((last, candidate) => Math.max(last, candidate.order), -1);
  const result: Candidate[] = [];
  let appended = 0;
  const handled = new Set<PartType>();
  const replacementsOf = (type: PartType): { parts: PartRecord[]; source: PartSource } | undefined => {
    const override = overrides[type];
    if (override) return { parts: [override], source: 'override' };
    const staged = stageParts.filter((part) => part.type === type);
    return staged.length > 0 ? { parts: staged, source: 'stage' } : undefined;
  };
  for (const candidate of own) {
    const type = candidate.part.type;
    const replacements = replacementsOf(type);
    if (!replacements) {
      result.push(candidate);
      continue;
    }
    if (handled.has(type)) continue;
    handled.add(type);
    for (const [index, part] of replacements.parts.entries())
      result.push({
        part,
        order: candidate.order + index / 1000,
        priority: candidate.priority,
        pinned: candidate.pinned,
        source: replacements.source,
      });
  }
  for (const type of PART_TYPES) {
    if (handled.has(type) || own.some((candidate) => candidate.part.type === type)) continue;
    const replacements = replacementsOf(type);
    for (const part of replacements?.parts ?? [])
      result.push({
        part,
        order: lastOrder + 1 + appended++,
        priority: 0,
        pinned: false,
        source: replacements!.source,
      });
  }
  return result.sort((left, right) => left.order - right.order);
}

const byPriority = (left: { priority: number; order: number }, right: { priority: number; order: number }) =>
  right.priority - left.priority || left.order - right.order;

const partText = (part: PartRecord, view: 'summary' | 'detail') =>
  view === 'detail' && part.content.trim() !== '' ? part.content : part.summary;

type Selection = { parts: AssembledPart[]; traits: TraitRecord[]; skills: SkillRecord[] };

function render(definition: PersonaDefinition, view: 'summary' | 'detail', selection: Selection): string {
  const { persona, guardrails } = definition;
  const isDetail = view === 'detail';
  const own = isDetail && persona.detail.trim() !== '' ? persona.detail : persona.summary;
  const blocks = [[`# ${persona.name}`, ...(own.trim() !== '' ? [own] : [])].join('\n')];
  for (const part of selection.parts) blocks.push(`## ${PART_TYPE_TITLES[part.type]}\n${part.text}`);
  const list = (title: string, lines: string[]) =>
    lines.length > 0 && blocks.push([`## ${title}`, ...lines].join('\n'));
  const line = (name: string, text: string) => (text.trim() !== '' ? `- ${name}: ${text}` : `- ${name}`);
  list(
    'Traits',
    selection.traits.map((trait) =>
      line(
        `${trait.name} (${trait.type})`,
        isDetail && trait.instruction.trim() !== '' ? trait.instruction : trait.description,
      ),
    ),
  );
  list(
    'Skills',
    selection.skills.map((skill) =>
      line(skill.name, isDetail && skill.content.trim() !== '' ? skill.content : skill.description),
    ),
  );
  list(
    'Guardrails',
    guardrails.map((guardrail) => {
      const text = isDetail && guardrail.content.trim() !== '' ? guardrail.content : guardrail.description;
      return line(
        guardrail.name,
        isDetail ? `${text}${text.trim() !== '' ? ' ' : ''}(severity ${guardrail.severity})` : text,
      );
    }),
  );
  return blocks.join('\n\n');
}

/**
 * Assembles a persona's prompt (seed 003's get_agent_persona): the summary or detail view of the
 * persona and its effective parts, traits, skills and guardrails. `types` keeps parts of those
 * types; `limit` keeps the top-N parts by priority (pinned first). A token budget keeps the
 * persona's own text, its guardrails and pinned parts always; adds the others by priority in
 * their summary, leaving out what does not fit; in the detail view then gives each part its
 * detail, by priority, where that fits; and last adds traits and skills while they fit.
 */
export function assemblePersona(
  definition: PersonaDefinition,
  options: AssemblyOptions,
): Result<AssembledPersona, OverBudget> {
  const view = options.detail ? 'detail' : 'summary';
  const leftOut: LeftOut[] = [];
  let candidates = effectiveParts(definition, options.overrides);
  if (options.types) {
    const wanted = new Set(options.types);
    candidates = candidates.filter((candidate) => wanted.has(candidate.part.type));
  }
  if (options.limit !== undefined && candidates.length > options.limit) {
    const kept = new Set(
      [...candidates]
        .sort((left, right) => Number(right.pinned) - Number(left.pinned) || byPriority(left, right))
        .slice(0, options.limit),
    );
    for (const candidate of candidates)
      if (!kept.has(candidate)) leftOut.push({ kind: 'part', name: candidate.part.name, because: 'limit' });
    candidates = candidates.filter((candidate) => kept.has(candidate));
  }
  const assembled = (candidate: Candidate, partView: 'summary' | 'detail'): AssembledPart => ({
    name: candidate.part.name,
    type: candidate.part.type,
    source: candidate.source,
    priority: candidate.priority,
    pinned: candidate.pinned,
    view: partView,
    text: partText(candidate.part, partView),
  });
  const inOrder = (chosen: Map<Candidate, AssembledPart>) =>
    candidates.flatMap((candidate) => chosen.get(candidate) ?? []);
  const chosen = new Map<Candidate, AssembledPart>();
  let traits = definition.traits;
  let skills = definition.skills;

  const budget = options.budgetTokens;
  if (budget !== undefined) {
    const pinned = candidates.filter((candidate) => candidate.pinned).sort(byPriority);
    const rest = candidates.filter((candidate) => !candidate.pinned).sort(byPriority);
    const hasDetail = (candidate: Candidate) => view === 'detail' && candidate.part.content.trim() !== '';
    traits = [];
    skills = [];
    const tokensOf = () => estimateTokens(render(definition, view, { parts: inOrder(chosen), traits, skills }));
    // What may not be left out (the persona's text, its guardrails, pinned parts), pinned parts in their summary at first.
    // A part without detail is whole in its summary: it is not reported as shortened.
    const shortest = (candidate: Candidate) => assembled(candidate, hasDetail(candidate) ? 'summary' : view);
    for (const candidate of pinned) chosen.set(candidate, shortest(candidate));
    const fixedTokens = tokensOf();
    if (fixedTokens > budget)
      return {
        ok: false,
        error: {
          reason: 'pinned-over-budget',
          budgetTokens: budget,
          fixedTokens,
          pinned: pinned.map((candidate) => candidate.part.name),
        },
      };
    // Then the others by priority, each in its summary while it fits: a long part never crowds out a short one of lower priority.
    for (const candidate of rest) {
      chosen.set(candidate, shortest(candidate));
      if (tokensOf() > budget) {
        chosen.delete(candidate);
        leftOut.push({ kind: 'part', name: candidate.part.name, because: 'budget' });
      }
    }
    // Then, in the detail view, each part in (pinned first, by priority) is given its detail while that fits.
    for (const candidate of [...pinned, ...rest]) {
      if (!chosen.has(candidate) || !hasDetail(candidate)) continue;
      const summary = chosen.get(candidate)!;
      chosen.set(candidate, assembled(candidate, 'detail'));
      if (tokensOf() > budget) chosen.set(candidate, summary);
    }
    for (const trait of definition.traits) {
      traits = [...traits, trait];
      if (tokensOf() > budget) {
        traits = traits.slice(0, -1);
        leftOut.push({ kind: 'trait', name: trait.name, because: 'budget' });
      }
    }
    for (const skill of definition.skills) {
      skills = [...skills, skill];
      if (tokensOf() > budget) {
        skills = skills.slice(0, -1);
        leftOut.push({ kind: 'skill', name: skill.name, because: 'budget' });
      }
    }
  } else {
    for (const candidate of candidates) chosen.set(candidate, assembled(candidate, view));
  }

  const parts = inOrder(chosen);
  const text = render(definition, view, { parts, traits, skills });
  return {
    ok: true,
    value: {
      name: definition.persona.name,
      view,
      text,
      tokens: estimateTokens(text),
      parts,
      traits: traits.map((trait) => trait.name),
      skills: skills.map((skill) => skill.name),
      guardrails: definition.guardrails.map((guardrail) => guardrail.name),
      leftOut,
      ...(definition.arc ? { stage: { arc: definition.arc.arc.name, stage: definition.arc.current.name } } : {}),
    },
  };
}

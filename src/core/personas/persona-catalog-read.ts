import type { AnimaDatabase } from '#core/store/database.ts';
import type { PersonaDefinition } from './assemble.ts';
import type { PartRecord, PersonaRecord } from '#core/records/persona-catalog.ts';
import { bundleOf, type PersonaBundle } from './persona-bundle.ts';

/** The persona catalog's tables, for transactions that read or change it as a whole. */
export function catalogTables(db: AnimaDatabase) {
  return [
    db.personas,
    db.parts,
    db.traits,
    db.skills,
    db.guardrails,
    db.arcs,
    db.arcStages,
    db.personaParts,
    db.personaTraits,
    db.personaSkills,
    db.personaGuardrails,
    db.stageParts,
    db.personaArcs,
    db.sessions,
  ];
}

const byName = <T extends { name: string }>(left: T, right: T) =>
  left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
const present = <T>(values: (T | undefined)[]): T[] => values.filter((value): value is T => value !== undefined);

/**
 * Reads a persona with everything linked to it: parts in the persona's order, traits, skills and
 * guardrails by name, and its arc with the current stage's parts. Call it inside a transaction
 * over catalogTables, so the definition is one consistent state.
 */
export async function readDefinition(db: AnimaDatabase, persona: PersonaRecord): Promise<PersonaDefinition> {
  const links = (await db.personaParts.where('personaId').equals(persona.id).toArray()).sort(
    (left, right) => left.order - right.order,
  );
  const parts = await db.parts.bulkGet(links.map((link) => link.partId));
  const traitIds = (await db.personaTraits.where('personaId').equals(persona.id).toArray()).map((link) => link.traitId);
  const skillIds = (await db.personaSkills.where('personaId').equals(persona.id).toArray()).map((link) => link.skillId);
  const guardrailIds = (await db.personaGuardrails.where('personaId').equals(persona.id).toArray()).map(
    (link) => link.guardrailId,
  );
  const definition: PersonaDefinition = {
    persona,
    parts: links.flatMap((link, index) =>
      parts[index] ? [{ part: parts[index], order: link.order, priority: link.priority, pinned: link.pinned }] : [],
    ),
    traits: present(await db.traits.bulkGet(traitIds)).sort(byName),
    skills: present(await db.skills.bulkGet(skillIds)).sort(byName),
    guardrails: present(await db.guardrails.bulkGet(guardrailIds)).sort(byName),
  };
  const onArc = await db.personaArcs.get(persona.id);
  if (onArc) {
    const arc = await db.arcs.get(onArc.arcId);
    const stages = (await db.arcStages.where('arcId').equals(onArc.arcId).toArray()).sort(
      (left, right) => left.position - right.position,
    );
    const current = stages.find((stage) => stage.id === onArc.currentStageId);
    if (arc && current) {
      const stagePartIds = (await db.stageParts.where('stageId').equals(current.id).toArray()).map(
        (link) => link.partId,
      );
      definition.arc = { arc, stages, current, stageParts: present(await db.parts.bulkGet(stagePartIds)).sort(byName) };
    }
  }
  return definition;
}

/** A stored persona as a bundle: its definition, its arc's stages with their parts, and its card's kept fields. */
export async function personaBundleOf(db: AnimaDatabase, persona: PersonaRecord): Promise<PersonaBundle> {
  const definition = await readDefinition(db, persona);
  const stages = definition.arc ? await stagesWithParts(db, definition.arc.arc.id) : [];
  return bundleOf(
    definition,
    stages,
    persona.card ? { extras: persona.card.extras, extensions: persona.card.extensions } : undefined,
  );
}

async function stagesWithParts(db: AnimaDatabase, arcId: number) {
  const stages = (await db.arcStages.where('arcId').equals(arcId).toArray()).sort(
    (left, right) => left.position - right.position,
  );
  return Promise.all(
    stages.map(async (stage) => {
      const partIds = (await db.stageParts.where('stageId').equals(stage.id).toArray()).map((link) => link.partId);
      const parts = (await db.parts.bulkGet(partIds))
        .filter((part): part is PartRecord => part !== undefined)
        .sort((left, right) => (left.name < right.name ? -1 : 1));
      return { stage, parts };
    }),
  );
}

import type { z } from 'zod';
import type { AgentServiceImplementation } from '#core/api.ts';
import type { ServiceContext } from './service-context.ts';
import { arcFieldsSchema, arcStageFieldsSchema, type ArcRecord } from '#core/records/persona-catalog.ts';
import type { personaContract } from '#core/api/persona-contract.ts';
import { type CatalogHelpers, parseFields, refusal, refuse } from './persona-catalog-helpers.ts';

type ArcMethods = Extract<
  keyof typeof personaContract,
  `arc${string}` | `stage${string}` | `personaArc${string}` | `personaStage${string}`
>;

/** Arcs and their stages, and the personas on them. */
export function personaArcService(
  context: ServiceContext,
  helpers: CatalogHelpers,
): Pick<AgentServiceImplementation, ArcMethods> {
  const { db, now } = context;
  const {
    change,
    read,
    personaNamed,
    itemNamed,
    arcNamed,
    stagesOf,
    stageNamed,
    ensureNameFree,
    summaryOf,
    arcViewOf,
    touch,
    recompileIfCompiled,
  } = helpers;

  const stageMove = async (personaName: string, where: 'next' | 'first') =>
    change(async () => {
      const persona = await personaNamed(personaName, 'persona');
      const onArc =
        (await db.personaArcs.get(persona.id)) ??
        refuse('invalid', `"${persona.name}" is on no arc; assign one first`, 'persona');
      const stages = await stagesOf(onArc.arcId);
      const index = stages.findIndex((stage) => stage.id === onArc.currentStageId);
      const target = where === 'first' ? stages[0] : stages[index + 1];
      if (!target)
        return refusal(
          'invalid',
          `"${persona.name}" is already at the last stage, "${stages[index]?.name ?? '?'}"`,
          'persona',
        );
      await db.personaArcs.put({ ...onArc, currentStageId: target.id, updatedAt: now() });
      await touch(persona.id);
      await recompileIfCompiled(persona.id);
      return { ok: true as const, item: await summaryOf((await db.personas.get(persona.id))!) };
    });

  return {
    async arcCreate({ fields, stages }) {
      const parsed = parseFields(arcFieldsSchema, fields);
      if (!parsed.ok) return parsed;
      const stageFields: z.output<typeof arcStageFieldsSchema>[] = [];
      for (const [index, stage] of stages.entries()) {
        const parsedStage = parseFields(arcStageFieldsSchema, stage);
        if (!parsedStage.ok)
          return {
            ...parsedStage,
            problems: parsedStage.problems.map((problem) => ({
              ...problem,
              path: `stages.${index}${problem.path ? `.${problem.path}` : ''}`,
            })),
          };
        stageFields.push(parsedStage.fields);
      }
      const duplicate = stageFields.find(
        (stage, index) => stageFields.findIndex((other) => other.name === stage.name) !== index,
      );
      if (duplicate) return refusal('invalid', `two stages are named "${duplicate.name}"`, 'stages');
      return change(async () => {
        await ensureNameFree('arc', parsed.fields.name);
        const arcId = await db.arcs.add({ ...parsed.fields, createdAt: now(), updatedAt: now() } as ArcRecord);
        for (const [position, stage] of stageFields.entries())
          await db.arcStages.add({ ...stage, arcId, position, createdAt: now() } as never);
        return { ok: true as const, item: await arcViewOf((await db.arcs.get(arcId))!) };
      });
    },

    async arcList() {
      return read(async () => ({ arcs: await Promise.all((await db.arcs.orderBy('name').toArray()).map(arcViewOf)) }));
    },

    async arcGet({ name }) {
      return read(async () => {
        const arc = await db.arcs.where('name').equals(name).first();
        return arc
          ? { ok: true as const, item: await arcViewOf(arc) }
          : refusal('not-found', `there is no arc named "${name}"`, 'name');
      });
    },

    async arcDelete({ name }) {
      return change(async () => {
        const arc = await arcNamed(name, 'name');
        const onArc = await db.personaArcs.where('arcId').equals(arc.id).toArray();
        if (onArc.length > 0) {
          const personas = (await db.personas.bulkGet(onArc.map((link) => link.personaId))).flatMap((persona) =>
            persona ? [`"${persona.name}"`] : [],
          );
          return refusal(
            'in-use',
            `${personas.join(', ')} ${personas.length === 1 ? 'is' : 'are'} on this arc; take ${personas.length === 1 ? 'it' : 'them'} off first`,
          );
        }
        for (const stage of await stagesOf(arc.id)) {
          await db.stageParts.where('stageId').equals(stage.id).delete();
          await db.arcStages.delete(stage.id);
        }
        await db.arcs.delete(arc.id);
        return { ok: true as const };
      });
    },

    async arcStageAdd({ arc: arcName, fields, position }) {
      const parsed = parseFields(arcStageFieldsSchema, fields);
      if (!parsed.ok) return parsed;
      return change(async () => {
        const arc = await arcNamed(arcName);
        const stages = await stagesOf(arc.id);
        if (stages.some((stage) => stage.name === parsed.fields.name))
          return refusal('name-taken', `the arc already has a stage named "${parsed.fields.name}"`, 'name');
        const at = Math.min(position ?? stages.length, stages.length);
        for (const stage of stages)
          if (stage.position >= at) await db.arcStages.update(stage.id, { position: stage.position + 1 });
        await db.arcStages.add({ ...parsed.fields, arcId: arc.id, position: at, createdAt: now() } as never);
        await db.arcs.update(arc.id, { updatedAt: now() });
        return { ok: true as const, item: await arcViewOf((await db.arcs.get(arc.id))!) };
      });
    },

    async arcStageRemove({ arc: arcName, stage: stageName }) {
      return change(async () => {
        const arc = await arcNamed(arcName);
        const stage = await stageNamed(arc, stageName);
        const atStage = (await db.personaArcs.where('arcId').equals(arc.id).toArray()).filter(
          (link) => link.currentStageId === stage.id,
        );
        if (atStage.length > 0)
          return refusal('in-use', `a persona is at the stage "${stage.name}"; move it first`, 'stage');
        await db.stageParts.where('stageId').equals(stage.id).delete();
        await db.arcStages.delete(stage.id);
        for (const [position, other] of (await stagesOf(arc.id)).entries())
          await db.arcStages.update(other.id, { position });
        await db.arcs.update(arc.id, { updatedAt: now() });
        return { ok: true as const, item: await arcViewOf((await db.arcs.get(arc.id))!) };
      });
    },

    async stagePartAdd({ arc: arcName, stage: stageName, part: partName }) {
      return change(async () => {
        const arc = await arcNamed(arcName);
        const stage = await stageNamed(arc, stageName);
        const part = await itemNamed('part', partName, 'part');
        await db.stageParts.put({ stageId: stage.id, partId: part.id });
        await db.arcs.update(arc.id, { updatedAt: now() });
        return { ok: true as const, item: await arcViewOf((await db.arcs.get(arc.id))!) };
      });
    },

    async stagePartRemove({ arc: arcName, stage: stageName, part: partName }) {
      return change(async () => {
        const arc = await arcNamed(arcName);
        const stage = await stageNamed(arc, stageName);
        const part = await itemNamed('part', partName, 'part');
        if (!(await db.stageParts.get([stage.id, part.id])))
          return refusal('not-found', `the stage "${stage.name}" has no part "${part.name}"`, 'part');
        await db.stageParts.delete([stage.id, part.id]);
        await db.arcs.update(arc.id, { updatedAt: now() });
        return { ok: true as const, item: await arcViewOf((await db.arcs.get(arc.id))!) };
      });
    },

    async personaArcAssign({ persona: personaName, arc: arcName, stage: stageName }) {
      return change(async () => {
        const persona = await personaNamed(personaName, 'persona');
        if (arcName === null) await db.personaArcs.delete(persona.id);
        else {
          const arc = await arcNamed(arcName);
          const stages = await stagesOf(arc.id);
          const stage =
            stageName !== undefined
              ? await stageNamed(arc, stageName)
              : (stages[0] ?? refuse('invalid', `the arc "${arc.name}" has no stages yet; add one first`, 'arc'));
          await db.personaArcs.put({
            personaId: persona.id,
            arcId: arc.id,
            currentStageId: stage.id,
            updatedAt: now(),
          });
        }
        await touch(persona.id);
        await recompileIfCompiled(persona.id);
        return { ok: true as const, item: await summaryOf((await db.personas.get(persona.id))!) };
      });
    },

    personaStageAdvance: ({ persona }) => stageMove(persona, 'next'),
    personaStageReset: ({ persona }) => stageMove(persona, 'first'),
  };
}

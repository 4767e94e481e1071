import { type AgentApi, withContractChecks } from '#core/api.ts';
import type { ArcView } from '#core/api/persona-contract.ts';
import { quoteInput } from '#core/quote-input.ts';
import { describeProblem, type Problem } from '#core/result.ts';
import { createAgentService } from '#core/service/service.ts';
import { openCatalog } from '../catalog-file.ts';
import { type CliValues, numberOption } from '../options.ts';
import type { CliOutput } from '../output.ts';
import { CliError, openSnapshot } from '../snapshot-file.ts';

/** The arc part of `anima --help`. */
export const ARC_USAGE = `Persona arcs (the stages a persona goes through, kept in the catalog file):
  anima arc list --catalog C [--json]
  anima arc show ARC --catalog C [--json]     its stages in order, their parts, the personas on it
  anima arc create ARC [--description T] [--stage NAME]... --catalog C
  anima arc delete ARC --catalog C            (refused while a persona is on it)
  anima arc stage-add ARC STAGE [--condition T] [--description T] [--position N] --catalog C
  anima arc stage-remove ARC STAGE --catalog C
  anima arc part-add ARC STAGE PART --catalog C      the stage puts the part in the prompt
  anima arc part-remove ARC STAGE PART --catalog C
  anima arc assign PERSONA ARC [--stage STAGE] --catalog C   (the first stage when none is named)
  anima arc unassign PERSONA --catalog C
`;

/** Each arc command and the operands it takes. */
const ARC_COMMANDS: Record<string, string[]> = {
  list: [],
  show: ['ARC'],
  create: ['ARC'],
  delete: ['ARC'],
  'stage-add': ['ARC', 'STAGE'],
  'stage-remove': ['ARC', 'STAGE'],
  'part-add': ['ARC', 'STAGE', 'PART'],
  'part-remove': ['ARC', 'STAGE', 'PART'],
  assign: ['PERSONA', 'ARC'],
  unassign: ['PERSONA'],
};

const usageError = (message: string) => new CliError(`${message}\n\n${ARC_USAGE}`, 2);

/** `anima arc ...`: the catalog file loaded into a fresh database, the command run through the persona service, the file saved when it changed. */
export async function runArcCommand(
  command: string | undefined,
  operands: string[],
  values: CliValues,
  output: CliOutput,
): Promise<number> {
  const wanted = command === undefined ? undefined : ARC_COMMANDS[command];
  if (command === undefined || wanted === undefined)
    throw usageError(`unknown command ${quoteInput(`arc ${command ?? ''}`)}`);
  if (!values.catalog) throw usageError(`arc ${command}: --catalog C is required`);
  if (operands.length < wanted.length) throw usageError(`arc ${command}: which ${wanted[operands.length]}?`);
  if ((values.stage?.length ?? 0) > 1 && command !== 'create') throw usageError(`arc ${command}: give --stage once`);
  const { db } = await openSnapshot(undefined);
  // Creating an arc may start a catalog; everything else works on one that is there.
  const catalog = await openCatalog(db, values.catalog, { mustExist: command !== 'create' });
  const service: AgentApi = withContractChecks(
    createAgentService({ db, now: () => Date.now(), newId: () => crypto.randomUUID() }),
  );
  const [first = '', second = '', third = ''] = operands;
  const refused = (problems: Problem[]) =>
    new CliError(
      problems.length === 1
        ? `arc ${command}: ${describeProblem(problems[0]!)}`
        : [`arc ${command}:`, ...problems.map((problem) => `  ${describeProblem(problem)}`)].join('\n'),
    );
  /** Runs a change; on success saves the catalog and says what the arc is now. */
  const change = async (
    changed: { ok: true; item?: ArcView | unknown } | { ok: false; problems: Problem[] },
    said: string,
  ): Promise<number> => {
    if (!changed.ok) throw refused(changed.problems);
    await catalog.save();
    output.out(`${said}\n`);
    return 0;
  };
  switch (command) {
    case 'list': {
      const { arcs } = await service.arcList({});
      if (values.json) output.out(`${JSON.stringify(arcs)}\n`);
      else if (arcs.length === 0) output.error('anima: the catalog has no arcs (`anima arc create ARC` adds one)\n');
      else
        for (const arc of arcs)
          output.out(
            `${arc.name}\t${arc.stages.map((stage) => stage.name).join(' -> ') || '-'}\t${arc.personas.map((persona) => `${persona.name}:${persona.stage}`).join(', ') || '-'}\n`,
          );
      return 0;
    }
    case 'show': {
      const got = await service.arcGet({ name: first });
      if (!got.ok) throw refused(got.problems);
      output.out(values.json ? `${JSON.stringify(got.item)}\n` : arcText(got.item));
      return 0;
    }
    case 'create': {
      const fields = { name: first, ...(values.description !== undefined ? { description: values.description } : {}) };
      return change(
        await service.arcCreate({ fields, stages: (values.stage ?? []).map((name) => ({ name })) }),
        `created the arc ${first}`,
      );
    }
    case 'delete':
      return change(await service.arcDelete({ name: first }), `deleted the arc ${first}`);
    case 'stage-add': {
      const fields = {
        name: second,
        ...(values.description !== undefined ? { description: values.description } : {}),
        ...(values.condition !== undefined ? { condition: values.condition } : {}),
      };
      const position =
        values.position === undefined
          ? undefined
          : numberOption(values.position, '--position', { min: 0, max: 100, fallback: 0, isInteger: true });
      return change(
        await service.arcStageAdd({ arc: first, fields, ...(position !== undefined ? { position } : {}) }),
        `the arc ${first} has the stage ${second}`,
      );
    }
    case 'stage-remove':
      return change(
        await service.arcStageRemove({ arc: first, stage: second }),
        `removed the stage ${second} from the arc ${first}`,
      );
    case 'part-add':
      return change(
        await service.stagePartAdd({ arc: first, stage: second, part: third }),
        `the stage ${second} of ${first} puts in the part ${third}`,
      );
    case 'part-remove':
      return change(
        await service.stagePartRemove({ arc: first, stage: second, part: third }),
        `the stage ${second} of ${first} no longer puts in the part ${third}`,
      );
    case 'assign': {
      const stage = values.stage?.[0];
      const assigned = await service.personaArcAssign({
        persona: first,
        arc: second,
        ...(stage !== undefined ? { stage } : {}),
      });
      return change(
        assigned,
        assigned.ok && assigned.item.arc
          ? `${first} is on the arc ${assigned.item.arc.name} at the stage ${assigned.item.arc.stage}`
          : `${first} is on the arc ${second}`,
      );
    }
    case 'unassign':
      return change(await service.personaArcAssign({ persona: first, arc: null }), `${first} is on no arc`);
    default:
      throw usageError(`unknown command ${quoteInput(`arc ${command}`)}`);
  }
}

/** An arc as lines: its description, then each stage with its condition and parts, then who is on it. */
function arcText(arc: ArcView): string {
  const lines = [`${arc.name}${arc.description ? `: ${arc.description}` : ''}`];
  for (const stage of arc.stages)
    lines.push(
      `  ${stage.position + 1}. ${stage.name}${stage.condition ? ` (when ${stage.condition})` : ''}${stage.parts.length > 0 ? `: ${stage.parts.map((part) => `${part.name} (${part.type})`).join(', ')}` : ''}`,
    );
  if (arc.stages.length === 0) lines.push('  no stages yet (`anima arc stage-add`)');
  lines.push(
    arc.personas.length > 0
      ? `  on it: ${arc.personas.map((persona) => `${persona.name} at ${persona.stage}`).join(', ')}`
      : '  no persona is on it',
  );
  return `${lines.join('\n')}\n`;
}

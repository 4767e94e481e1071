import { type AgentApi, withContractChecks } from '#core/api.ts';
import { createAgentService } from '#core/service/service.ts';
import { openCatalog } from '../catalog-file.ts';
import type { CliOutput } from '../output.ts';
import { CliError, openSnapshot } from '../snapshot-file.ts';
import { quoteInput } from '#core/quote-input.ts';
import { type PersonaOptions, type PersonaCommand, isPersonaCommand, usageError } from './persona-arguments.ts';
import {
  listPersonas,
  showPersona,
  importPersona,
  exportPersona,
  compilePersona,
  manifestOf,
  wearPersona,
} from './persona-commands.ts';

/** `anima persona ...`: the catalog file loaded into a fresh database, the command run, the file saved when it changed. */
export async function runPersonaCommand(
  command: string | undefined,
  operand: string | undefined,
  values: PersonaOptions,
  output: CliOutput,
): Promise<number> {
  if (!isPersonaCommand(command)) throw usageError(`unknown command ${quoteInput(`persona ${command ?? ''}`)}`);
  if (!values.catalog) throw usageError(`persona ${command}: --catalog C is required`);
  const isWearing = command === 'wear';
  if (isWearing && !values.snapshot)
    throw usageError('persona wear: --snapshot S is required (the session that wears it)');
  if (isWearing && (operand === undefined) === !values.none)
    throw usageError('persona wear: give a persona NAME, or --none to wear none');
  if (!isWearing && command !== 'list' && operand === undefined)
    throw usageError(`persona ${command}: which ${command === 'import' ? 'FILE' : 'persona NAME'}?`);

  // Only wear needs a session; the others work on the catalog alone.
  const { db, hadSnapshot } = await openSnapshot(isWearing ? values.snapshot : undefined);
  if (isWearing && !hadSnapshot)
    throw new CliError(
      `no snapshot at ${values.snapshot} (\`anima run ... --snapshot ${values.snapshot}\` creates it)`,
    );
  // An import may start a catalog; a dry run only reads, so it may preview against none.
  const catalog = await openCatalog(db, values.catalog, { mustExist: command !== 'import' });
  const service: AgentApi = withContractChecks(
    createAgentService({ db, now: () => Date.now(), newId: () => crypto.randomUUID() }),
  );
  const context: PersonaCommand = { service, operand, values, output, catalog };
  switch (command) {
    case 'list':
      return listPersonas(context);
    case 'show':
      return showPersona(context);
    case 'import':
      return importPersona(context);
    case 'export':
      return exportPersona(context);
    case 'compile':
      return compilePersona(context);
    case 'manifest':
      return manifestOf(context);
    case 'wear':
      return wearPersona(context);
  }
}

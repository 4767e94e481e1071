import { errorSentence, shortened } from '#core/error-sentence.ts';
import { quoteInput } from '#core/quote-input.ts';
import { AGENT_COMMANDS } from './commands/agent.ts';
import { ARTIFACT_COMMANDS } from './commands/artifacts.ts';
import { JOB_COMMANDS } from './commands/jobs.ts';
import { ASK_COMMANDS } from './commands/ask.ts';
import { APPROVAL_COMMANDS } from './commands/approvals.ts';
import { runArcCommand } from './commands/arc.ts';
import { DOCUMENT_COMMANDS } from './commands/documents.ts';
import { ENDPOINT_COMMANDS } from './commands/endpoints.ts';
import { TOOLS_COMMANDS } from './commands/tools.ts';
import { GOAL_COMMANDS } from './commands/goals.ts';
import { KG_COMMANDS } from './commands/kg.ts';
import { MEMORY_COMMANDS } from './commands/memory.ts';
import { runLlmCommand } from './commands/model.ts';
import { runPersonaCommand } from './commands/persona.ts';
import { PSYCHE_COMMANDS } from './commands/psyche.ts';
import { QUESTION_COMMANDS } from './commands/questions.ts';
import { REFLECTION_COMMANDS } from './commands/reflection.ts';
import { SETTINGS_COMMANDS } from './commands/settings.ts';
import { STATUS_COMMANDS } from './commands/status.ts';
import { runSnapshotCommand } from './commands/snapshot.ts';
import { parseCommandLine } from './options.ts';
import { type CliOutput, standardOutput } from './output.ts';
import { openCliSession, type SessionCommand } from './session.ts';
import { CliError } from './snapshot-file.ts';
import { USAGE, usageFor } from './usage.ts';

/** The commands over a snapshot's session, by name: one word ("run") or two ("kg import"). */
const SESSION_COMMANDS: Record<string, SessionCommand> = {
  ...KG_COMMANDS,
  ...PSYCHE_COMMANDS,
  ...AGENT_COMMANDS,
  ...GOAL_COMMANDS,
  ...MEMORY_COMMANDS,
  ...REFLECTION_COMMANDS,
  ...SETTINGS_COMMANDS,
  ...QUESTION_COMMANDS,
  ...ASK_COMMANDS,
  ...APPROVAL_COMMANDS,
  ...DOCUMENT_COMMANDS,
  ...ARTIFACT_COMMANDS,
  ...JOB_COMMANDS,
  ...STATUS_COMMANDS,
  ...ENDPOINT_COMMANDS,
  ...TOOLS_COMMANDS,
};

/** The first words of the two-word commands: "kg", "psyche". */
const AREAS = new Set(
  Object.keys(SESSION_COMMANDS).flatMap((name) => (name.includes(' ') ? [name.split(' ')[0]!] : [])),
);

/** Runs one CLI command and returns its exit code: 0 done, 1 failed (bad input), 2 wrong usage. */
export async function main(argv: string[], output: CliOutput = standardOutput): Promise<number> {
  try {
    return await dispatch(argv, output);
  } catch (error) {
    if (error instanceof CliError) {
      // Each line cut, in case one quotes a huge input.
      output.error(
        `anima: ${error.message
          .split('\n')
          .map((line) => shortened(line))
          .join('\n')}\n`,
      );
      return error.exitCode;
    }
    // One sentence; the stack only for a developer who asks (ANIMA_DEBUG=1).
    output.error(`anima: ${errorSentence(error)}\n`);
    if (process.env.ANIMA_DEBUG)
      for (let cause: unknown = error; cause instanceof Error; cause = cause.cause)
        output.error(`${cause.stack ?? cause.message}\n`);
    return 1;
  }
}

async function dispatch(argv: string[], output: CliOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    // Node's message quotes the option whole, twice.
    throw new CliError(`${shortened(error instanceof Error ? error.message : String(error), 300)}\n\n${usageFor()}`, 2);
  }
  const { values, positionals } = parsed;
  const [area, command, ...rest] = positionals;
  if (values.help) {
    output.out(USAGE);
    return 0;
  }
  if (area === undefined) throw new CliError(`which command?\n\n${usageFor()}`, 2);
  if (area === 'llm') return runLlmCommand(command, values, output);
  if (area === 'arc') return runArcCommand(command, rest, values, output);
  if (area === 'persona') return runPersonaCommand(command, rest[0], values, output);
  if (area === 'snapshot') return runSnapshotCommand(command, rest[0], values, output);
  const isArea = AREAS.has(area);
  const name = isArea ? `${area} ${command ?? ''}` : area;
  const found = SESSION_COMMANDS[name];
  if (!found) throw new CliError(`unknown command ${quoteInput(name)}\n\n${usageFor(isArea ? area : undefined)}`, 2);
  if (!found.needsNoSnapshot && !values.snapshot)
    throw new CliError(`${name}: --snapshot S is required\n\n${usageFor(name)}`, 2);
  const operands = isArea ? rest : positionals.slice(1);
  return found.run(await openCliSession(name, found, operands, values, output));
}

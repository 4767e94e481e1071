import { rename, writeFile } from 'node:fs/promises';
import { describeProblem } from '#core/result.ts';
import { idOperand } from '../options.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';
import { USAGE } from '../usage.ts';

/** `anima artifacts ...`: what tools gave the user (a goal's notes, images, files), listed and saved. */
export const ARTIFACT_COMMANDS: Record<string, SessionCommand> = {
  'artifacts list': { run: listArtifacts },
  'artifacts save': { run: saveArtifact },
};

async function listArtifacts({ operands, values, service, sessionId, output }: SessionContext): Promise<number> {
  const [positional] = operands;
  const goalId = positional === undefined ? undefined : idOperand(positional, 'GOAL_ID');
  if (Number.isNaN(goalId))
    throw new CliError(`artifacts list: GOAL_ID must be a goal's number (\`anima goals\` lists them)`, 2);
  const { artifacts } = await service.artifactList({ sessionId, ...(goalId === undefined ? {} : { goalId }) });
  if (values.json) output.out(`${JSON.stringify(artifacts)}\n`);
  else if (artifacts.length === 0)
    output.error(`anima: no artifacts${goalId === undefined ? '' : ` for goal ${goalId}`}\n`);
  else
    for (const artifact of artifacts)
      output.out(
        `#${artifact.id}\t${artifact.name}\t${artifact.kind}\t${artifact.mediaType}\t${artifact.size} bytes\tgoal ${artifact.goalId}, cycle ${artifact.cycle}, ${artifact.tool}${artifact.server ? ` of ${artifact.server}` : ''}\n`,
      );
  return 0;
}

async function saveArtifact({ operands, service, sessionId, output }: SessionContext): Promise<number> {
  const [idText, file] = operands;
  const id = idOperand(idText, 'ID');
  if (Number.isNaN(id) || file === undefined)
    throw new CliError(`artifacts save: give the artifact's ID and a FILE to write\n\n${USAGE}`, 2);
  const read = await service.artifactRead({ sessionId, id });
  if (!read.ok) throw new CliError(`artifacts save: ${read.problems.map(describeProblem).join('; ')}`);
  // Whole or not at all: a temporary file renamed over FILE once written.
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, read.bytes);
    await rename(temporary, file);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  output.out(`${file}: wrote ${read.artifact.name} (${read.bytes.byteLength} bytes, ${read.artifact.mediaType})\n`);
  return 0;
}

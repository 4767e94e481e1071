import { describeProblem } from '#core/result.ts';
import { numberOption } from '../options.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';
import { usageFor } from '../usage.ts';

/** `anima consolidate` and `recall`: working memory into episodes, and episodes back by likeness. */
export const MEMORY_COMMANDS: Record<string, SessionCommand> = {
  consolidate: { run: consolidate },
  recall: { run: recall },
};

async function consolidate({ service, sessionId, output, save }: SessionContext): Promise<number> {
  const consolidated = await service.memoryConsolidate({ sessionId });
  if (!consolidated.ok) throw new CliError(consolidated.problems.map(describeProblem).join('\n'));
  await save();
  output.out(
    `${consolidated.episodesAdded} episodes added; ${consolidated.entriesLeft} entries left in working memory\n`,
  );
  return 0;
}

async function recall({ values, service, sessionId, output }: SessionContext): Promise<number> {
  if (!values.query) throw new CliError(`recall: --query TEXT is required\n\n${usageFor('recall')}`, 2);
  const k = numberOption(values.limit, '--limit', { min: 1, max: 50, fallback: 5, isInteger: true });
  const { episodes } = await service.memoryRecall({ sessionId, text: values.query, k });
  if (values.json)
    output.out(
      `${JSON.stringify(episodes.map((episode) => ({ ...episode, learnings: episode.learnings.map((symbol) => symbol.label) })))}\n`,
    );
  else if (episodes.length === 0) output.error('anima: no episode matches\n');
  else
    for (const episode of episodes)
      output.out(`${episode.score.toFixed(2)}\tcycle ${episode.cycle}\t${episode.summary}\n`);
  return 0;
}

import { describeProblem } from '#core/result.ts';
import { numberOption } from '../options.ts';
import { reflectionText } from '../output.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';

/** `anima reflect` and `reflections`: the agent looking back on its cycles. */
export const REFLECTION_COMMANDS: Record<string, SessionCommand> = {
  reflect: { run: reflect },
  reflections: { run: reflections },
};

async function reflect({ values, service, sessionId, output, save }: SessionContext): Promise<number> {
  const reflected = await service.reflect({ sessionId });
  if (!reflected.ok) throw new CliError(reflected.problems.map(describeProblem).join('\n'));
  await save();
  output.out(values.json ? `${JSON.stringify(reflected.reflection)}\n` : reflectionText(reflected.reflection));
  return 0;
}

async function reflections({ values, service, sessionId, output }: SessionContext): Promise<number> {
  const limit = numberOption(values.limit, '--limit', { min: 1, max: 1000, fallback: 50, isInteger: true });
  const { reflections } = await service.reflectionList({ sessionId, limit });
  if (values.json) output.out(`${JSON.stringify(reflections)}\n`);
  else if (reflections.length === 0)
    output.error('anima: no reflections yet (the agent reflects every few cycles; `anima reflect` reflects now)\n');
  else output.out(reflections.map(reflectionText).join(''));
  return 0;
}

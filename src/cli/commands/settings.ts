import { describeProblem } from '#core/result.ts';
import { numberOption, onOff } from '../options.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';

/** `anima settings`: the agent's settings, shown, and changed by the options given. */
export const SETTINGS_COMMANDS: Record<string, SessionCommand> = {
  settings: { run: settings },
};

async function settings({ values, service, sessionId, output, save }: SessionContext): Promise<number> {
  const current = await service.agentSettingsGet({ sessionId });
  const wanted = {
    planning: values.planning === undefined ? current.planning : onOff(values.planning, '--planning'),
    reflectionInterval: numberOption(values['reflection-interval'], '--reflection-interval', { min: 1, max: 1000, fallback: current.reflectionInterval, isInteger: true }),
    maxFailedPlans: numberOption(values['max-failed-plans'], '--max-failed-plans', { min: 1, max: 20, fallback: current.maxFailedPlans, isInteger: true }),
  };
  const changed = JSON.stringify(wanted) !== JSON.stringify(current);
  if (changed) {
    const set = await service.agentSettingsSet({ sessionId, settings: wanted });
    if (!set.ok) throw new CliError(set.problems.map(describeProblem).join('\n'));
    await save();
  }
  output.out(values.json ? `${JSON.stringify(wanted)}\n` : `planning ${wanted.planning ? 'on' : 'off'}\nreflection every ${wanted.reflectionInterval} cycles\na goal is abandoned after ${wanted.maxFailedPlans} failed plans\n`);
  return 0;
}

import { MAX_MEMORY_CAPACITY, MIN_MEMORY_CAPACITY } from '#core/agent/working-memory.ts';
import { describeProblem } from '#core/result.ts';
import type { WebAccess } from '#core/tools/web-access.ts';
import { saveDeviceSettings } from '../device-file.ts';
import { numberOption, onOff } from '../options.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';

/** `anima settings`: the agent's settings (kept in the snapshot) and the device's web access (kept in the device file), shown, and changed by the options given. */
export const SETTINGS_COMMANDS: Record<string, SessionCommand> = {
  settings: { run: settings },
};

async function settings(context: SessionContext): Promise<number> {
  const { values, service, sessionId, output, save } = context;
  if (values.offline && values['allow-web']) throw new CliError('settings: --offline and --allow-web contradict each other; give one', 2);
  const current = await service.agentSettingsGet({ sessionId });
  const wanted = {
    planning: values.planning === undefined ? current.planning : onOff(values.planning, '--planning'),
    reflectionInterval: numberOption(values['reflection-interval'], '--reflection-interval', { min: 1, max: 1000, fallback: current.reflectionInterval, isInteger: true }),
    maxFailedPlans: numberOption(values['max-failed-plans'], '--max-failed-plans', { min: 1, max: 20, fallback: current.maxFailedPlans, isInteger: true }),
    memoryCapacity: numberOption(values['memory-capacity'], '--memory-capacity', { min: MIN_MEMORY_CAPACITY, max: MAX_MEMORY_CAPACITY, fallback: current.memoryCapacity, isInteger: true }),
    consolidationThreshold: numberOption(values['consolidation-threshold'], '--consolidation-threshold', { min: 0.5, max: 0.95, fallback: current.consolidationThreshold }),
  };
  const webAccess = await wantedWebAccess(context);
  const changed = JSON.stringify(wanted) !== JSON.stringify(current);
  if (changed) {
    const set = await service.agentSettingsSet({ sessionId, settings: wanted });
    if (!set.ok) throw new CliError(set.problems.map(describeProblem).join('\n'));
    await save();
  }
  const web = webAccess.allowedPrefixes;
  output.out(
    values.json
      ? `${JSON.stringify({ ...wanted, allowedWebPrefixes: web })}\n`
      : `planning ${wanted.planning ? 'on' : 'off'}\nreflection every ${wanted.reflectionInterval} cycles\na goal is abandoned after ${wanted.maxFailedPlans} failed plans\n` +
          `working memory holds ${wanted.memoryCapacity} entries, consolidated into episodes above ${Math.round(wanted.consolidationThreshold * 100)}% full\n` +
          `web: ${web.length === 0 ? 'offline (http_fetch reads no address; --allow-web PREFIX allows one)' : `http_fetch may read under ${web.join(', ')}`}\n`,
  );
  return 0;
}

/**
 * The device's web access after --allow-web PREFIX (added to those allowed) or --offline (none
 * allowed); checked by the service as the app's Settings screen checks it, then kept in the device file.
 */
async function wantedWebAccess({ values, service }: SessionContext): Promise<WebAccess> {
  const current = await service.webAccessGet({});
  if (!values.offline && !values['allow-web']) return current;
  const allowedPrefixes = values.offline ? [] : [...current.allowedPrefixes, ...(values['allow-web'] ?? [])];
  const set = await service.webAccessSet({ webAccess: { ...current, allowedPrefixes } });
  if (!set.ok) throw new CliError(['settings: the web access was not changed:', ...set.problems.map((problem) => `  --allow-web: ${problem.message}`)].join('\n'));
  await saveDeviceSettings(set.webAccess);
  return set.webAccess;
}

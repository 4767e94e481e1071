import { MAX_MEMORY_CAPACITY, MIN_MEMORY_CAPACITY } from '#core/records/memory-entry.ts';
import { unhonouredModelSettings } from '#core/llm/model-settings.ts';
import type { ModelSettings } from '#core/records/model-settings.ts';
import type { EmbedderChoice } from '#core/records/embedder-choice.ts';
import { parseDecimal } from '#core/decimal-text.ts';
import { quoteInput } from '#core/quote-input.ts';
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
  if (values.offline && values['allow-web'])
    throw new CliError('settings: --offline and --allow-web contradict each other; give one', 2);
  const current = await service.agentSettingsGet({ sessionId });
  const wanted = {
    planning: values.planning === undefined ? current.planning : onOff(values.planning, '--planning'),
    reflectionInterval: numberOption(values['reflection-interval'], '--reflection-interval', {
      min: 1,
      max: 1000,
      fallback: current.reflectionInterval,
      isInteger: true,
    }),
    maxFailedPlans: numberOption(values['max-failed-plans'], '--max-failed-plans', {
      min: 1,
      max: 20,
      fallback: current.maxFailedPlans,
      isInteger: true,
    }),
    memoryCapacity: numberOption(values['memory-capacity'], '--memory-capacity', {
      min: MIN_MEMORY_CAPACITY,
      max: MAX_MEMORY_CAPACITY,
      fallback: current.memoryCapacity,
      isInteger: true,
    }),
    consolidationThreshold: numberOption(values['consolidation-threshold'], '--consolidation-threshold', {
      min: 0.5,
      max: 0.95,
      fallback: current.consolidationThreshold,
    }),
  };
  const model = await wantedModelSettings(context);
  const embedder = await wantedEmbedder(context);
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
      ? `${JSON.stringify({ ...wanted, model, embedder: embedder ?? null, allowedWebPrefixes: web })}\n`
      : `planning ${wanted.planning ? 'on' : 'off'}\nreflection every ${wanted.reflectionInterval} cycles\na goal is abandoned after ${wanted.maxFailedPlans} failed plans\n` +
          `working memory holds ${wanted.memoryCapacity} entries, consolidated into episodes above ${Math.round(wanted.consolidationThreshold * 100)}% full\n` +
          `${modelLine(model)}\n` +
          `recall and similarity: ${embedder ? `by embeddings of ${embedder.provider}:${embedder.model}` : 'by hypervectors (no embedder; --embedder P:MODEL binds one)'}\n` +
          `web: ${web.length === 0 ? 'offline (http_fetch reads no address; --allow-web PREFIX allows one)' : `http_fetch may read under ${web.join(', ')}`}\n`,
  );
  return 0;
}

/** The model settings' options, by the field each sets. */
const MODEL_OPTIONS = {
  temperature: '--temperature',
  topP: '--top-p',
  maxTokens: '--answer-tokens',
  seed: '--seed',
} as const satisfies Record<keyof ModelSettings, string>;

/**
 * The session's model settings after --temperature, --top-p, --answer-tokens and --seed (each a
 * number, or `default` for the engine's own), checked by the service as the app's Settings screen
 * checks them, then kept in the snapshot.
 */
async function wantedModelSettings({ values, service, sessionId, save }: SessionContext): Promise<ModelSettings> {
  const { settings: current } = await service.modelSettingsGet({ sessionId });
  const given = (Object.keys(MODEL_OPTIONS) as (keyof ModelSettings)[]).filter(
    (field) => values[MODEL_OPTIONS[field].slice(2) as keyof typeof values] !== undefined,
  );
  if (given.length === 0) return current;
  const wanted: Record<string, number> = { ...current };
  for (const field of given) {
    const text = String(values[MODEL_OPTIONS[field].slice(2) as keyof typeof values]);
    if (text === 'default') {
      delete wanted[field];
      continue;
    }
    const value = parseDecimal(text);
    if (value === undefined)
      throw new CliError(
        `settings: ${MODEL_OPTIONS[field]} must be a number, or default for the engine's own, not ${quoteInput(text, 40)}`,
        2,
      );
    wanted[field] = value;
  }
  const set = await service.modelSettingsSet({ sessionId, settings: wanted });
  if (!set.ok)
    throw new CliError(
      [
        'settings: the model settings were not changed:',
        ...set.problems.map(
          (problem) =>
            `  ${problem.path && problem.path in MODEL_OPTIONS ? MODEL_OPTIONS[problem.path as keyof ModelSettings] : ''}: ${problem.message}`,
        ),
      ].join('\n'),
      2,
    );
  await save();
  return set.settings;
}

/**
 * The session's embedder after --embedder PROVIDER:MODEL (or none), checked by the service as the
 * app's Settings screen checks it, then kept in the snapshot.
 */
async function wantedEmbedder({
  values,
  service,
  sessionId,
  save,
}: SessionContext): Promise<EmbedderChoice | undefined> {
  const given = values.embedder;
  if (given === undefined) return (await service.embedderGet({ sessionId })).embedder;
  const colon = given.indexOf(':');
  if (given !== 'none' && colon < 0)
    throw new CliError(
      `settings: --embedder is PROVIDER:MODEL (openai-compatible:MODEL or gguf:MODEL) or none, not ${quoteInput(given, 60)}`,
      2,
    );
  const set = await service.embedderSet({
    sessionId,
    embedder: given === 'none' ? null : { provider: given.slice(0, colon), model: given.slice(colon + 1) },
  });
  if (!set.ok)
    throw new CliError(
      [
        'settings: the embedder was not changed:',
        ...set.problems.map((problem) => `  --embedder: ${problem.message}`),
      ].join('\n'),
      2,
    );
  await save();
  return set.embedder;
}

/** The model settings in words, with what an endpoint (the one provider the CLI reaches) may ignore. */
function modelLine(settings: ModelSettings): string {
  const set = (Object.keys(MODEL_OPTIONS) as (keyof ModelSettings)[])
    .filter((field) => settings[field] !== undefined)
    .map((field) => `${MODEL_OPTIONS[field].slice(2)} ${settings[field]}`);
  const notes = unhonouredModelSettings('openai-compatible', settings);
  return `model: ${set.length === 0 ? "each engine's defaults" : set.join(', ')}${notes.map((note) => `\n  ${note}`).join('')}`;
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
  if (!set.ok)
    throw new CliError(
      [
        'settings: the web access was not changed:',
        ...set.problems.map((problem) => `  --allow-web: ${problem.message}`),
      ].join('\n'),
    );
  await saveDeviceSettings(set.webAccess);
  return set.webAccess;
}

import { checkProvider } from '#core/llm/endpoint-check.ts';
import { DEFAULT_CONFIDENCE_CAP, type InferenceSettings } from '#core/llm/inference-settings.ts';
import { type OpenAiEndpoint, openAiCompatibleProvider, openAiEndpointSchema } from '#core/llm/openai-compatible.ts';
import { quoteInput } from '#core/quote-input.ts';
import { type CliValues, numberOption } from '../options.ts';
import type { CliOutput } from '../output.ts';
import { CliError } from '../snapshot-file.ts';
import { usageFor } from '../usage.ts';

/** The endpoint --base-url, --model, --api-key and --vision (the model sees images) describe. */
function endpointOption(values: CliValues, command: string): OpenAiEndpoint {
  if (values['base-url'] === undefined || values.model === undefined)
    throw new CliError(`${command}: --base-url URL and --model M are required\n\n${usageFor(command)}`, 2);
  const endpoint = openAiEndpointSchema.safeParse({
    baseUrl: values['base-url'],
    model: values.model,
    ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
    ...(values.vision ? { vision: true } : {}),
  });
  if (!endpoint.success)
    throw new CliError(`${command}: ${endpoint.error.issues.map((issue) => issue.message).join('; ')}`, 2);
  return endpoint.data;
}

/** The model a run (or `command`) binds from --provider (openai or none), with its limits (--max-requests, --max-tokens); none without --provider. */
export function runInference(values: CliValues, command = 'run'): InferenceSettings | undefined {
  if (values.provider === undefined) return undefined;
  const limits = {
    ...(values['max-requests'] !== undefined
      ? {
          requests: numberOption(values['max-requests'], '--max-requests', {
            min: 1,
            max: 1_000_000,
            fallback: 1,
            isInteger: true,
          }),
        }
      : {}),
    ...(values['max-tokens'] !== undefined
      ? {
          inputTokens: numberOption(values['max-tokens'], '--max-tokens', {
            min: 1,
            max: 1_000_000_000,
            fallback: 1,
            isInteger: true,
          }),
        }
      : {}),
  };
  if (values.provider === 'none') return { provider: 'none', limits, confidenceCap: DEFAULT_CONFIDENCE_CAP };
  if (values.provider !== 'openai')
    throw new CliError(`--provider is openai or none (WebLLM and GGUF run in the browser)\n\n${usageFor(command)}`, 2);
  return {
    provider: 'openai-compatible',
    openAi: endpointOption(values, command),
    limits,
    confidenceCap: DEFAULT_CONFIDENCE_CAP,
  };
}

/** `anima llm check`: needs no session, only the endpoint. */
export async function runLlmCommand(
  command: string | undefined,
  values: CliValues,
  output: CliOutput,
): Promise<number> {
  if (command !== 'check')
    throw new CliError(`unknown command ${quoteInput(`llm ${command ?? ''}`)}\n\n${usageFor('llm')}`, 2);
  if (values.provider !== 'openai')
    throw new CliError(
      `llm check: --provider openai is the one the CLI can reach (WebLLM and GGUF run in the browser)\n\n${usageFor('llm check')}`,
      2,
    );
  const outcome = await checkProvider(openAiCompatibleProvider(endpointOption(values, 'llm check')));
  const tokens = `${outcome.usage.promptTokens} prompt + ${outcome.usage.completionTokens} completion tokens`;
  if (values.json) output.out(`${JSON.stringify(outcome)}\n`);
  else if (outcome.ok)
    output.out(
      `ok: ${JSON.stringify(outcome.value)} after ${outcome.attempts.length} attempt${outcome.attempts.length === 1 ? '' : 's'}; ${tokens}\n`,
    );
  else
    output.out(
      `bottleneck ${outcome.bottleneck.kind}: ${outcome.bottleneck.detail}\n${outcome.attempts.length} attempts; ${tokens}\n`,
    );
  return outcome.ok ? 0 : 1;
}

import { z } from 'zod';
import {
  displayUrl,
  redactingStream,
  redactSecrets,
  type Secret,
  secretsOfHeaders,
  secretsOfUrl,
} from '#core/secrets.ts';
import type { ModelSettings } from '#core/records/model-settings.ts';
import {
  cancelled,
  type Completion,
  imagesRefused,
  wireContent,
  type CompletionRequest,
  type LlmProvider,
  ProviderError,
  withSchemaInWords,
} from './provider.ts';

/** Where an OpenAI-compatible server is (llama.cpp's server, vLLM, Ollama, a hosted API). The key stays on this device. */
export const openAiEndpointSchema = z.object({
  baseUrl: z.url({
    protocol: /^https?$/,
    error: 'the base URL must be an http(s) address, like http://localhost:8080/v1',
  }),
  model: z.string().trim().min(1, 'name the model'),
  apiKey: z.string().optional(),
  /** The user marks the model as seeing images (a vision model): image artifacts may then be shown to it as `image_url` content. */
  vision: z.boolean().optional(),
});
export type OpenAiEndpoint = z.infer<typeof openAiEndpointSchema>;

const usageSchema = z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).partial();
const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: usageSchema.nullable().optional(),
});
const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: z.object({ content: z.string().nullable().optional() }).optional(),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .optional(),
  usage: usageSchema.nullable().optional(),
});

/** How the schema is sent: strictly, as guidance (the server refused strict mode), or only as "answer in JSON" (it refused schemas). */
type SchemaMode = 'strict' | 'guided' | 'json';
const WEAKER_MODE: Record<SchemaMode, SchemaMode | undefined> = { strict: 'guided', guided: 'json', json: undefined };

/** A server's refusal of the response format (OpenAI's strict mode takes only some schemas; some servers take no json_schema). */
const FORMAT_REFUSED = /response_format|json_schema|json schema|strict/i;

function responseFormat(jsonSchema: NonNullable<CompletionRequest['jsonSchema']>, mode: SchemaMode) {
  if (mode === 'json') return { type: 'json_object' };
  return {
    type: 'json_schema',
    json_schema: { name: jsonSchema.name, schema: jsonSchema.schema, strict: mode === 'strict' },
  };
}

/** The headers that carry an endpoint's key. */
export const credentialHeaders = (endpoint: Pick<OpenAiEndpoint, 'apiKey'>): Record<string, string> =>
  endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {};

/** What an endpoint holds that must not leave the device: its key (and the header that carries it), and credentials in its base URL. */
export function endpointSecrets(endpoint: Pick<OpenAiEndpoint, 'baseUrl' | 'apiKey'>): Secret[] {
  return [
    ...(endpoint.apiKey ? [{ value: endpoint.apiKey, what: 'the API key' }] : []),
    ...secretsOfHeaders(credentialHeaders(endpoint), 'the endpoint'),
    ...secretsOfUrl(endpoint.baseUrl, 'the base URL'),
  ];
}

/** Where a route of the API is: the base URL's path and the route (`/chat/completions`), its query (`?api-version=`, `?key=`) kept. */
export function routeUrl(baseUrl: string, route: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${route}`;
  return url.href;
}

/**
 * A provider that speaks the OpenAI chat-completions protocol. It sends the schema the standard
 * way, `response_format: {type: "json_schema", json_schema: {name, schema, strict: true}}`; a
 * server that refuses that format (HTTP 400 naming it: OpenAI's strict mode refuses schemas with
 * unions or open records) is asked again with the schema as guidance (`strict: false`), then with
 * `json_object`, and the provider remembers what it takes. The contract validates what comes back
 * all the same. Nothing it returns or throws holds the key or the base URL's credentials, even
 * when the server echoes them: every text is redacted here, where they are known.
 */
export function openAiCompatibleProvider(endpoint: OpenAiEndpoint, fetchImpl: typeof fetch = fetch): LlmProvider {
  const url = routeUrl(endpoint.baseUrl, '/chat/completions');
  const secrets = endpointSecrets(endpoint);
  const shownUrl = displayUrl(url);
  const redact = (text: string) => redactSecrets(text, secrets);
  let mode: SchemaMode = 'strict';
  return {
    name: 'openai-compatible',
    model: endpoint.model,
    seesImages: endpoint.vision === true,
    async complete(request: CompletionRequest): Promise<Completion> {
      const refusal = imagesRefused(request.messages, endpoint.model, endpoint.vision === true);
      if (refusal) throw new ProviderError('refused', refusal);
      for (;;) {
        const sent = mode;
        try {
          const completion = await send(request, sent);
          return { ...completion, text: redact(completion.text) };
        } catch (error) {
          const weaker = WEAKER_MODE[sent];
          if (error instanceof FormatRefused && weaker) {
            // From the format this request was sent with: another request may have stepped down meanwhile.
            if (mode === sent) mode = weaker;
            continue;
          }
          throw error instanceof ProviderError ? new ProviderError(error.kind, redact(error.message)) : error;
        }
      }
    },
  };

  async function send(request: CompletionRequest, mode: SchemaMode): Promise<Completion> {
    const { signal, onText } = request;
    const body = {
      model: endpoint.model,
      messages: (mode === 'json' && request.jsonSchema
        ? withSchemaInWords(request.messages, request.jsonSchema.schema)
        : request.messages
      ).map((message) => ({ role: message.role, content: wireContent(message) })),
      ...(request.jsonSchema ? { response_format: responseFormat(request.jsonSchema, mode) } : {}),
      ...samplingFields(request.settings),
      ...(onText ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...credentialHeaders(endpoint) },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw cancelled(signal);
      throw new ProviderError(
        'unavailable',
        `cannot reach ${shownUrl}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
      );
    }
    if (!response.ok) {
      const detail = await errorDetail(response, redact);
      if (response.status === 400 && request.jsonSchema && FORMAT_REFUSED.test(detail))
        throw new FormatRefused(`${shownUrl} answered HTTP 400${detail}`);
      throw new ProviderError(
        response.status === 401 || response.status === 403 ? 'refused' : 'unavailable',
        `${shownUrl} answered HTTP ${response.status}${detail}`,
      );
    }
    try {
      if (!onText) return readCompletion(await response.json());
      const stream = redactingStream(secrets, onText);
      const completion = await readStream(response, stream.push);
      stream.end();
      return completion;
    } catch (error) {
      if (signal?.aborted) throw cancelled(signal);
      if (error instanceof ProviderError) throw error;
      throw new ProviderError(
        'unavailable',
        `${shownUrl} sent an answer that is not a chat completion: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

/** The settings in the protocol's names; one left out is the server's default. */
function samplingFields(settings: ModelSettings = {}) {
  return {
    ...(settings.maxTokens !== undefined ? { max_tokens: settings.maxTokens } : {}),
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.topP !== undefined ? { top_p: settings.topP } : {}),
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
  };
}

/** The server refused the response format: asked again with a weaker one, or, with none left, a refusal like any other. */
class FormatRefused extends ProviderError {
  constructor(message: string) {
    super('unavailable', message);
  }
}

function readCompletion(json: unknown): Completion {
  const parsed = completionSchema.safeParse(json);
  if (!parsed.success)
    throw new ProviderError(
      'unavailable',
      `the answer is not a chat completion (${parsed.error.issues[0]?.message ?? 'unknown shape'})`,
    );
  const [choice] = parsed.data.choices;
  return {
    text: choice!.message.content ?? '',
    finishReason: choice!.finish_reason ?? 'stop',
    usage: {
      promptTokens: parsed.data.usage?.prompt_tokens ?? 0,
      completionTokens: parsed.data.usage?.completion_tokens ?? 0,
    },
  };
}

/** Reads server-sent events (`data: {...}` lines, then `data: [DONE]`). */
async function readStream(response: Response, onText: (text: string) => void): Promise<Completion> {
  if (!response.body) throw new ProviderError('unavailable', 'the stream has no body');
  const decoder = new TextDecoder();
  let buffered = '';
  let text = '';
  let finishReason = 'stop';
  let usage = { promptTokens: 0, completionTokens: 0 };
  const take = (line: string) => {
    if (!line.startsWith('data:')) return;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') return;
    const chunk = chunkSchema.parse(JSON.parse(data));
    const choice = chunk.choices?.[0];
    const piece = choice?.delta?.content ?? '';
    if (piece !== '') {
      text += piece;
      onText(piece);
    }
    finishReason = choice?.finish_reason ?? finishReason;
    if (chunk.usage)
      usage = { promptTokens: chunk.usage.prompt_tokens ?? 0, completionTokens: chunk.usage.completion_tokens ?? 0 };
  };
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(bytes, { stream: true });
    const lines = buffered.split(/\r?\n/);
    buffered = lines.pop() ?? '';
    for (const line of lines) take(line);
  }
  take(buffered + decoder.decode());
  return { text, finishReason, usage };
}

/** The error message a server put in its body, if any (OpenAI's `{error: {message}}`), redacted before it is shortened (so no part of a key is left). */
export async function errorDetail(response: Response, redact: (text: string) => string): Promise<string> {
  const text = await response.text().catch(() => '');
  let message = text;
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const candidate = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof candidate === 'string') message = candidate;
  } catch {
    // Not JSON: the text itself.
  }
  message = redact(message).trim().replace(/\s+/g, ' ');
  return message === '' ? '' : `: ${message.slice(0, 300)}`;
}

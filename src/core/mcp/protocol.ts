import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { redactSecrets, type Secret, secretsOfUrl } from '#core/secrets.ts';
import {
  MAX_SERVER_TOOLS,
  type ReachableToolServer,
  type ServerTool,
  serverToolSchema,
  toolServerHeaders,
  toolServerKeySecrets,
} from '#core/records/tool-server.ts';
import type { ToolInput } from './input-schema.ts';

/**
 * Talking to an MCP server over Streamable HTTP with the official SDK. Loaded on first use (the
 * SDK is large): nothing here reaches a first visit. Each ask opens its own connection and
 * closes it, so a server that went away fails that ask alone, with the reason in words.
 */

/** How long one ask (connecting included) may take. */
export const SERVER_TIMEOUT_MS = 30_000;

/** What a failed ask says, in words, with every secret of the server redacted. */
export type ServerFailure = { ok: false; reason: string };

/** One piece of what a tool returned that is not text: an image or audio (base64), or a resource it names. */
export type ToolMedia = { kind: 'image' | 'audio'; mimeType: string; data: string } | { kind: 'resource'; uri: string };

/** What a tool's call returned: its text (the model's value), its media, and whether the tool said it failed. */
export type ToolCallAnswer = { ok: true; isError: boolean; text: string; media: ToolMedia[]; ms: number };

/**
 * Checks a server's results against its JSON Schemas with @cfworker/json-schema, not the SDK's
 * default (Ajv): Ajv compiles schemas into functions, which the app's Content-Security-Policy forbids.
 */
const validator = new CfWorkerJsonSchemaValidator();

const secretsOf = (server: ReachableToolServer): Secret[] => [
  ...toolServerKeySecrets(server.name, server.key),
  ...secretsOfUrl(server.url, `the tool server ${server.name}`),
];

/** Why an ask failed, as a sentence about the server. */
function failureOf(server: ReachableToolServer, error: unknown, signal: AbortSignal): ServerFailure {
  const where = `the tool server ${server.name}`;
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = (cause as { code?: string } | undefined)?.code;
  let reason: string;
  if (signal.aborted)
    reason =
      signal.reason instanceof Error && signal.reason.name === 'TimeoutError'
        ? `${where} did not answer within ${SERVER_TIMEOUT_MS / 1000} s`
        : `the ask of ${where} was cancelled`;
  else if (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    /fetch failed|Failed to fetch|NetworkError/i.test(message)
  )
    reason = `${where} cannot be reached at ${server.url} (${code ?? 'no connection'}): is it running?`;
  else if (/HTTP 401|HTTP 403|Unauthorized|Forbidden/i.test(message))
    reason = `${where} refused the request: its key is missing or wrong (${message})`;
  else reason = `${where} failed: ${message}`;
  return { ok: false, reason: redactSecrets(reason, secretsOf(server)) };
}

/** Runs `ask` on a fresh connection to the server, within the timeout (and the caller's signal). */
async function withClient<T>(
  server: ReachableToolServer,
  ask: (client: Client, signal: AbortSignal) => Promise<T>,
  given?: AbortSignal,
): Promise<T | ServerFailure> {
  const deadline = AbortSignal.timeout(SERVER_TIMEOUT_MS);
  const signal = given ? AbortSignal.any([given, deadline]) : deadline;
  const client = new Client({ name: 'anima', version: '1' }, { jsonSchemaValidator: validator });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: toolServerHeaders(server), signal },
  });
  try {
    await client.connect(transport, { signal, timeout: SERVER_TIMEOUT_MS });
    return await ask(client, signal);
  } catch (error) {
    return failureOf(server, error, signal);
  } finally {
    // A server that is gone cannot be told goodbye: closing is best effort.
    await client.close().catch(() => undefined);
  }
}

/** The tools a server lends (every page of its list, up to {@link MAX_SERVER_TOOLS}), each checked. */
export async function listServerTools(
  server: ReachableToolServer,
  signal?: AbortSignal,
): Promise<{ ok: true; tools: ServerTool[] } | ServerFailure> {
  return withClient(
    server,
    async (client, both) => {
      const tools: ServerTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
          signal: both,
          timeout: SERVER_TIMEOUT_MS,
        });
        for (const tool of page.tools) {
          const parsed = serverToolSchema.safeParse({
            name: tool.name,
            ...(tool.title !== undefined ? { title: tool.title } : {}),
            ...(tool.description !== undefined ? { description: tool.description.slice(0, 4000) } : {}),
            inputSchema: tool.inputSchema,
            ...(tool.annotations ? { annotations: tool.annotations } : {}),
          });
          // A tool whose listing breaks the protocol's limits is left out, not the whole server.
          if (parsed.success && tools.length < MAX_SERVER_TOOLS) tools.push(parsed.data);
        }
        cursor = page.nextCursor;
      } while (cursor !== undefined && tools.length < MAX_SERVER_TOOLS);
      return { ok: true as const, tools };
    },
    signal,
  );
}

/** Calls one tool of the server with an input it was already checked to take. */
export async function callServerTool(
  server: ReachableToolServer,
  tool: string,
  input: ToolInput,
  signal?: AbortSignal,
): Promise<ToolCallAnswer | ServerFailure> {
  const started = performance.now();
  return withClient(
    server,
    async (client, both) => {
      const result = await client.callTool({ name: tool, arguments: input }, undefined, {
        signal: both,
        timeout: SERVER_TIMEOUT_MS,
      });
      const texts: string[] = [];
      const media: ToolMedia[] = [];
      for (const piece of (result.content ?? []) as Record<string, unknown>[]) {
        if (piece.type === 'text' && typeof piece.text === 'string') texts.push(piece.text);
        else if ((piece.type === 'image' || piece.type === 'audio') && typeof piece.data === 'string')
          media.push({ kind: piece.type, mimeType: String(piece.mimeType ?? ''), data: piece.data });
        else if (piece.type === 'resource_link' && typeof piece.uri === 'string')
          media.push({ kind: 'resource', uri: piece.uri });
        else if (piece.type === 'resource') {
          const resource = piece.resource as { uri?: unknown; text?: unknown } | undefined;
          if (typeof resource?.text === 'string') texts.push(resource.text);
          else if (typeof resource?.uri === 'string') media.push({ kind: 'resource', uri: resource.uri });
        }
      }
      if (texts.length === 0 && result.structuredContent !== undefined)
        texts.push(JSON.stringify(result.structuredContent));
      // What the server says may echo the key it was sent: it is redacted before anyone reads it.
      const text = redactSecrets(texts.join('\n'), secretsOf(server));
      return {
        ok: true as const,
        isError: result.isError === true,
        text,
        media,
        ms: Math.round(performance.now() - started),
      };
    },
    signal,
  );
}

import { z } from 'zod';
import { nameSchema } from '#core/names.ts';
import { type Secret, secretsOfHeaders } from '#core/secrets.ts';

/** The most tool servers a session keeps, and the most tools one server may lend. */
export const MAX_TOOL_SERVERS = 20;
export const MAX_SERVER_TOOLS = 200;

/**
 * What a server says of a tool's behaviour (MCP tool annotations): hints, not guarantees. Unset,
 * the protocol's defaults hold: not read-only, destructive, not idempotent, open-world.
 */
export const toolAnnotationsSchema = z.object({
  title: z.string().max(200).optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof toolAnnotationsSchema>;

/** A tool as its server listed it: its name, what it does, the JSON Schema of its input, its annotations. */
export const serverToolSchema = z.object({
  name: z.string().min(1).max(128),
  title: z.string().max(200).optional(),
  description: z.string().max(4000).optional(),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: toolAnnotationsSchema.optional(),
});
export type ServerTool = z.infer<typeof serverToolSchema>;

/**
 * An MCP server the user added to a session (Streamable HTTP): the tools it listed when last
 * asked, and the ones the user granted the agent. Kept with the session, and so in its snapshots,
 * but for the value of its key header: that stays on the device (see {@link toolServerKeySetting}).
 */
export const toolServerSchema = z.object({
  name: nameSchema('tool server').refine(
    (name) => /^[\p{L}\p{N}_-]+$/u.test(name),
    'a tool server name is one word: letters, digits, _ or -',
  ),
  url: z
    .url({ protocol: /^https?$/, error: 'give the server as an http(s) address, e.g. http://localhost:3001/mcp' })
    .max(2000, 'a server address has at most 2,000 characters')
    .refine((url) => {
      const parsed = new URL(url);
      return parsed.username === '' && parsed.password === '';
    }, 'a server address holds no user name or password: give a key header instead (it stays on this device)'),
  /** The header a key goes in (`Authorization`, `X-Api-Key`); its value is a device secret. */
  keyHeader: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'a key header is a header name, such as Authorization')
    .optional(),
  /** The tools as the server last listed them. */
  tools: z.array(serverToolSchema).max(MAX_SERVER_TOOLS),
  /** The names of the tools the agent may call in this session. */
  granted: z.array(z.string().min(1).max(128)).max(MAX_SERVER_TOOLS),
});
export type ToolServer = z.infer<typeof toolServerSchema>;

/** A server as a request needs it: with its key (never stored or shown so). */
export type ReachableToolServer = ToolServer & { key?: string };

/** A server as the UI and the CLI see it: whether a key is stored, never the key. */
export const toolServerViewSchema = toolServerSchema.extend({ keyStored: z.boolean() });
export type ToolServerView = z.infer<typeof toolServerViewSchema>;

/** The settings key a session's server keys are kept under: `{ [server name]: key }`, a device setting no export carries. */
export const toolServerKeySetting = (sessionId: string) => `toolServerKeys:${sessionId}`;
export const TOOL_SERVER_KEY_PREFIX = 'toolServerKeys:';
export const toolServerKeysSchema = z.record(z.string(), z.string());

/** The headers a request to the server carries its key in. */
export function toolServerHeaders(server: Pick<ReachableToolServer, 'keyHeader' | 'key'>): Record<string, string> {
  return server.keyHeader && server.key ? { [server.keyHeader]: server.key } : {};
}

/** The secrets of a server's key: the key, and the token inside it (`Bearer TOKEN`); none may leave the device. */
export function toolServerKeySecrets(name: string, key: string | undefined): Secret[] {
  if (!key) return [];
  return [
    ...secretsOfHeaders({ authorization: key }, `the tool server ${name}`),
    { value: key, what: `the key of the tool server ${name}` },
  ];
}

/** Whether the server says the tool only reads: a tool that may change something waits for the user by default. */
export const isReadOnly = (tool: Pick<ServerTool, 'annotations'>): boolean => tool.annotations?.readOnlyHint === true;

/** The name a granted tool goes by in the agent's arsenal, the cycle log and approvals: a shadow pattern may name it, or its server (`mcp.NAME`). */
export const agentToolName = (server: string, tool: string): string => `mcp.${server}.${tool}`;

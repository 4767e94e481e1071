import { inputSchemaOf, type ToolInput } from '#core/mcp/input-schema.ts';
import type { DangerLevel } from '#core/records/capability.ts';
import { agentToolName, isReadOnly, type ReachableToolServer, type ServerTool } from '#core/records/tool-server.ts';
import type { ProvenanceDraft } from '#core/kg/provenance.ts';
import { rejectionOf } from '#core/records/rejection.ts';
import { type ArtifactDraft, MAX_ARTIFACT_BYTES, mediaTypeSchema } from '#core/records/artifact.ts';
import { bytesFromBase64 } from '#core/base64.ts';
import { inputDigest } from './action-digest.ts';
import { type AgentTool, defineTool, type ServerCallRecord, type ToolOutcome } from './tool.ts';

/** What the model and the cycle log read of a tool's answer, at most (the whole answer is kept as provenance). */
const MAX_SUMMARY_CHARS = 2000;

/** How much harm a server's tool may do, from its annotations (unset: the protocol's defaults, not read-only and destructive). */
export function dangerOfServerTool(tool: Pick<ServerTool, 'annotations'>): DangerLevel {
  if (isReadOnly(tool)) return 'safe';
  return tool.annotations?.destructiveHint === false ? 'cautious' : 'dangerous';
}

/** The name an approval gives the rule that holds a tool server's tool not marked read-only, and what it says. */
export const NOT_READ_ONLY = 'not-read-only';
export const WAITS_BY_DEFAULT = 'a tool that may change something waits for your approval';

/** Why a call of the tool waits for the user by default, or undefined for a tool its server marks read-only. */
export function approvalNeededFor(server: string, tool: Pick<ServerTool, 'name' | 'annotations'>): string | undefined {
  return isReadOnly(tool) ? undefined : `the tool server ${server} does not mark ${tool.name} read-only`;
}

/**
 * A granted tool of an MCP server as the agent holds it: named `mcp.SERVER.TOOL` (a shadow
 * pattern may name the tool or the whole server), its input checked against the server's JSON
 * Schema before anything is sent, offered to a bound model only, and waiting for the user when
 * its server does not mark it read-only. A call that fails (the server gone, a refusal) says why
 * and fails only this action: the run goes on.
 */
export function serverAgentTool(server: ReachableToolServer, tool: ServerTool): AgentTool {
  const name = agentToolName(server.name, tool.name);
  const about = (tool.description ?? tool.title ?? tool.name).replace(/\s+/g, ' ').slice(0, 300);
  const held = approvalNeededFor(server.name, tool);
  return defineTool<ToolInput>({
    name,
    description: `${about} (tool ${tool.name} of the tool server ${server.name})`,
    archetype: undefined,
    danger: dangerOfServerTool(tool),
    capabilities: ['network'],
    input: inputSchemaOf(tool.inputSchema),
    isForModelOnly: true,
    ...(held ? { waitsForApprovalBecause: held } : {}),
    inputGuide: JSON.stringify(tool.inputSchema).slice(0, 600),
    // An approval is bound to what the server said of the tool: a changed schema or annotation asks again.
    definitionText: JSON.stringify({ server: server.name, url: server.url, tool }),
    // Granting a read-only tool is the user's leave to call it: a veto that only asks (a network call) is answered.
    isPreApproved: () => held === undefined,
    unavailableBecause: (state) => (state.isOnline ? undefined : 'this device is offline'),
    baseScore: () => 0,
    proposeInput: () => ({}),
    async run(input, state) {
      const call = await callOnce(server, tool.name, input, state.model?.signal);
      const said = call.text.length > MAX_SUMMARY_CHARS ? `${call.text.slice(0, MAX_SUMMARY_CHARS)}…` : call.text;
      const media = call.media.filter((piece) => piece.kind !== 'resource').length;
      const outcome: ToolOutcome = {
        ok: call.ok,
        summary: `${name}: ${said}${media > 0 ? ` (and ${media} image${media === 1 ? '' : 's'} or audio, kept)` : ''}`,
        facts: [],
        symbols: [],
        evidence: call.text,
        serverCalls: [call],
        // Images go with the value to a model that sees images; the cycle keeps them for the user.
        artifacts: artifactsOfCall(call),
        artifactOrigin: { server: server.name, inputDigest: call.inputDigest },
      };
      if (call.ok) return outcome;
      return {
        ...outcome,
        rejection: call.hasAnswered
          ? rejectionOf('precondition_miss', `${name} to succeed`, call.text)
          : rejectionOf('dependency_unavailable', `the tool server ${server.name} to answer`, call.text),
      };
    },
  });
}

/** One call of a server's tool, as its provenance keeps it (a failure's reason in `text`). */
export async function callOnce(
  server: ReachableToolServer,
  tool: string,
  input: ToolInput,
  signal?: AbortSignal,
): Promise<ServerCallRecord> {
  // The SDK is loaded on first use: a session without tool servers never downloads it.
  const { callServerTool } = await import('#core/mcp/protocol.ts');
  const [answer, digest] = await Promise.all([callServerTool(server, tool, input, signal), inputDigest(input)]);
  const common = { server: server.name, url: server.url, tool, input, inputDigest: digest };
  if (!answer.ok) return { ...common, ok: false, hasAnswered: false, text: answer.reason, media: [] };
  return {
    ...common,
    ok: !answer.isError,
    hasAnswered: true,
    text: answer.isError ? `the tool said it failed: ${answer.text}` : answer.text,
    media: answer.media,
  };
}

/** The granted tools of a session's servers, as the agent holds them (a grant of a tool the server no longer lists is left out). */
export function grantedServerTools(servers: readonly ReachableToolServer[]): AgentTool[] {
  return servers.flatMap((server) =>
    server.tools.filter((tool) => server.granted.includes(tool.name)).map((tool) => serverAgentTool(server, tool)),
  );
}

/**
 * The images and audio a call returned, as artifacts for the user: an image as an image, audio as
 * a file to download. Named by the tool and the input's digest, so the same call made again
 * replaces its own; a piece over the artifact limit or not base64 is left to the provenance.
 */
export function artifactsOfCall(call: ServerCallRecord): ArtifactDraft[] {
  const digest = call.inputDigest.replace(/^sha256:/u, '').slice(0, 12);
  return call.media.flatMap((piece, index): ArtifactDraft[] => {
    if (piece.kind === 'resource') return [];
    const bytes = bytesFromBase64(piece.data);
    if (!bytes || bytes.byteLength > MAX_ARTIFACT_BYTES) return [];
    const mediaType = mediaTypeSchema.safeParse(piece.mimeType.toLowerCase());
    const isImage = piece.kind === 'image' && mediaType.success && mediaType.data.startsWith('image/');
    const type = mediaType.success ? mediaType.data : 'application/octet-stream';
    const extension = /^[a-z0-9]{1,8}/u.exec(type.split('/')[1] ?? '')?.[0] ?? 'bin';
    return [
      {
        name: `${call.tool}-${digest}-${index + 1}.${extension}`,
        kind: isImage ? 'image' : 'binary',
        mediaType: type,
        bytes,
      },
    ];
  });
}

/** Media larger than this (base64 characters) is named by its size and digest, not kept whole. */
const MAX_KEPT_MEDIA_CHARS = 512 * 1024;

/**
 * A tool server call as provenance: the server, the tool and the input's digest as its sources,
 * what came back as its detail (an image or audio kept as a data: address while small).
 */
export function serverCallProvenance(
  call: ServerCallRecord,
  context: { sessionId: string; cycle: number; createdAt: number; goalId?: number; note?: string },
): ProvenanceDraft {
  const media = call.media.map((piece) =>
    piece.kind === 'resource'
      ? `resource ${piece.uri}`
      : `${piece.kind} ${piece.mimeType}, ${Math.floor((piece.data.length * 3) / 4)} bytes: ${
          piece.data.length <= MAX_KEPT_MEDIA_CHARS
            ? `data:${piece.mimeType};base64,${piece.data}`
            : 'too large to keep'
        }`,
  );
  return {
    sessionId: context.sessionId,
    kind: 'tool-server',
    sources: [
      `server:${call.server}`,
      `tool:${call.tool}`,
      `input:${call.inputDigest}`,
      ...(context.goalId !== undefined ? [`goal:${context.goalId}`] : []),
    ],
    confidence: call.ok ? 1 : 0,
    cycle: context.cycle,
    detail: [
      `${call.hasAnswered ? 'called' : 'failed to call'} ${call.tool} of the tool server ${call.server} (${call.url}) with ${(JSON.stringify(call.input) ?? '').slice(0, 2000)}${context.note ?? ''}`,
      call.text.slice(0, 20_000),
      ...media,
    ].join('\n'),
    createdAt: context.createdAt,
  };
}

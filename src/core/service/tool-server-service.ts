import type { AgentServiceImplementation } from '#core/api.ts';
import { problemsFromZod, type Problem } from '#core/result.ts';
import { forgetStoredSecrets } from '#core/store/forget-secrets.ts';
import { reachableToolServers, toolServerKeysOf } from '#core/mcp/server-keys.ts';
import {
  MAX_TOOL_SERVERS,
  type ReachableToolServer,
  type ToolServer,
  toolServerKeySecrets,
  toolServerKeySetting,
  toolServerSchema,
  type ToolServerView,
} from '#core/records/tool-server.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';

type ToolServerMethods =
  | 'toolServerList'
  | 'toolServerSet'
  | 'toolServerRemove'
  | 'toolServerKeyForget'
  | 'toolServerGrant'
  | 'toolServerCall';

const viewOf = (server: ToolServer, keys: Record<string, string>): ToolServerView => ({
  ...server,
  keyStored: keys[server.name] !== undefined,
});

const refused = <R extends string>(reason: R, problems: Problem[]) => ({ ok: false as const, reason, problems });

/** The tool servers slice of the AgentService: the session's MCP servers, their tools, the grants, and calling one by hand. */
export function toolServerService(context: ServiceContext): Pick<AgentServiceImplementation, ToolServerMethods> {
  const { db, now, canWrite, exclusively, sessionOf } = context;
  const notFound = (name: string) =>
    refused('not-found', [
      {
        message: `no tool server is called "${name.slice(0, 100)}" in this session (\`anima tools list\`, or Settings, lists them)`,
      },
    ]);
  const serverNamed = async (sessionId: string, name: string, key?: string) =>
    (await reachableToolServers(db, sessionId, key === undefined ? {} : { [name]: key })).find(
      (server) => server.name === name,
    );
  // The SDK is loaded on first use: a first visit never downloads it.
  const client = () => import('#core/mcp/protocol.ts');

  /** Stores the session's servers (and, when given, its keys and the secrets to forget) in one transaction. */
  const store = async (sessionId: string, servers: ToolServer[], keys?: Record<string, string>, forget?: string) => {
    await db.transaction('rw', db.tables, async () => {
      await db.sessions.update(sessionId, { toolServers: servers, updatedAt: now() });
      if (keys) await db.settings.put({ key: toolServerKeySetting(sessionId), value: keys });
      if (forget !== undefined) await forgetStoredSecrets(db, toolServerKeySecrets('', forget));
    });
  };

  return {
    async toolServerList({ sessionId, refresh, keys: given }) {
      const session = await sessionOf(sessionId);
      const keys = await toolServerKeysOf(db, sessionId);
      const servers = session.toolServers ?? [];
      if (!refresh || servers.length === 0)
        return { servers: servers.map((server) => viewOf(server, keys)), problems: [] };
      if (!canWrite())
        return { servers: servers.map((server) => viewOf(server, keys)), problems: [{ message: READ_ONLY_MESSAGE }] };
      const { listServerTools } = await client();
      const reachable = await reachableToolServers(db, sessionId, given);
      const listed = await Promise.all(reachable.map((server) => listServerTools(server)));
      const problems: Problem[] = [];
      return exclusively(async () => {
        const current = (await sessionOf(sessionId)).toolServers ?? [];
        const updated = current.map((server) => {
          const index = reachable.findIndex((candidate) => candidate.name === server.name);
          const answer = index < 0 ? undefined : listed[index];
          if (!answer) return server;
          if (!answer.ok) {
            problems.push({ path: server.name, message: answer.reason });
            return server;
          }
          // A grant of a tool the server no longer lists goes: a tool of that name later may be another.
          const names = new Set(answer.tools.map((tool) => tool.name));
          return { ...server, tools: answer.tools, granted: server.granted.filter((name) => names.has(name)) };
        });
        await store(sessionId, updated);
        return { servers: updated.map((server) => viewOf(server, keys)), problems };
      });
    },

    async toolServerSet({ sessionId, server: given, key }) {
      if (!canWrite()) return refused('read-only', [{ message: READ_ONLY_MESSAGE }]);
      const parsed = toolServerSchema.pick({ name: true, url: true, keyHeader: true }).strict().safeParse(given);
      if (!parsed.success) return refused('invalid', problemsFromZod(parsed.error));
      const trimmedKey = key?.trim();
      if (trimmedKey && !parsed.data.keyHeader)
        return refused('invalid', [
          { path: 'keyHeader', message: 'a key needs the header it goes in (such as Authorization)' },
        ]);
      const session = await sessionOf(sessionId);
      const old = session.toolServers?.find((server) => server.name === parsed.data.name);
      const keys = await toolServerKeysOf(db, sessionId);
      const newKey = parsed.data.keyHeader ? (trimmedKey === undefined ? keys[parsed.data.name] : trimmedKey) : '';
      const reachable: ReachableToolServer = {
        ...parsed.data,
        tools: [],
        granted: [],
        ...(newKey ? { key: newKey } : {}),
      };
      // Nothing is stored before the server answered with its tools.
      const listed = await (await client()).listServerTools(reachable);
      if (!listed.ok) return refused('unreachable', [{ path: 'url', message: listed.reason }]);
      const names = new Set(listed.tools.map((tool) => tool.name));
      const server: ToolServer = {
        ...parsed.data,
        tools: listed.tools,
        granted: (old?.granted ?? []).filter((name) => names.has(name)),
      };
      return exclusively(async () => {
        const others = ((await sessionOf(sessionId)).toolServers ?? []).filter(
          (existing) => existing.name !== server.name,
        );
        if (others.length >= MAX_TOOL_SERVERS)
          return refused('invalid', [
            { message: `a session keeps at most ${MAX_TOOL_SERVERS} tool servers: remove one first` },
          ]);
        const stored = await toolServerKeysOf(db, sessionId);
        const oldKey = stored[server.name];
        if (newKey) stored[server.name] = newKey;
        else delete stored[server.name];
        await store(
          sessionId,
          [...others, server],
          stored,
          oldKey !== undefined && oldKey !== newKey ? oldKey : undefined,
        );
        return { ok: true as const, server: viewOf(server, stored) };
      });
    },

    async toolServerRemove({ sessionId, name }) {
      if (!canWrite()) return refused('read-only', [{ message: READ_ONLY_MESSAGE }]);
      return exclusively(async () => {
        const servers = (await sessionOf(sessionId)).toolServers ?? [];
        if (!servers.some((server) => server.name === name)) return notFound(name);
        const keys = await toolServerKeysOf(db, sessionId);
        const oldKey = keys[name];
        delete keys[name];
        await store(
          sessionId,
          servers.filter((server) => server.name !== name),
          keys,
          oldKey,
        );
        return { ok: true as const };
      });
    },

    async toolServerKeyForget({ sessionId, name }) {
      if (!canWrite()) return refused('read-only', [{ message: READ_ONLY_MESSAGE }]);
      return exclusively(async () => {
        const servers = (await sessionOf(sessionId)).toolServers ?? [];
        const server = servers.find((candidate) => candidate.name === name);
        if (!server) return notFound(name);
        const keys = await toolServerKeysOf(db, sessionId);
        const oldKey = keys[name];
        delete keys[name];
        await store(sessionId, servers, keys, oldKey);
        return { ok: true as const, server: viewOf(server, keys) };
      });
    },

    async toolServerGrant({ sessionId, server: name, tool, isGranted }) {
      if (!canWrite()) return refused('read-only', [{ message: READ_ONLY_MESSAGE }]);
      return exclusively(async () => {
        const servers = (await sessionOf(sessionId)).toolServers ?? [];
        const server = servers.find((candidate) => candidate.name === name);
        if (!server) return notFound(name);
        if (!server.tools.some((candidate) => candidate.name === tool))
          return refused('not-found', [
            {
              path: 'tool',
              message: `the tool server ${name} lists no tool "${tool.slice(0, 100)}" (it lists ${server.tools.map((candidate) => candidate.name).join(', ') || 'none'})`,
            },
          ]);
        const granted = server.granted.filter((candidate) => candidate !== tool);
        const updated = { ...server, granted: isGranted ? [...granted, tool] : granted };
        await store(
          sessionId,
          servers.map((candidate) => (candidate.name === name ? updated : candidate)),
        );
        return { ok: true as const, server: viewOf(updated, await toolServerKeysOf(db, sessionId)) };
      });
    },

    async toolServerCall({ sessionId, server: name, tool: toolName, input, isApproved, key }) {
      if (!canWrite()) return refused('read-only', [{ message: READ_ONLY_MESSAGE }]);
      const session = await sessionOf(sessionId);
      const server = await serverNamed(sessionId, name, key);
      if (!server) return notFound(name);
      const listed = server.tools.find((candidate) => candidate.name === toolName);
      if (!listed || !server.granted.includes(toolName))
        return refused('not-granted', [
          {
            path: 'tool',
            message: `${toolName.slice(0, 100)} of the tool server ${name} is not granted to this session (\`anima tools grant ${name} ${toolName.slice(0, 100)}\`)`,
          },
        ]);
      const [{ serverAgentTool, callOnce, serverCallProvenance }, { judgeAction, decisiveVeto }, psyches, worn] =
        await Promise.all([
          import('#core/tools/server-tool.ts'),
          import('#core/psyche/shadow.ts'),
          import('#core/psyche/psyche-store.ts'),
          import('#core/personas/worn-persona.ts'),
        ]);
      const { shadowViewOf } = await import('#core/tools/tool.ts');
      const tool = serverAgentTool(server, listed);
      // The input first: a schema's refusal names the field, and nothing is sent.
      const problems = tool.inputProblems(input);
      if (problems.length > 0)
        return refused(
          'invalid',
          problems.map((problem) => ({
            path: `input${problem.path ? `.${problem.path}` : ''}`,
            message: `${tool.name} does not take this input: ${problem.message}`,
          })),
        );
      const psyche = worn.wearPersona(
        (await psyches.currentPsyche(db, sessionId)).psyche,
        await worn.readWornPersona(db, sessionId),
      );
      const veto = decisiveVeto(judgeAction(psyche, shadowViewOf(tool, input)));
      if (veto && !veto.pattern.requireApproval)
        return refused('vetoed', [
          {
            message: `the veto pattern ${veto.pattern.name} forbids it (${veto.because}): ${veto.pattern.explanation}`,
          },
        ]);
      // As in a run: a tool not marked read-only waits for the user; a veto that only asks is answered by the grant of a read-only one.
      const waitsBecause = tool.waitsForApprovalBecause;
      if (waitsBecause !== undefined && !isApproved)
        return refused('needs-approval', [
          { message: `${tool.name} waits for your approval: ${waitsBecause}; approve this very call to run it` },
        ]);
      const call = await callOnce(server, toolName, input as Record<string, unknown>);
      const approvedBy = waitsBecause !== undefined ? ` (approved by you: ${waitsBecause})` : '';
      const provenanceId = await exclusively(() =>
        db.provenance.add(
          serverCallProvenance(call, { sessionId, cycle: session.cycle, createdAt: now(), note: approvedBy }),
        ),
      );
      if (!call.hasAnswered)
        return { ...refused('unreachable', [{ message: call.text }]), provenanceId: provenanceId as number };
      return {
        ok: true as const,
        isError: !call.ok,
        text: call.text,
        media: call.media.map((piece) =>
          piece.kind === 'resource'
            ? piece
            : { kind: piece.kind, mimeType: piece.mimeType, bytes: Math.floor((piece.data.length * 3) / 4) },
        ),
        inputDigest: call.inputDigest,
        provenanceId: provenanceId as number,
      };
    },
  };
}

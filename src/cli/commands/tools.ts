import type { ToolServerView } from '#core/api.ts';
import { describeProblem, type Problem } from '#core/result.ts';
import { readJson } from '#core/safe-json.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { saveDeviceKeys } from '../keys-file.ts';
import { CliError } from '../snapshot-file.ts';

/** The tool server part of `anima --help`. */
export const TOOLS_USAGE = `Tool servers (MCP over Streamable HTTP; kept in the snapshot, a key never is):
  anima tools add NAME URL --snapshot S [--header 'Name: value']   the key (the value) stays in
                 $ANIMA_HOME/keys.json (mode 600), never in a snapshot: later commands use it
                 (--header on list or call serves that one call)
  anima tools forget-key NAME --snapshot S               forget the kept key (the header name stays)
  anima tools list --snapshot S [--refresh] [--json]     their tools, annotations and grants
  anima tools grant|revoke NAME TOOL --snapshot S        what the agent's model may call
  anima tools remove NAME --snapshot S
  anima tools call NAME TOOL JSON --snapshot S [--approve]   as the agent calls it: input
                 checked, the shadow asked, kept as provenance; a tool not marked read-only
                 runs only with --approve
`;

const usageError = (message: string) => new CliError(`${message}\n\n${TOOLS_USAGE}`, 2);

/** `anima tools ...`: the session's tool servers, the grants, and calling a tool by hand. */
export const TOOLS_COMMANDS: Record<string, SessionCommand> = {
  // Adding a server may start a session.
  'tools add': { run: addServer, createsSnapshot: true },
  'tools list': { run: listServers },
  'tools grant': { run: (context) => grant(context, true) },
  'tools revoke': { run: (context) => grant(context, false) },
  'tools remove': { run: removeServer },
  'tools forget-key': { run: forgetKey },
  'tools call': { run: callTool },
};

/** `--header 'Name: value'` read: the header's name and its value (the key). */
export function headerOption(text: string | undefined): { name: string; value: string } | undefined {
  if (text === undefined) return undefined;
  const colon = text.indexOf(':');
  const name = colon < 0 ? '' : text.slice(0, colon).trim();
  const value = colon < 0 ? '' : text.slice(colon + 1).trim();
  if (name === '' || value === '')
    throw usageError(`--header: give it as 'Name: value', e.g. --header 'Authorization: Bearer TOKEN'`);
  return { name, value };
}

const failed = (what: string, problems: Problem[]) =>
  new CliError([`${what}:`, ...problems.map((problem) => `  ${describeProblem(problem)}`)].join('\n'));

async function addServer({ operands, values, service, sessionId, output, save, db }: SessionContext): Promise<number> {
  const [name, url] = operands;
  if (!name || !url)
    throw usageError('tools add: give its NAME and URL, e.g. anima tools add everything http://localhost:3001/mcp');
  const header = headerOption(values.header);
  const added = await service.toolServerSet({
    sessionId,
    server: { name, url, ...(header ? { keyHeader: header.name } : {}) },
    ...(header ? { key: header.value } : {}),
  });
  if (!added.ok) throw failed('tools add: nothing changed', added.problems);
  await save();
  await saveDeviceKeys(db);
  output.out(`added ${name}: ${added.server.tools.length} tools (grant them with anima tools grant ${name} TOOL)\n`);
  output.out(toolLines(added.server));
  return 0;
}

/** The key a command was given for one server, checked against the header the server was added with. */
async function keysFor(context: SessionContext, server?: string): Promise<Record<string, string>> {
  const header = headerOption(context.values.header);
  if (!header) return {};
  const { servers } = await context.service.toolServerList({ sessionId: context.sessionId });
  const named = servers.filter((candidate) => (server === undefined ? candidate.keyHeader : candidate.name === server));
  if (named.length !== 1 || named[0]!.keyHeader?.toLowerCase() !== header.name.toLowerCase())
    throw usageError(
      `--header ${header.name}: ${server ?? 'one server'} must have been added with that key header (anima tools add NAME URL --header '${header.name}: ...')`,
    );
  return { [named[0]!.name]: header.value };
}

async function listServers(context: SessionContext): Promise<number> {
  const { values, service, sessionId, output, save } = context;
  const refresh = values.refresh ?? false;
  const listed = await service.toolServerList({ sessionId, refresh, keys: await keysFor(context) });
  if (refresh) await save();
  if (values.json) output.out(`${JSON.stringify(listed)}\n`);
  else if (listed.servers.length === 0) output.error('anima: no tool server is added (anima tools add NAME URL)\n');
  else
    for (const server of listed.servers)
      output.out(
        `${server.name}\t${server.url}${server.keyHeader ? `\tkey header ${server.keyHeader}${server.keyStored ? ' (stored)' : ' (give --header)'}` : ''}\n${toolLines(server)}`,
      );
  for (const problem of listed.problems) output.error(`anima: ${describeProblem(problem)}\n`);
  return listed.problems.length > 0 ? 1 : 0;
}

/** A server's tools, one line each: granted or not, the annotations, what it does. */
function toolLines(server: ToolServerView): string {
  return server.tools
    .map((tool) => {
      const hints = tool.annotations ?? {};
      const marks = [
        hints.readOnlyHint ? 'read-only' : 'may change things (asks first)',
        ...(hints.destructiveHint && !hints.readOnlyHint ? ['destructive'] : []),
        ...(hints.idempotentHint ? ['idempotent'] : []),
        ...(hints.openWorldHint ? ['open-world'] : []),
      ];
      const granted = server.granted.includes(tool.name) ? 'granted' : '-';
      return `  ${granted}\t${tool.name}\t${marks.join(', ')}\t${(tool.description ?? tool.title ?? '').replace(/\s+/g, ' ').slice(0, 120)}\n`;
    })
    .join('');
}

async function grant(context: SessionContext, isGranted: boolean): Promise<number> {
  const { operands, service, sessionId, output, save } = context;
  const verb = isGranted ? 'grant' : 'revoke';
  const [server, tool] = operands;
  if (!server || !tool) throw usageError(`tools ${verb}: give the server's NAME and the TOOL`);
  const granted = await service.toolServerGrant({ sessionId, server, tool, isGranted });
  if (!granted.ok) throw failed(`tools ${verb}: nothing changed`, granted.problems);
  await save();
  output.out(`${isGranted ? 'granted' : 'revoked'} ${tool} of ${server}\n`);
  return 0;
}

async function removeServer({ operands, service, sessionId, output, save, db }: SessionContext): Promise<number> {
  const [name] = operands;
  if (!name) throw usageError('tools remove: which NAME?');
  const removed = await service.toolServerRemove({ sessionId, name });
  if (!removed.ok) throw failed('tools remove: nothing changed', removed.problems);
  await save();
  // Its key goes with it.
  await saveDeviceKeys(db);
  output.out(`removed ${name}\n`);
  return 0;
}

async function forgetKey({ operands, service, sessionId, output, save, db }: SessionContext): Promise<number> {
  const [name] = operands;
  if (!name) throw usageError('tools forget-key: which NAME?');
  const forgotten = await service.toolServerKeyForget({ sessionId, name });
  if (!forgotten.ok) throw failed('tools forget-key: nothing changed', forgotten.problems);
  await save();
  await saveDeviceKeys(db);
  output.out(`forgot the key of ${name}\n`);
  return 0;
}

async function callTool(context: SessionContext): Promise<number> {
  const { operands, values, service, sessionId, output, save } = context;
  const [server, tool, json] = operands;
  if (!server || !tool || json === undefined)
    throw usageError(`tools call: give the server's NAME, the TOOL and its input as JSON, e.g. '{"message": "hi"}'`);
  const input = readJson(json, { maxBytes: 1024 * 1024 });
  if (!input.ok)
    throw new CliError(`tools call: the input is not JSON: ${input.error.map(describeProblem).join('; ')}`);
  const keys = await keysFor(context, server);
  const called = await service.toolServerCall({
    sessionId,
    server,
    tool,
    input: input.value,
    isApproved: values.approve ?? false,
    ...(keys[server] !== undefined ? { key: keys[server] } : {}),
  });
  // A call that reached the server is kept as provenance, whatever came back.
  if (called.ok || called.provenanceId !== undefined) await save();
  if (values.json) output.out(`${JSON.stringify(called)}\n`);
  if (!called.ok) {
    const hint = called.reason === 'needs-approval' ? ' (add --approve to approve this very call)' : '';
    throw new CliError(`tools call: ${called.problems.map(describeProblem).join('; ')}${hint}`);
  }
  if (!values.json) {
    output.out(`${called.text}\n`);
    for (const piece of called.media)
      output.out(
        piece.kind === 'resource'
          ? `resource ${piece.uri}\n`
          : `${piece.kind} ${piece.mimeType}, ${piece.bytes} bytes (kept with provenance #${called.provenanceId})\n`,
      );
  }
  return called.isError ? 1 : 0;
}

import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { createServer as createNetServer } from 'node:net';
import { dirname, join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/**
 * The real MCP servers the tool server tests run against, started here from the npm packages
 * (devDependencies) on ports the OS gives. One that cannot start fails the test, saying why.
 */

/** A running server: its address, and how to stop it (a stopped server stays stopped: the "server went away" case). */
export type RunningServer = { url: string; stop(): Promise<void> };

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** A port no one listens on now (the OS picks it). */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/**
 * `@modelcontextprotocol/server-everything` over Streamable HTTP (its `streamableHttp` mode
 * listens on $PORT, at /mcp, with CORS that exposes mcp-session-id), ready when it says it listens.
 */
export async function startEverythingServer(timeoutMs = 20_000): Promise<RunningServer> {
  const port = await freePort();
  const entry = join(packageDir('@modelcontextprotocol/server-everything'), 'dist', 'index.js');
  const child = spawn(process.execPath, [entry, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server-everything did not start within ${timeoutMs} ms: ${said.slice(-500)}`)),
      timeoutMs,
    );
    const listen = (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes(`listening on port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', listen);
    child.stderr!.on('data', listen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited (${code}) before listening: ${said.slice(-500)}`));
    });
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => stopChild(child) };
}

/**
 * `@modelcontextprotocol/server-memory` speaks stdio only: each HTTP session here is bridged, by
 * the SDK's own transports, to a server-memory process of its own, all keeping their graph in
 * one file, so what one connection stores the next reads, as with one long-running server.
 */
export async function startMemoryServer(memoryFile: string): Promise<RunningServer> {
  const entry = join(packageDir('@modelcontextprotocol/server-memory'), 'dist', 'index.js');
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const children = new Set<StdioClientTransport>();
  const bridge = async () => {
    const child = new StdioClientTransport({
      command: process.execPath,
      args: [entry],
      env: { ...(process.env as Record<string, string>), MEMORY_FILE_PATH: memoryFile },
      stderr: 'ignore',
    });
    const http: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, http),
    });
    http.onmessage = (message) => void child.send(message);
    child.onmessage = (message) => void http.send(message);
    http.onclose = () => {
      if (http.sessionId) sessions.delete(http.sessionId);
      children.delete(child);
      void child.close();
    };
    children.add(child);
    await child.start();
    await http.start();
    return http;
  };
  const server: Server = createServer((request, response) => {
    const id = request.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (typeof id === 'string' && !known) {
      response.writeHead(404).end();
      return;
    }
    void (known ? Promise.resolve(known) : bridge()).then((http) => http.handleRequest(request, response));
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      await Promise.all([...children].map((child) => child.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private Virtuoso (Debian's `virtuoso-opensource`, the engine behind DBpedia's endpoint) for
 * the SPARQL tests and bench: its own temporary database folder and ports, loaded with the
 * N-Triples given, stopped (and its folder removed) by `stop()`. Starting fails with a sentence
 * that says what is missing: a test that needs it must fail, never skip.
 */
const SERVER = process.env.ANIMA_VIRTUOSO_BIN ?? '/usr/bin/virtuoso-t';
const ISQL = process.env.ANIMA_VIRTUOSO_ISQL ?? '/usr/bin/isql-vt';
const INI = '/etc/virtuoso-opensource-7/virtuoso.ini';
export const GRAPH_IRI = 'urn:anima:test-graph';

/** A free TCP port (the environment's ANIMA_VIRTUOSO_HTTP_PORT when set). */
async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The packaged ini with its files, folders and ports moved to ours. */
function configure(ini, folder, sqlPort, httpPort) {
  const lines = ini.split('\n');
  let section = '';
  return lines
    .map((line) => {
      const header = /^\[(.+)\]/.exec(line);
      if (header) section = header[1];
      const set = (key, value) => (new RegExp(`^\\s*;?\\s*${key}\\s*=`).test(line) ? `${key} = ${value}` : undefined);
      if (section === 'Database')
        return (
          set('DatabaseFile', join(folder, 'virtuoso.db')) ??
          set('ErrorLogFile', join(folder, 'virtuoso.log')) ??
          set('LockFile', join(folder, 'virtuoso.lck')) ??
          set('TransactionFile', join(folder, 'virtuoso.trx')) ??
          set('xa_persistent_file', join(folder, 'virtuoso.pxa')) ??
          line
        );
      if (section === 'TempDatabase')
        return (
          set('DatabaseFile', join(folder, 'virtuoso-temp.db')) ??
          set('TransactionFile', join(folder, 'virtuoso-temp.trx')) ??
          line
        );
      if (section === 'Parameters')
        return (
          set('ServerPort', sqlPort) ?? set('DirsAllowed', `., ${folder}, /usr/share/virtuoso-opensource-7/vad`) ?? line
        );
      if (section === 'HTTPServer') return set('ServerPort', httpPort) ?? line;
      // The bench pulls 10,000 triples in one answer: the packaged cap is exactly that.
      if (section === 'SPARQL') return set('ResultSetMaxRows', 1_000_000) ?? line;
      return line;
    })
    .join('\n');
}

function isql(sqlPort, statement) {
  const result = spawnSync(ISQL, [String(sqlPort), 'dba', 'dba', `exec=${statement}`], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0 || /\*\*\* Error/.test(result.stdout + result.stderr))
    throw new Error(
      `Virtuoso refused ${statement.slice(0, 80)}: ${(result.stdout + result.stderr).trim().slice(0, 400)}`,
    );
  return result.stdout;
}

/**
 * Starts Virtuoso, loads `ntriples` (text) into one graph, and lets browsers read /sparql from
 * any origin when `cors` (the default: a page is the real client). Resolves when it answers.
 */
export async function startVirtuoso({ ntriples = '', cors = true, timeoutMs = 90_000 } = {}) {
  if (!existsSync(SERVER) || !existsSync(ISQL))
    throw new Error(
      `Virtuoso is not installed (${SERVER}, ${ISQL}): run \`apt-get install -y virtuoso-opensource\` (.ci/run does)`,
    );
  const folder = mkdtempSync(join(tmpdir(), 'anima-virtuoso-'));
  const sqlPort = Number(process.env.ANIMA_VIRTUOSO_SQL_PORT ?? (await freePort()));
  const httpPort = Number(process.env.ANIMA_VIRTUOSO_HTTP_PORT ?? (await freePort()));
  const iniPath = join(folder, 'virtuoso.ini');
  writeFileSync(iniPath, configure(readFileSync(INI, 'utf8'), folder, sqlPort, httpPort));
  const child = spawn(SERVER, ['+configfile', iniPath, '+foreground'], { cwd: folder, stdio: 'ignore' });
  let exited;
  child.once('exit', (code, signal) => (exited = `exited (${signal ?? code})`));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await ended;
      clearTimeout(timer);
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const log = join(folder, 'virtuoso.log');
    const started = Date.now();
    while (!(existsSync(log) && readFileSync(log, 'utf8').includes('Server online'))) {
      if (exited)
        throw new Error(
          `Virtuoso ${exited} before it was online: ${existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-5).join(' / ') : 'no log'}`,
        );
      if (Date.now() - started > timeoutMs) throw new Error(`Virtuoso was not online within ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (ntriples !== '') {
      const file = join(folder, 'graph.nt');
      writeFileSync(file, ntriples);
      isql(sqlPort, `DB.DBA.TTLP_MT(file_to_string_output('${file}'), '', '${GRAPH_IRI}'); checkpoint;`);
    }
    if (cors)
      isql(
        sqlPort,
        "DB.DBA.VHOST_REMOVE(lhost=>'*ini*', vhost=>'*ini*', lpath=>'/sparql'); DB.DBA.VHOST_DEFINE(lhost=>'*ini*', vhost=>'*ini*', lpath=>'/sparql', ppath=>'/!sparql/', is_dav=>1, vsp_user=>'dba', opts=>vector('browse_sheet', '', 'noinherit', 'yes', 'cors', '*', 'cors_restricted', 0));",
      );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${httpPort}/sparql`, httpPort, stop };
}

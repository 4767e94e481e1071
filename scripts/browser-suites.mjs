import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from './find-chromium.mjs';

/** The repository's root: the Playwright configs and the reports are found from here. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The browser suites: each one's Playwright config, the variable naming its server's port (the
 * runner sets a free one when it is unset; `defaultPort` is for a bare `npx playwright test`),
 * and the JSON report the summary lines are read from.
 */
export const BROWSER_SUITES = {
  e2e: {
    config: 'playwright.config.ts',
    portVariable: 'ANIMA_E2E_PORT',
    defaultPort: 4319,
    report: 'reports/e2e.json',
  },
  inference: {
    config: 'playwright.inference.config.ts',
    portVariable: 'ANIMA_INFERENCE_PORT',
    defaultPort: 4320,
    report: 'reports/inference.json',
  },
  soak: {
    config: 'playwright.soak.config.ts',
    portVariable: 'ANIMA_SOAK_PORT',
    defaultPort: 4346,
    report: 'reports/soak.json',
  },
  pictures: {
    config: 'playwright.pictures.config.ts',
    portVariable: 'ANIMA_PICTURES_PORT',
    defaultPort: 4347,
    report: 'reports/pictures.json',
  },
};

/** A runner's JSON report (a path from the repository's root), or undefined when there is none or it does not parse. */
export function readReport(file) {
  const at = path.join(ROOT, file);
  if (!existsSync(at)) return undefined;
  try {
    return JSON.parse(readFileSync(at, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The port a suite's server listens on, for its Playwright config. */
export function suitePort(name) {
  const suite = BROWSER_SUITES[name];
  return Number(process.env[suite.portVariable] || suite.defaultPort);
}

/** A port no one listens on now: the OS picks one for a listener on port 0, which then closes. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs one browser suite in the first Chromium found, its server on the port its variable names
 * or else on a free one, after removing its old report (a report left by an earlier run must not
 * stand in for this one). Returns how it went, with its report: `ran` false, with the reason,
 * when it could not start at all.
 */
export async function runBrowserSuite(name, args = [], env = {}) {
  const suite = BROWSER_SUITES[name];
  rmSync(path.join(ROOT, suite.report), { force: true });
  const browser = await findChromium();
  if (!browser) {
    process.stderr.write(
      [
        'No Chromium found for the browser tests.',
        '  On Debian or Ubuntu:   sudo apt-get install chromium',
        '  Where downloads work:  npx playwright install chromium',
        '  Or point CHROMIUM_PATH at a Chromium or Chrome binary.',
        '',
      ].join('\n'),
    );
    return { ran: false, status: 1, reason: 'no Chromium found (see above how to get one)' };
  }
  const port = process.env[suite.portVariable] || String(await freePort());
  const result = spawnSync('npx', ['playwright', 'test', '--config', suite.config, ...args], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...env, ANIMA_CHROMIUM: browser, [suite.portVariable]: port },
  });
  if (result.error) return { ran: false, status: 1, reason: `Playwright did not start: ${result.error.message}` };
  return {
    ran: true,
    status: result.status ?? 1,
    reason: result.signal ? `killed by ${result.signal}` : undefined,
    report: readReport(suite.report),
  };
}

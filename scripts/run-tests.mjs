import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readReport, runBrowserSuite } from './browser-suites.mjs';
import { soakSeed, soakSeedLine } from './soak-seed.mjs';
import { browserSummary, checkSummary, soakSummary, unitSummary } from './test-summary.mjs';

/**
 * `npm test`: the type checks, the unit tests, then the e2e, inference and soak suites in
 * Chromium, each one run whether or not one before it failed, so that one failure hides no other.
 * Ends with one summary line for each (scripts/test-summary.mjs) and exits non-zero when any
 * stage failed.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where Vitest's JSON reporter leaves the unit tests' counts. */
const UNIT_REPORT = 'reports/unit.json';

/** Runs a command in the repository's root, its output to ours; how it ended. */
function command(name, args) {
  console.log(`\n> ${[name, ...args].join(' ')}`);
  const result = spawnSync(name, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.error) return { ran: false, status: 1, reason: `${name} did not start: ${result.error.message}` };
  return { ran: true, status: result.status ?? 1, reason: result.signal ? `killed by ${result.signal}` : undefined };
}

/** Builds what a browser suite serves, then runs the suite; a failed build means it did not run. */
async function browserStage(name, buildScript, env = {}) {
  const build = command('npm', ['run', buildScript]);
  if (build.status !== 0)
    return { ran: false, status: 1, reason: `npm run ${buildScript} failed (exit ${build.status})` };
  console.log(`\n> ${name}`);
  return runBrowserSuite(name, [], env);
}

/** The soak under its seed (printed first); a SOAK_SEED it cannot read means it did not run. */
async function soakStage() {
  let seed;
  try {
    seed = soakSeed(process.env.SOAK_SEED);
  } catch (error) {
    return soakSummary({ ran: false, status: 1, reason: error.message }, process.env.SOAK_SEED);
  }
  console.log(`\n${soakSeedLine(seed)}`);
  return soakSummary(await browserStage('soak', 'build:soak', { SOAK_SEED: String(seed) }), seed);
}

const summaries = [];
summaries.push(checkSummary(command('npm', ['run', 'check'])));
rmSync(`${ROOT}/${UNIT_REPORT}`, { force: true });
const unit = command('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${UNIT_REPORT}`,
]);
summaries.push(unitSummary({ ...unit, report: readReport(UNIT_REPORT) }));
summaries.push(browserSummary('e2e', await browserStage('e2e', 'build')));
summaries.push(browserSummary('inference', await browserStage('inference', 'build:inference')));
summaries.push(await soakStage());
console.log(`\n${summaries.map((summary) => summary.line).join('\n')}`);
process.exit(summaries.every((summary) => summary.ok) ? 0 : 1);

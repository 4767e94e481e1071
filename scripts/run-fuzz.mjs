import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * npm run test:fuzz: every `*.fuzz.test.ts` with 10,000 seeded cases per file kind (ANIMA_FUZZ_CASES
 * overrides), then a line per kind and `fuzz: N passed, M failed` counted in cases. Inside `npm test`
 * the same files run 1,000 cases each as part of the unit tests.
 */
const folder = join('reports', 'fuzz');
rmSync(folder, { recursive: true, force: true });
const cases = process.env.ANIMA_FUZZ_CASES ?? '10000';
const run = spawnSync('npx', ['vitest', 'run', '--reporter=dot', '.fuzz.test.ts', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, ANIMA_FUZZ_CASES: cases },
});

const reports = existsSync(folder)
  ? readdirSync(folder)
      .filter((name) => name.endsWith('.json'))
      .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')))
      .sort((a, b) => a.kind.localeCompare(b.kind))
  : [];
let passed = 0;
let failed = 0;
for (const report of reports) {
  const failures = report.failures.length;
  passed += report.cases - failures;
  failed += failures;
  console.log(
    `  ${report.kind}: ${report.cases} cases (${report.accepted} accepted, ${report.refused} refused), ${failures} failed`,
  );
}
// A runner that failed outside the cases (a crash, a test that never reported) still fails the line.
if (run.status !== 0 && failed === 0) failed = 1;
if (reports.length === 0) console.log('  no fuzz report was written: the fuzz tests did not run');
console.log(`fuzz: ${passed} passed, ${reports.length === 0 ? Math.max(failed, 1) : failed} failed`);
process.exit(run.status === 0 && reports.length > 0 && failed === 0 ? 0 : 1);

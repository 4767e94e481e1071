import { existsSync, readFileSync } from 'node:fs';

/** The attachment each soak test leaves with its seed and kills (tests/soak/kill-rounds.ts). */
const KILL_REPORT = 'soak-kills';

/**
 * The soak's line from Playwright's JSON report, for scripts/run-soak.mjs and .ci/run alike:
 * "soak: N passed, M failed (K kills, P problems, seed S)", or why there is none.
 */
export function soakSummary(reportFile) {
  if (!existsSync(reportFile)) return 'soak: 0 passed, 1 failed (no report: the soak did not run)';
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const runs = [];
  const visit = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        for (const result of test.results)
          for (const attachment of result.attachments ?? []) if (attachment.name === KILL_REPORT && attachment.body) runs.push(JSON.parse(Buffer.from(attachment.body, 'base64').toString('utf8')));
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites) visit(suite);
  const kills = runs.flatMap((run) => run.kills);
  const problems = kills.reduce((sum, kill) => sum + kill.problems.length, 0);
  const seeds = [...new Set(runs.map((run) => run.seed))].join(', ') || 'none';
  return `soak: ${report.stats.expected + report.stats.flaky} passed, ${report.stats.unexpected} failed (${kills.length} kills, ${problems} problems, seed ${seeds})`;
}

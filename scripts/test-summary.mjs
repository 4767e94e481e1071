/**
 * The summary lines of `npm test` (scripts/run-tests.mjs) and of each suite's own runner, read
 * from the runners' JSON reports: "unit: N passed, M failed", "e2e: ...", "inference: ...",
 * "soak: N passed, M failed (K kills, P problems, seed S)". A suite that did not run, ran no
 * test, or failed without a failed test in its report counts one failure and says why: a line
 * never reads "0 passed, 0 failed".
 *
 * Each function takes the run as its runner saw it, `{ ran, status, reason, report }` (the
 * parsed JSON report, if it wrote one), and returns `{ line, ok }`.
 */

/** The attachment each soak test leaves with its seed and kills (tests/soak/kill-rounds.ts). */
const KILL_REPORT = 'soak-kills';

/** "1 kill", "2 kills". */
function count(number, singular, plural = `${singular}s`) {
  return `${number} ${number === 1 ? singular : plural}`;
}

/** The line for counts read from a report, with the failure the counts alone would hide. */
function countsLine(name, run, counts, details = []) {
  let failed = counts.failed;
  const notes = [...counts.notes];
  if (counts.passed + failed === 0) {
    failed = 1;
    notes.unshift('did not run: no test ran');
  } else if (failed === 0 && run.status !== 0) {
    failed = 1;
    notes.push(
      `its runner exited ${run.status}${run.reason ? ` (${run.reason})` : ''} with no failed test: see its output above`,
    );
  }
  const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : '';
  const said = [...notes, ...details];
  return {
    line: `${name}: ${counts.passed} passed, ${failed} failed${skipped}${said.length > 0 ? ` (${said.join('; ')})` : ''}`,
    ok: failed === 0,
  };
}

function didNotRun(name, reason, details = []) {
  return { line: `${name}: 0 passed, 1 failed (did not run: ${[reason, ...details].join('; ')})`, ok: false };
}

/** `npm run check`: type checks, which have no count. */
export function checkSummary(run) {
  return run.status === 0
    ? { line: 'check: passed', ok: true }
    : { line: `check: failed (exit ${run.status}${run.reason ? `, ${run.reason}` : ''})`, ok: false };
}

/** The unit tests, from Vitest's JSON report; a test file that failed to load counts as a failure. */
export function unitSummary(run) {
  const { report } = run;
  if (!run.ran || !report) return didNotRun('unit', run.reason ?? `no report (Vitest exited ${run.status})`);
  const unloaded = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  ).length;
  return countsLine('unit', run, {
    passed: report.numPassedTests,
    failed: report.numFailedTests + unloaded,
    skipped: report.numPendingTests + report.numTodoTests,
    notes: unloaded > 0 ? [`${count(unloaded, 'test file')} failed to load`] : [],
  });
}

/** Playwright's counts, with each error outside a test (its server did not start, a file did not load) as a failure. */
function playwrightCounts(report) {
  const errors = report.errors ?? [];
  const passed = report.stats.expected + report.stats.flaky;
  const notes = [];
  if (errors.length > 0) {
    const first = String(errors[0].message ?? 'unknown error').split('\n')[0];
    notes.push(
      passed + report.stats.unexpected === 0
        ? `did not run: ${first}`
        : `${count(errors.length, 'error')} outside tests, first: ${first}`,
    );
  }
  return { passed, failed: report.stats.unexpected + errors.length, skipped: report.stats.skipped, notes };
}

/** The e2e or inference tests, from their Playwright JSON report. */
export function browserSummary(name, run) {
  const { report } = run;
  if (!run.ran || !report) return didNotRun(name, run.reason ?? `no report (Playwright exited ${run.status})`);
  return countsLine(name, run, playwrightCounts(report));
}

/** The soak, from its Playwright JSON report, with its kills, the problems they left and its seed. */
export function soakSummary(run, seed) {
  const { report } = run;
  if (!run.ran || !report)
    return didNotRun('soak', run.reason ?? `no report (Playwright exited ${run.status})`, [`seed ${seed}`]);
  const kills = [];
  const visit = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        for (const result of test.results)
          for (const attachment of result.attachments ?? [])
            if (attachment.name === KILL_REPORT && attachment.body)
              kills.push(...JSON.parse(Buffer.from(attachment.body, 'base64').toString('utf8')).kills);
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  const problems = kills.reduce((sum, kill) => sum + kill.problems.length, 0);
  return countsLine('soak', run, playwrightCounts(report), [
    `${count(kills.length, 'kill')}, ${count(problems, 'problem')}, seed ${seed}`,
  ]);
}

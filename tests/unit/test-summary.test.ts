import { describe, expect, it } from 'vitest';
import { browserSummary, checkSummary, soakSummary, unitSummary } from '../../scripts/test-summary.mjs';

/** A Playwright JSON report with these counts, errors outside tests, and suites. */
function playwrightReport(
  stats: Partial<Record<'expected' | 'unexpected' | 'flaky' | 'skipped', number>>,
  errors: string[] = [],
  suites: unknown[] = [],
) {
  return {
    stats: { expected: 0, unexpected: 0, flaky: 0, skipped: 0, ...stats },
    errors: errors.map((message) => ({ message })),
    suites,
  };
}

/** A Vitest JSON report: each file with its tests' states. */
function vitestReport(files: { status: 'passed' | 'failed'; tests: ('passed' | 'failed' | 'skipped')[] }[]) {
  const all = files.flatMap((file) => file.tests);
  return {
    numPassedTests: all.filter((test) => test === 'passed').length,
    numFailedTests: all.filter((test) => test === 'failed').length,
    numPendingTests: all.filter((test) => test === 'skipped').length,
    numTodoTests: 0,
    testResults: files.map((file) => ({
      status: file.status,
      assertionResults: file.tests.map((status) => ({ status })),
    })),
  };
}

const ran = (status: number, report: unknown) => ({ ran: true, status, report });

describe('the summary lines of npm test', () => {
  it('counts what the reports say', () => {
    expect(unitSummary(ran(0, vitestReport([{ status: 'passed', tests: ['passed', 'passed', 'skipped'] }])))).toEqual({
      line: 'unit: 2 passed, 0 failed, 1 skipped',
      ok: true,
    });
    expect(unitSummary(ran(1, vitestReport([{ status: 'failed', tests: ['passed', 'failed'] }])))).toEqual({
      line: 'unit: 1 passed, 1 failed',
      ok: false,
    });
    expect(browserSummary('e2e', ran(0, playwrightReport({ expected: 40, flaky: 2 })))).toEqual({
      line: 'e2e: 42 passed, 0 failed',
      ok: true,
    });
    expect(checkSummary({ ran: true, status: 0 })).toEqual({ line: 'check: passed', ok: true });
    expect(checkSummary({ ran: true, status: 2 })).toEqual({ line: 'check: failed (exit 2)', ok: false });
  });

  it('counts a suite that did not run, or ran no test, as a failure, saying why', () => {
    expect(browserSummary('e2e', { ran: false, status: 1, reason: 'npm run build failed (exit 1)' })).toEqual({
      line: 'e2e: 0 passed, 1 failed (did not run: npm run build failed (exit 1))',
      ok: false,
    });
    expect(browserSummary('inference', ran(1, undefined))).toEqual({
      line: 'inference: 0 passed, 1 failed (did not run: no report (Playwright exited 1))',
      ok: false,
    });
    expect(unitSummary(ran(1, undefined))).toEqual({
      line: 'unit: 0 passed, 1 failed (did not run: no report (Vitest exited 1))',
      ok: false,
    });
    expect(browserSummary('e2e', ran(0, playwrightReport({})))).toEqual({
      line: 'e2e: 0 passed, 1 failed (did not run: no test ran)',
      ok: false,
    });
  });

  it('counts a server that did not start, a file that did not load, or a failing exit with no failed test', () => {
    const taken =
      'Error: http://127.0.0.1:4319 is already used, make sure that nothing is running on the port/url.\n    at stack';
    expect(browserSummary('e2e', ran(1, playwrightReport({}, [taken])))).toEqual({
      line: 'e2e: 0 passed, 1 failed (did not run: Error: http://127.0.0.1:4319 is already used, make sure that nothing is running on the port/url.)',
      ok: false,
    });
    expect(browserSummary('e2e', ran(1, playwrightReport({ expected: 3 }, ['SyntaxError: a spec']))).line).toBe(
      'e2e: 3 passed, 1 failed (1 error outside tests, first: SyntaxError: a spec)',
    );
    expect(
      unitSummary(
        ran(
          1,
          vitestReport([
            { status: 'passed', tests: ['passed'] },
            { status: 'failed', tests: [] },
          ]),
        ),
      ).line,
    ).toBe('unit: 1 passed, 1 failed (1 test file failed to load)');
    expect(unitSummary(ran(1, vitestReport([{ status: 'passed', tests: ['passed'] }]))).line).toBe(
      'unit: 1 passed, 1 failed (its runner exited 1 with no failed test: see its output above)',
    );
  });

  it("gives the soak's kills, problems and seed, and the seed when it did not run", () => {
    const kills = (count: number, problems: number) => ({
      kills: Array.from({ length: count }, (_, index) => ({ problems: index < problems ? ['lost a cycle'] : [] })),
    });
    const attachment = (body: unknown) => ({
      name: 'soak-kills',
      body: Buffer.from(JSON.stringify(body)).toString('base64'),
    });
    const suites = [
      {
        specs: [{ tests: [{ results: [{ attachments: [attachment(kills(26, 1))] }] }] }],
        suites: [{ specs: [{ tests: [{ results: [{ attachments: [attachment(kills(26, 0))] }] }] }] }],
      },
    ];
    expect(soakSummary(ran(1, playwrightReport({ expected: 1, unexpected: 1 }, [], suites)), 7)).toEqual({
      line: 'soak: 1 passed, 1 failed (52 kills, 1 problem, seed 7)',
      ok: false,
    });
    expect(soakSummary({ ran: false, status: 1, reason: 'no Chromium found' }, 7).line).toBe(
      'soak: 0 passed, 1 failed (did not run: no Chromium found; seed 7)',
    );
  });
});

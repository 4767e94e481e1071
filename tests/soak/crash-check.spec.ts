import { expect, test } from '@playwright/test';
import { crashProblems, resumeProblems, type SoakState } from './crash-check.ts';

/** The check itself, on made-up sessions: what the soak would miss if it could not fail. */

function session(changes: Partial<SoakState> = {}): SoakState {
  return {
    cycle: 10,
    triples: 1000,
    documents: 1,
    psycheVersions: [{ version: 0, cycle: 0, reason: 'the default psyche' }],
    currentPsyche: { version: 0, sage: 0.7 },
    reflectionsFrom: 0,
    reflections: [],
    newCycles: [],
    problems: [],
    ...changes,
  };
}

const context = { lastReportedCycle: 0, reflectionInterval: 2 };

test('a graph import is whole or absent after a kill; anything in between is caught', () => {
  const killed = { kind: 'kg-import', triples: 500 } as const;
  expect(crashProblems(killed, session(), session(), context)).toEqual([]);
  expect(crashProblems(killed, session(), session({ triples: 1500 }), context)).toEqual([]);
  expect(crashProblems(killed, session(), session({ triples: 1200 }), context)).toEqual([
    'a torn graph import: 1000 triples before an import of 500, 1200 after (neither 1000 nor 1500)',
  ]);
});

test('a killed run reopens at its last reported cycle or the one after; a lost or invented cycle is caught', () => {
  const reported = { ...context, lastReportedCycle: 12 };
  const cycles = (last: number) =>
    Array.from({ length: last - 10 }, (_, index) => ({ cycle: 11 + index, tool: 'none' }));
  for (const cycle of [12, 13])
    expect(crashProblems({ kind: 'run' }, session(), session({ cycle, newCycles: cycles(cycle) }), reported)).toEqual(
      [],
    );
  expect(crashProblems({ kind: 'run' }, session(), session({ cycle: 11, newCycles: cycles(11) }), reported)).toEqual([
    'cycle 12 was reported as committed, but the session reopened at cycle 11',
  ]);
  expect(crashProblems({ kind: 'run' }, session(), session({ cycle: 14, newCycles: cycles(14) }), reported)).toEqual([
    'the session reopened at cycle 14, more than one past the last reported cycle 12',
  ]);
});

test('a cycle stored without the reflection due at it, or an evolution without its reflection, is caught', () => {
  const after = session({
    cycle: 12,
    newCycles: [
      { cycle: 11, tool: 'reason' },
      { cycle: 12, tool: 'reason' },
    ],
    psycheVersions: [{ version: 1, cycle: 12, reason: 'evolution at cycle 12: sage 0.7 -> 0.72' }],
  });
  expect(crashProblems({ kind: 'run' }, session(), after, { ...context, lastReportedCycle: 12 })).toEqual([
    'psyche version 1 (evolution at cycle 12: sage 0.7 -> 0.72) has no reflection that made it',
    'cycle 12 committed without the reflection due at it',
  ]);
  const whole = { ...after, reflections: [{ cycle: 12, trigger: 'interval' as const, psycheVersion: 1 }] };
  expect(crashProblems({ kind: 'run' }, session(), whole, { ...context, lastReportedCycle: 12 })).toEqual([]);
});

test('a psyche import is current whole or not stored at all; a problem the session check finds is reported', () => {
  const killed = { kind: 'psyche-import', fileName: 'r3.toml', sage: 0.25 } as const;
  const imported = {
    psycheVersions: [
      { version: 1, cycle: 10, reason: 'the default psyche' },
      { version: 2, cycle: 10, reason: 'imported r3.toml' },
    ],
  };
  expect(
    crashProblems(killed, session(), session({ ...imported, currentPsyche: { version: 2, sage: 0.25 } }), context),
  ).toEqual([]);
  expect(
    crashProblems(killed, session(), session({ ...imported, currentPsyche: { version: 2, sage: 0.7 } }), context),
  ).toEqual(['r3.toml was stored as version 2, but the current psyche is version 2 with sage 0.7, not 0.25']);
  const broken = session({ problems: ['at session.cycle: the session says cycle 10, its log ends at cycle 9'] });
  expect(crashProblems(killed, session(), broken, context)).toEqual([
    'the session check: at session.cycle: the session says cycle 10, its log ends at cycle 9',
  ]);
});

test('the run after a kill must commit and report the next cycle', () => {
  const usage = { provider: 'none', requests: 0, toolCalls: 1, inputTokens: 0, outputTokens: 0 };
  expect(
    resumeProblems(session(), {
      result: { ok: true, cyclesRun: 1, lastCycle: 11, stoppedBecause: 'max-cycles', usage },
      reported: [11],
    }),
  ).toEqual([]);
  expect(
    resumeProblems(session(), {
      result: { ok: true, cyclesRun: 1, lastCycle: 12, stoppedBecause: 'max-cycles', usage },
      reported: [12],
    }),
  ).toEqual(['the run resumed wrongly after cycle 10: 1 cycles run, the last 12 (stopped: max-cycles), reported 12']);
  expect(
    resumeProblems(session(), {
      result: { ok: false, reason: 'read-only', problems: [{ message: 'this session is open in another tab' }] },
      reported: [],
    }),
  ).toEqual(['the run did not resume: this session is open in another tab']);
});

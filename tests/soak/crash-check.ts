import type { SoakHarness } from './harness.ts';

/** What the harness reads back of a session (see `soak.state`). */
export type SoakState = Awaited<ReturnType<SoakHarness['state']>>;

/** The operation a kill landed in, with what the test knew of it when it began. */
export type KilledOperation =
  | { kind: 'open'; starterTriples: number }
  | { kind: 'run' }
  | { kind: 'reflect' }
  | { kind: 'kg-import'; triples: number }
  | { kind: 'document-import'; kilobytes: number }
  | { kind: 'psyche-import'; fileName: string; sage: number };

/** What the page knew when the kill came: the last cycle whose progress report reached it, and how often the agent reflects. */
export type KillContext = { lastReportedCycle: number; reflectionInterval: number };

const EVOLUTION_REASON = /^evolution at cycle \d+:/;

/**
 * What a kill broke, as sentences (none: nothing). `before` is the session as it was when the
 * operation began (none for the very first open), `after` as a fresh worker found it, with the
 * session check's problems. Every write is one transaction, so each operation must have happened
 * whole or not at all.
 */
export function crashProblems(
  killed: KilledOperation,
  before: SoakState | undefined,
  after: SoakState,
  context: KillContext,
): string[] {
  const problems = after.problems.map((problem) => `the session check: ${problem}`);
  problems.push(...evolutionProblems(after));
  if (!before) {
    // The first start, killed: whatever it had done, the next one finishes it (the starter graph whole, no cycle).
    const starterTriples = killed.kind === 'open' ? killed.starterTriples : 0;
    if (after.triples !== starterTriples)
      problems.push(
        `the first start was killed: the session reopened with ${after.triples} triples, not the starter graph's ${starterTriples}`,
      );
    if (after.cycle !== 0)
      problems.push(`the first start was killed: the session reopened at cycle ${after.cycle}, before any run`);
    return problems;
  }
  problems.push(...cycleProblems(killed, before, after, context));
  problems.push(...importProblems(killed, before, after));
  return problems;
}

/** A run may have committed one cycle past its last report (the kill came before the report); any other cycle count lost or invented work. */
function cycleProblems(
  killed: KilledOperation,
  before: SoakState,
  after: SoakState,
  { lastReportedCycle, reflectionInterval }: KillContext,
): string[] {
  if (killed.kind !== 'run')
    return after.cycle === before.cycle
      ? []
      : [`no cycle ran, yet the session went from cycle ${before.cycle} to ${after.cycle}`];
  const problems: string[] = [];
  const reported = Math.max(before.cycle, lastReportedCycle);
  if (after.cycle < reported)
    problems.push(`cycle ${reported} was reported as committed, but the session reopened at cycle ${after.cycle}`);
  if (after.cycle > reported + 1)
    problems.push(
      `the session reopened at cycle ${after.cycle}, more than one past the last reported cycle ${reported}`,
    );
  const intervalReflections = new Set(
    after.reflections.filter((reflection) => reflection.trigger === 'interval').map((reflection) => reflection.cycle),
  );
  // An idle cycle (no tool could work: tool "none") commits without reflecting.
  for (const record of after.newCycles)
    if (
      record.tool !== 'none' &&
      record.cycle % reflectionInterval === 0 &&
      record.cycle >= after.reflectionsFrom &&
      !intervalReflections.has(record.cycle)
    )
      problems.push(`cycle ${record.cycle} committed without the reflection due at it`);
  for (const cycle of intervalReflections)
    if (cycle > before.cycle && !after.newCycles.some((record) => record.cycle === cycle))
      problems.push(`a reflection at cycle ${cycle}, which no committed cycle made`);
  return problems;
}

/** Each import (and an on-demand reflection) is all or nothing; the others leave what they do not write alone. */
function importProblems(killed: KilledOperation, before: SoakState, after: SoakState): string[] {
  const problems: string[] = [];
  if (killed.kind === 'kg-import') {
    const whole = before.triples + killed.triples;
    if (after.triples !== before.triples && after.triples !== whole)
      problems.push(
        `a torn graph import: ${before.triples} triples before an import of ${killed.triples}, ${after.triples} after (neither ${before.triples} nor ${whole})`,
      );
  } else if (killed.kind !== 'run' && after.triples !== before.triples)
    problems.push(`the graph went from ${before.triples} to ${after.triples} triples in a ${killed.kind}`);

  const documentsAdded = after.documents - before.documents;
  if (documentsAdded !== 0 && !(killed.kind === 'document-import' && documentsAdded === 1))
    problems.push(`${documentsAdded} documents added in a ${killed.kind}`);

  const requests = (state: SoakState) =>
    state.reflections.filter(
      (reflection) => reflection.trigger === 'request' && reflection.cycle >= after.reflectionsFrom,
    ).length;
  const requestsAdded = requests(after) - requests(before);
  if (requestsAdded !== 0 && !(killed.kind === 'reflect' && requestsAdded === 1))
    problems.push(`${requestsAdded} reflections on request added in a ${killed.kind}`);

  const importReason = killed.kind === 'psyche-import' ? `imported ${killed.fileName}` : undefined;
  // Version 1 may appear or change with the first evolution: it is the default psyche, stored to close a reflection's window.
  const kept = (state: SoakState) =>
    JSON.stringify(state.psycheVersions.filter((version) => version.version > 1 && version.reason !== importReason));
  if (killed.kind !== 'run' && killed.kind !== 'reflect' && kept(after) !== kept(before))
    problems.push(`psyche versions changed in a ${killed.kind}: ${kept(before)} before, ${kept(after)} after`);
  if (killed.kind === 'psyche-import') {
    const imported = after.psycheVersions.filter((version) => version.reason === importReason);
    if (imported.length > 1) problems.push(`${killed.fileName} was imported ${imported.length} times`);
    if (
      imported.length === 1 &&
      (after.currentPsyche.version !== imported[0]!.version || after.currentPsyche.sage !== killed.sage)
    )
      problems.push(
        `${killed.fileName} was stored as version ${imported[0]!.version}, but the current psyche is version ${after.currentPsyche.version} with sage ${after.currentPsyche.sage}, not ${killed.sage}`,
      );
    if (imported.length === 0 && after.currentPsyche.sage !== before.currentPsyche.sage)
      problems.push(
        `${killed.fileName} was not stored, yet sage went from ${before.currentPsyche.sage} to ${after.currentPsyche.sage}`,
      );
  }
  return problems;
}

/** An evolution is stored with the reflection that made it, in one transaction: never one without the other. */
function evolutionProblems(state: SoakState): string[] {
  const problems: string[] = [];
  const versions = new Set(state.psycheVersions.map((version) => version.version));
  const madeByReflection = new Set(state.reflections.map((reflection) => reflection.psycheVersion));
  for (const version of state.psycheVersions)
    if (
      EVOLUTION_REASON.test(version.reason) &&
      version.cycle >= state.reflectionsFrom &&
      !madeByReflection.has(version.version)
    )
      problems.push(`psyche version ${version.version} (${version.reason}) has no reflection that made it`);
  for (const reflection of state.reflections) {
    if (reflection.cycle > state.cycle)
      problems.push(`a reflection at cycle ${reflection.cycle}, past the session's cycle ${state.cycle}`);
    if (reflection.psycheVersion !== undefined && !versions.has(reflection.psycheVersion))
      problems.push(
        `the reflection at cycle ${reflection.cycle} made psyche version ${reflection.psycheVersion}, which is not stored`,
      );
  }
  return problems;
}

/** In a few words, what of the killed operation a fresh worker found stored (for the report). */
export function whatSurvived(
  killed: KilledOperation,
  before: SoakState | undefined,
  after: SoakState,
  lastReportedCycle: number,
): string {
  if (!before) return `${after.triples} triples`;
  if (killed.kind === 'run')
    return `${after.cycle - before.cycle} cycles, ${after.cycle - Math.max(before.cycle, lastReportedCycle)} of them unreported`;
  if (killed.kind === 'kg-import') return after.triples === before.triples ? 'none' : 'whole';
  if (killed.kind === 'document-import') return after.documents === before.documents ? 'none' : 'whole';
  if (killed.kind === 'psyche-import')
    return after.psycheVersions.some((version) => version.reason === `imported ${killed.fileName}`) ? 'whole' : 'none';
  if (killed.kind === 'reflect') {
    const requestsAt = (state: SoakState) =>
      state.reflections.filter((reflection) => reflection.trigger === 'request' && reflection.cycle === before.cycle)
        .length;
    return requestsAt(after) > requestsAt(before) ? 'whole' : 'none';
  }
  return 'nothing to store';
}

/** What a one-cycle run after the kill gave: it must commit the cycle after the one the session reopened at, and report it. */
export function resumeProblems(after: SoakState, resumed: Awaited<ReturnType<SoakHarness['runOneCycle']>>): string[] {
  const next = after.cycle + 1;
  const { result, reported } = resumed;
  if (!result.ok) return [`the run did not resume: ${result.problems.map((problem) => problem.message).join('; ')}`];
  if (result.cyclesRun !== 1 || result.lastCycle !== next || reported.join() !== String(next))
    return [
      `the run resumed wrongly after cycle ${after.cycle}: ${result.cyclesRun} cycles run, the last ${result.lastCycle} (stopped: ${result.stoppedBecause}), reported ${reported.join(', ') || 'none'}`,
    ];
  return [];
}

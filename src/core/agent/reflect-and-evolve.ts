import { TOOLS } from '#core/tools/registry.ts';
import { evolvePsyche } from '#core/psyche/evolve.ts';
import { addPsycheVersion, currentPsyche } from '#core/psyche/psyche-store.ts';
import { type AgentSettings, settingsOfSession } from '#core/records/agent-settings.ts';
import { describeReflection, reflectOn } from './reflection.ts';
import type { Reflection } from '#core/records/reflection.ts';
import type { CycleRecord } from '#core/records/cycle.ts';
import { creditsOf } from './tool-credit.ts';
import { type CommitContext, labelOf } from './commit-context.ts';
import { consolidateMemory } from './cycle-memory.ts';
import { endActivePlans } from './settle-goal.ts';

/**
 * Reflects on the cycles since the last reflection (see reflection.ts), applies the adjustments
 * (priorities, re-planning, consolidation), then evolves the psyche; stores the reflection with a
 * provenance record. Call inside a transaction over the tables it writes; a cycle gives the
 * session's settings it read, which are otherwise read here.
 */
export async function reflect(
  context: CommitContext,
  trigger: Reflection['trigger'],
  sessionSettings?: AgentSettings,
): Promise<Reflection> {
  const { db, sessionId, cycle, startedAt } = context;
  const last = await db.reflections
    .where('[sessionId+cycle]')
    .between([sessionId, 0], [sessionId, cycle], true, true)
    .last();
  const sinceCycle = last?.cycle ?? 0;
  const [cycles, goals, memoryEntryCount] = await Promise.all([
    db.cycles
      .where('[sessionId+cycle]')
      .between([sessionId, sinceCycle + 1], [sessionId, cycle], true, true)
      .toArray(),
    // Only active goals are reflected on: reading every goal (each ended one with up to 2,000
    // findings) made each reflection of a long run slower than the one before.
    db.goals.where('[sessionId+status]').equals([sessionId, 'active']).toArray(),
    // Counted, not read: the entries are read only to consolidate them, which few reflections do.
    db.workingMemory.where('sessionId').equals(sessionId).count(),
  ]);
  const settings = sessionSettings ?? settingsOfSession((await db.sessions.get(sessionId)) ?? {});
  const seen = reflectOn({ cycles, goals, memoryEntryCount, memoryCapacity: settings.memoryCapacity });
  const label = labelOf(context);
  for (const adjustment of seen.adjustments) {
    const goal = goals.find((candidate) => candidate.id === adjustment.goalId);
    if ((adjustment.kind === 'boost' || adjustment.kind === 'demote') && goal)
      // The goal as read in this transaction, put back whole: an update would read it (and its findings) again.
      await db.goals.put({ ...goal, priority: adjustment.to! });
    if (adjustment.kind === 'replan' && goal)
      await endActivePlans(db, goal, `reflection at cycle ${cycle}: ${adjustment.reason}`);
    if (adjustment.kind === 'consolidate') {
      const consolidating = consolidateMemory(db, {
        sessionId,
        cycle,
        now: startedAt,
        before: cycle,
        entries: await db.workingMemory.where('sessionId').equals(sessionId).toArray(),
        reason: `reflection at cycle ${cycle}`,
        ...(label ? { label } : {}),
      });
      if (consolidating) await consolidating;
    }
  }
  const evolved = await evolveAtReflection(context, { sinceCycle, cycles });
  const reflection: Reflection = {
    sessionId,
    cycle,
    trigger,
    sinceCycle,
    ...seen,
    psycheChanges: evolved?.changes ?? [],
    ...(evolved ? { psycheVersion: evolved.version } : {}),
    createdAt: startedAt,
  };
  reflection.id = (await db.reflections.add(reflection)) as number;
  await db.provenance.add({
    sessionId,
    kind: 'reflection',
    sources: [
      `reflection:${reflection.id}`,
      ...new Set(
        seen.adjustments.flatMap((adjustment) =>
          adjustment.goalId !== undefined ? [`goal:${adjustment.goalId}`] : [],
        ),
      ),
    ],
    confidence: 1,
    cycle,
    detail: describeReflection(reflection),
    createdAt: startedAt,
  });
  return reflection;
}

/**
 * Reflection's psyche step: the tools' success since the last evolution (a use succeeds when its
 * goal advanced or completed, or when it prepared what a later cycle found: see tool-credit.ts;
 * it fails when the tool failed; actions the shadow stopped did not run and do not count) moves the
 * archetypes, encounters grow individuation. A change is a new psyche version with provenance.
 */
async function evolveAtReflection(
  context: CommitContext,
  reflected: { sinceCycle: number; cycles: readonly CycleRecord[] },
): Promise<{ changes: string[]; version: number } | undefined> {
  const { db, sessionId, cycle, startedAt } = context;
  const current = await currentPsyche(db, sessionId);
  const since = current.psyche.selfIntegration.lastEvolutionCycle;
  // The cycles since the last evolution are among those the reflection read, unless it evolved earlier.
  const window =
    since >= reflected.sinceCycle
      ? reflected.cycles.filter((record) => record.cycle > since)
      : await db.cycles
          .where('[sessionId+cycle]')
          .between([sessionId, since + 1], [sessionId, cycle], true, true)
          .toArray();
  const archetypeOf = new Map(TOOLS.map((tool) => [tool.name, tool.archetype]));
  const ran = window.filter((record) => record.tool !== 'none' && record.shadow === undefined);
  const credits = creditsOf(ran);
  const uses = ran.map((record, index) => ({
    tool: record.tool,
    archetype: archetypeOf.get(record.tool),
    result:
      record.outcome === 'advanced' || record.outcome === 'completed'
        ? ('succeeded' as const)
        : record.outcome === 'failed'
          ? ('failed' as const)
          : ('no-change' as const),
    ...(credits[index] !== undefined ? { credit: credits[index] } : {}),
  }));
  const { psyche, changes } = evolvePsyche(current.psyche, uses, cycle);
  if (changes.length === 0) {
    // Nothing moved: the window still closes, on the current version, without a new one (the
    // default is stored as version 1 for that, or every reflection would read all cycles again).
    if (current.id !== undefined) await db.psyches.put({ ...current, psyche });
    else await db.psyches.add({ ...current, version: 1, psyche, createdAt: startedAt });
    return undefined;
  }
  const version = await addPsycheVersion(db, {
    sessionId,
    psyche,
    cycle,
    reason: `evolution at cycle ${cycle}: ${changes.join('; ')}`,
    now: startedAt,
  });
  await db.provenance.add({
    sessionId,
    kind: 'psyche-change',
    sources: [`psyche:${version.version}`],
    confidence: 1,
    cycle,
    detail: version.reason,
    createdAt: startedAt,
  });
  return { changes, version: version.version };
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { addPsycheVersion } from '#core/psyche/psyche-store.ts';
import { defaultPsyche } from '#core/records/psyche.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { shadowViewOf } from '#core/tools/tool.ts';
import { exportSnapshot } from '#core/sessions/snapshot.ts';
import { parseSnapshot } from '#core/sessions/snapshot-check.ts';
import { restoreSnapshot } from '#core/sessions/snapshot-restore.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';

const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');

async function agentOnStarterGraph() {
  const { db, service } = testService({
    db: new AnimaDatabase('anima', freshIndexedDb()),
    loadStarterGraph: async () => STARTER,
  });
  const { session } = await service.open({});
  const run = async (maxCycles: number) => {
    const cycles: CycleRecord[] = [];
    await service.agentRun({ sessionId: session.id, operationId: 'run', maxCycles }, (record) => cycles.push(record));
    return cycles;
  };
  return { db, service, sessionId: session.id, run };
}

describe('scratch notes', () => {
  it('a goal that asks for notes gets them written, and completes only once they hold every finding', async () => {
    const { db, service, sessionId, run } = await agentOnStarterGraph();
    await service.goalAdd({
      sessionId,
      description: 'Find mammals and keep notes',
      criteria: '?x is-a mammal, at least 5',
    });
    const cycles = await run(20);
    const writes = cycles.filter((record) => record.tool === 'file_io');
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((record) => (record.input as { note?: string }).note === 'goal-1-notes.md')).toBe(true);
    const last = cycles.at(-1)!;
    // The criteria were met before the last note: the goal waited for it.
    expect(
      cycles.some(
        (record) => record.statusChange === 'its criteria are met; it completes once its notes hold every finding',
      ),
    ).toBe(true);
    expect(last).toMatchObject({ tool: 'file_io', outcome: 'completed' });

    const [goal] = (await service.goalList({ sessionId })).goals;
    expect((await db.goals.get(1))!.notedFindings).toBe(goal!.findings.length);
    const { artifacts } = await service.artifactList({ sessionId, goalId: 1 });
    expect(artifacts).toHaveLength(1);
    const [note] = artifacts;
    expect(note).toMatchObject({
      goalId: 1,
      tool: 'file_io',
      name: 'goal-1-notes.md',
      kind: 'text',
      mediaType: 'text/markdown',
      cycle: last.cycle,
    });
    const read = await service.artifactRead({ sessionId, id: note!.id });
    if (!read.ok) throw new Error(JSON.stringify(read.problems));
    expect(read.bytes.byteLength).toBe(note!.size);
    const lines = new TextDecoder().decode(read.bytes).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      '# Notes: Find mammals and keep notes',
      '',
      `Goal 1, written at cycle ${last.cycle}: ${goal!.findings.length} findings.`,
    ]);
    for (const finding of goal!.findings)
      expect(lines).toContain(
        `- ${finding.subject.label} ${finding.predicate.label} ${finding.object.label} (confidence ${finding.confidence.toFixed(2)})`,
      );
    expect(lines).toContain('- Dog subClassOf Mammal (confidence 0.90)');
    expect(cycles.map((record) => [record.tool, record.outcome])).toEqual([
      ['infer_rules', 'advanced'],
      ['file_io', 'completed'],
    ]);

    // Notes travel in snapshots, and come back as they were.
    const snapshot = await exportSnapshot(db, sessionId);
    expect(snapshot.artifacts).toEqual([expect.objectContaining({ name: 'goal-1-notes.md', text: lines.join('\n') })]);
    const other = new AnimaDatabase('anima', freshIndexedDb());
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(snapshot)));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
    await restoreSnapshot(other, parsed.value);
    expect(JSON.stringify(await exportSnapshot(other, sessionId))).toBe(JSON.stringify(snapshot));
  });

  it('a veto on writing files stops the note, not reading, and the goal completes without waiting for it', async () => {
    const { db, service, sessionId, run } = await agentOnStarterGraph();
    const psyche = defaultPsyche();
    psyche.shadow.vetoPatterns = [
      {
        name: 'no_writing',
        triggers: [],
        capabilityTriggers: ['writeFiles'],
        severity: 1,
        explanation: 'nothing is written',
        requireApproval: false,
      },
    ];
    await db.transaction('rw', db.psyches, () =>
      addPsycheVersion(db, { sessionId, psyche, cycle: 0, reason: 'test', now: 1 }),
    );
    expect(
      shadowViewOf(
        TOOLS.find((tool) => tool.name === 'file_io')!,
        { documentId: 1, words: ['mammal'] },
      ).capabilities,
    ).toEqual(['readFiles']);
    await service.goalAdd({
      sessionId,
      description: 'Find mammals and keep notes',
      criteria: '?x is-a mammal, at least 5',
    });
    const cycles = await run(5);
    expect(cycles.map((record) => [record.tool, record.outcome])).toEqual([
      ['infer_rules', 'advanced'],
      ['file_io', 'failed'],
      ['reason', 'completed'],
    ]);
    expect(cycles[1]!.shadow).toMatchObject({ pattern: 'no_writing', because: 'file_io uses writeFiles' });
    expect(cycles[2]!.statusChange).toMatch(/; its notes could not be written \(the action was refused\)$/);
    expect((await service.artifactList({ sessionId })).artifacts).toEqual([]);
  });

  it('writes no note for a goal that does not ask for one', async () => {
    const { service, sessionId, run } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
    const cycles = await run(20);
    expect(cycles[0]!.candidates.find((candidate) => candidate.tool === 'file_io')).toEqual({
      tool: 'file_io',
      skippedBecause: 'no document has been imported, and the goal asks for no notes',
    });
    expect((await service.artifactList({ sessionId })).artifacts).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AnimaDatabase } from '#core/store/database.ts';
import { exportSnapshot } from '#core/sessions/snapshot.ts';
import { parseSnapshot } from '#core/sessions/snapshot-check.ts';
import { restoreSnapshot } from '#core/sessions/snapshot-restore.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';

const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');

/** The starter graph, where "bat" is also a club. */
async function agentWithTwoBats() {
  const { db, service } = testService({
    db: new AnimaDatabase('anima', freshIndexedDb()),
    loadStarterGraph: async () => STARTER,
  });
  const { session } = await service.open({});
  const sessionId = session.id;
  const imported = await service.kgImport({
    sessionId,
    operationId: 'import',
    fileName: 'clubs.csv',
    data: 'Bat (club),is-a,SportsEquipment\n',
  });
  expect(imported.ok).toBe(true);
  return { db, service, sessionId };
}

describe('a goal whose question has a symbol chosen for a word', () => {
  it('is read with the chosen symbol, and keeps it across a reload and a snapshot', async () => {
    const { db, service, sessionId } = await agentWithTwoBats();
    const unsure = await service.questionRead({ sessionId, question: 'What is a bat?' });
    expect(unsure).toMatchObject({ ok: true, reading: { choices: [{ words: 'bat' }] } });
    const club = await service.questionAsk({
      sessionId,
      question: 'What is a bat?',
      chosenSymbols: [{ words: 'bat', symbol: 'Bat (club)' }],
    });
    expect(club).toMatchObject({ ok: true, answer: { kind: 'entities', entities: [{ label: 'SportsEquipment' }] } });

    const added = await service.goalAdd({
      sessionId,
      description: 'What is a bat?',
      chosenSymbols: [{ words: 'bat', symbol: 'Bat (club)' }],
    });
    expect(added).toMatchObject({ ok: true, goal: { chosenSymbols: [{ words: 'bat', label: 'Bat (club)' }] } });

    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 2 });
    expect((await service.goalList({ sessionId })).goals[0]).toMatchObject({
      status: 'completed',
      answer: { kind: 'entities', entities: [{ label: 'SportsEquipment' }] },
    });

    // Another database, as after a reload or on another device: the snapshot carries the choice.
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(await exportSnapshot(db, sessionId))));
    if (!parsed.ok) throw new Error(parsed.error[0]!.message);
    const other = new AnimaDatabase('other', freshIndexedDb());
    await restoreSnapshot(other, parsed.value);
    const [goal] = await other.goals.toArray();
    const clubId = parsed.value.symbols.find((symbol) => symbol.label === 'Bat (club)')!.id;
    expect(goal!.chosenSymbols).toEqual([{ words: 'bat', symbol: clubId }]);
  });

  it('refuses a symbol the graph lacks in one sentence naming it, and stores nothing', async () => {
    const { service, sessionId } = await agentWithTwoBats();
    const refused = await service.goalAdd({
      sessionId,
      description: 'What is a bat?',
      chosenSymbols: [{ words: 'bat', symbol: 'Cricket bat' }],
    });
    expect(refused).toEqual({
      ok: false,
      problems: [{ path: 'chosenSymbols.0', message: 'there is no symbol "Cricket bat" in this graph' }],
    });
    const notAQuestion = await service.goalAdd({
      sessionId,
      description: 'Learn about bats',
      criteria: 'wings',
      chosenSymbols: [{ words: 'bats', symbol: 'Bat' }],
    });
    expect(notAQuestion).toMatchObject({ ok: false, problems: [{ path: 'chosenSymbols' }] });
    expect((await service.goalList({ sessionId })).goals).toEqual([]);
  });

  it('refuses a snapshot whose goal chose a symbol it does not hold', async () => {
    const { db, service, sessionId } = await agentWithTwoBats();
    await service.goalAdd({
      sessionId,
      description: 'What is a bat?',
      chosenSymbols: [{ words: 'bat', symbol: 'Bat' }],
    });
    const snapshot = JSON.parse(JSON.stringify(await exportSnapshot(db, sessionId)));
    snapshot.goals[0].chosenSymbols[0].symbol = 999_999;
    delete snapshot.sha256;
    const parsed = parseSnapshot(snapshot);
    expect(parsed.ok ? [] : parsed.error).toEqual([
      { path: 'goals.0.chosenSymbols.0.symbol', message: '999999 is not a symbol of this snapshot' },
    ]);
  });
});

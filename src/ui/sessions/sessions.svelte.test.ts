import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import { type AgentApi, SNAPSHOT_VERSION } from '#core/api.ts';
import { testService } from '#core/testing/test-database.ts';
import { AgentState } from '../agent.svelte.ts';
import { type SessionsHost, SessionsView } from './sessions.svelte.ts';

/** The files the view saved through the browser's download. */
type SavedFile = { bytes: Uint8Array; fileName: string; mediaType: string };

/**
 * The app's agent state over the real service and a fresh fake-indexeddb database (one device),
 * opened; its Sessions view saves files into `saved` instead of downloading them.
 */
async function device(idPrefix = 'here') {
  const { service } = testService({ idPrefix });
  const saved: SavedFile[] = [];
  const agent = new AgentState(service);
  await agent.open();
  const sessions = new SessionsView(agent, (bytes, fileName, mediaType) => saved.push({ bytes, fileName, mediaType }));
  await sessions.load();
  return { service, agent, sessions, saved };
}

/** A view over a host whose tab only shows the session (another tab writes). */
async function readOnlyDevice() {
  const { service } = testService();
  const { session } = await service.open({});
  let reopened = 0;
  const host: SessionsHost = {
    client: service,
    canWrite: false,
    session,
    reopen: async () => void reopened++,
    showSession: () => undefined,
  };
  const saved: SavedFile[] = [];
  const sessions = new SessionsView(host, (bytes, fileName, mediaType) => saved.push({ bytes, fileName, mediaType }));
  await sessions.load();
  return { service, sessions, saved, sessionId: session.id, reopened: () => reopened };
}

const named = (sessions: SessionsView, name: string) => {
  const found = sessions.sessions.find((session) => session.name === name);
  if (!found)
    throw new Error(`no session named ${name} in ${sessions.sessions.map((session) => session.name).join(', ')}`);
  return found;
};

async function addGoals(service: AgentApi, sessionId: string, ...descriptions: string[]) {
  for (const description of descriptions) await service.goalAdd({ sessionId, description, criteria: 'volcano crater' });
}

describe('the list of sessions', () => {
  it('marks the open session, and makes a new one without opening it', async () => {
    const { agent, sessions } = await device();
    expect(sessions.sessions.map((session) => [session.name, session.isActive])).toEqual([['My session', true]]);

    expect(await sessions.create('  Mars notes ')).toBe(true);
    flushSync();
    expect(sessions.outcome).toMatchObject({
      sessionId: undefined,
      report: { tone: 'success', message: 'Created “Mars notes”. Open it to work in it.' },
    });
    expect(named(sessions, 'Mars notes')).toMatchObject({
      isActive: false,
      cycle: 0,
      goals: { total: 0, open: 0 },
      psycheVersion: 0,
    });
    expect(agent.session?.name).toBe('My session');
  });

  it('refuses an empty name in words, without asking the agent', async () => {
    const { sessions } = await device();
    expect(await sessions.create('   ')).toBe(false);
    expect(sessions.outcome?.report).toMatchObject({
      tone: 'failure',
      message: 'The session was not created: Give the session a name.',
    });
    expect(sessions.sessions).toHaveLength(1);
  });

  it('renames the open session, and the app shows its new name', async () => {
    const { agent, sessions } = await device();
    expect(await sessions.rename(named(sessions, 'My session'), 'Zoo')).toBe(true);
    expect(agent.session?.name).toBe('Zoo');
    expect(sessions.outcome?.report.message).toBe('Renamed to “Zoo”.');
    expect(sessions.sessions.map((session) => session.name)).toEqual(['Zoo']);
  });

  it('duplicates a session whole under a new name: the copy has the same goals, and the original stays open', async () => {
    const { service, agent, sessions } = await device();
    await addGoals(service, agent.sessionId, 'Learn about Mars', 'Find mammals');
    await sessions.load();
    expect(await sessions.duplicate(named(sessions, 'My session'), 'My session (copy)')).toBe(true);
    expect(named(sessions, 'My session (copy)')).toMatchObject({ isActive: false, goals: { total: 2, open: 2 } });
    expect(named(sessions, 'My session').isActive).toBe(true);
  });

  it('says a stored session is whole', async () => {
    const { sessions } = await device();
    const session = named(sessions, 'My session');
    await sessions.check(session);
    expect(sessions.outcome).toEqual({
      sessionId: session.id,
      report: { tone: 'success', message: 'Whole: no problems found.', problems: [], warnings: [] },
    });
  });
});

describe('opening another session', () => {
  it('opens it afresh: the goals, cycles, approvals and reflections on show are then the new session’s', async () => {
    const { service, agent, sessions } = await device();
    await addGoals(service, agent.sessionId, 'Learn about Mars');
    await service.agentRun({ sessionId: agent.sessionId, operationId: 'run', maxCycles: 1 });
    await agent.run.loadGoals();
    await agent.run.loadCycles();
    await agent.reflections.load();
    await agent.approvals.load();
    expect(agent.run.goals.map((goal) => goal.description)).toEqual(['Learn about Mars']);
    expect(agent.run.cycles).toHaveLength(1);
    await sessions.create('Empty');

    await sessions.openSession(named(sessions, 'Empty'));
    flushSync();
    expect(sessions.outcome?.report.message).toBe('Opened “Empty”.');
    expect(agent.status).toBe('ready');
    expect(agent.session?.name).toBe('Empty');
    expect(named(sessions, 'Empty').isActive).toBe(true);
    expect(named(sessions, 'My session').isActive).toBe(false);
    // Nothing of the old session is left to show while the new one's lists are fetched.
    expect([agent.run.goals, agent.run.cycles, agent.reflections.reflections, agent.approvals.approvals]).toEqual([
      [],
      [],
      [],
      [],
    ]);
    expect([agent.run.goalsStatus, agent.run.cyclesStatus, agent.reflections.status, agent.approvals.status]).toEqual([
      'loading',
      'loading',
      'loading',
      'loading',
    ]);
    await agent.run.loadGoals();
    expect(agent.run.goals).toEqual([]);
    expect(sessions.takeFocusRequest()).toBe(true);
    expect(sessions.takeFocusRequest()).toBe(false);
  });

  it('drops a list of the old session that arrives after the switch', async () => {
    const { service } = testService();
    let releaseGoals: () => void = () => undefined;
    // The old session's goals are answered only once the switch is done.
    const client = new Proxy(service, {
      get: (target, key: keyof AgentApi) =>
        key === 'goalList'
          ? async (args: Parameters<AgentApi['goalList']>[0]) => {
              await new Promise<void>((resolve) => (releaseGoals = resolve));
              return target.goalList(args);
            }
          : target[key],
    });
    const agent = new AgentState(client);
    await agent.open();
    await addGoals(service, agent.sessionId, 'Learn about Mars');
    const created = await service.sessionCreate({ name: 'Empty' });
    if (!created.ok) throw new Error('not created');

    const staleLoad = agent.run.loadGoals();
    await agent.sessions.openSession(created.session);
    releaseGoals();
    await staleLoad;
    expect(agent.session?.id).toBe(created.session.id);
    expect(agent.run.goals).toEqual([]);
  });

  it('refuses while a run is in progress, says why, and keeps the session open', async () => {
    const { service, agent, sessions } = await device();
    await addGoals(service, agent.sessionId, 'Learn about Mars');
    await sessions.create('Empty');
    const opened = agent.session;

    const run = service.agentRun({ sessionId: agent.sessionId, operationId: 'long-run', maxCycles: 20 });
    await sessions.openSession(named(sessions, 'Empty'));
    await service.cancel({ operationId: 'long-run' });
    await run;
    expect(sessions.outcome?.report).toMatchObject({
      tone: 'failure',
      message:
        '“Empty” was not opened: a run, an import or a download is in progress: wait for it to end (or pause the run), then try again.',
    });
    expect(agent.session).toEqual(opened);
    expect(named(sessions, 'My session').isActive).toBe(true);
  });

  it('deletes the open session: the most recently changed other one opens, and the report says which', async () => {
    const { agent, sessions } = await device();
    await sessions.create('Mars notes');
    await sessions.remove(named(sessions, 'My session'));
    expect(sessions.outcome?.report.message).toBe('Deleted “My session”. “Mars notes” is open now.');
    expect(agent.session?.name).toBe('Mars notes');
    expect(sessions.sessions.map((session) => [session.name, session.isActive])).toEqual([['Mars notes', true]]);
  });

  it('deletes a session that is not open and keeps the open one', async () => {
    const { agent, sessions } = await device();
    await sessions.create('Old');
    const opened = agent.session;
    await sessions.remove(named(sessions, 'Old'));
    expect(sessions.outcome?.report.message).toBe('Deleted “Old”.');
    expect(agent.session).toBe(opened);
    expect(sessions.takeFocusRequest()).toBe(false);
  });
});

describe('snapshot files', () => {
  it('exports a session, and another device previews the file, imports it with its goals and cycles, and opens it', async () => {
    const here = await device('here');
    await addGoals(here.service, here.agent.sessionId, 'Learn about Mars', 'Find mammals');
    await here.service.agentRun({ sessionId: here.agent.sessionId, operationId: 'run', maxCycles: 2 });
    await here.sessions.rename(named(here.sessions, 'My session'), 'Mars notes');
    await here.sessions.exportFile(named(here.sessions, 'Mars notes'), false);
    expect(here.saved.map(({ fileName, mediaType }) => [fileName, mediaType])).toEqual([
      ['mars-notes.anima.json', 'application/json'],
    ]);
    expect(here.sessions.outcome?.report.message).toBe('Saved mars-notes.anima.json.');

    const there = await device('there');
    await there.sessions.chooseFile('mars-notes.anima.json', here.saved[0]!.bytes);
    expect(there.sessions.importState).toMatchObject({
      status: 'checked',
      preview: { name: 'Mars notes', cycle: 2, goals: 2, exists: false, fileVersion: SNAPSHOT_VERSION },
    });
    await there.sessions.importFile();
    expect(there.sessions.importState).toMatchObject({
      status: 'imported',
      report: { tone: 'success', message: 'Imported “Mars notes” from mars-notes.anima.json.', warnings: [] },
    });
    expect(named(there.sessions, 'Mars notes')).toMatchObject({ isActive: false, cycle: 2, goals: { total: 2 } });

    await there.sessions.openSession(named(there.sessions, 'Mars notes'));
    expect(there.sessions.importState.status).toBe('idle');
    await there.agent.run.loadGoals();
    await there.agent.run.loadCycles();
    expect(there.agent.run.goals.map((goal) => goal.description)).toEqual(['Learn about Mars', 'Find mammals']);
    expect(there.agent.run.cycles.map((record) => record.cycle)).toEqual([2, 1]);
  });

  it('exports gzipped, and the gzipped file imports', async () => {
    const here = await device('here');
    await here.sessions.exportFile(named(here.sessions, 'My session'), true);
    const [file] = here.saved;
    expect([file!.fileName, file!.mediaType, file!.bytes[0], file!.bytes[1]]).toEqual([
      'my-session.anima.json.gz',
      'application/gzip',
      0x1f,
      0x8b,
    ]);
    const there = await device('there');
    await there.sessions.chooseFile(file!.fileName, file!.bytes);
    await there.sessions.importFile();
    expect(there.sessions.importState.status).toBe('imported');
    expect(there.sessions.sessions).toHaveLength(2);
  });

  it('offers a copy or a replacement for a file whose session is here already', async () => {
    const { service, agent, sessions, saved } = await device();
    await sessions.exportFile(named(sessions, 'My session'), false);
    await addGoals(service, agent.sessionId, 'Added after the export');
    await sessions.chooseFile('my-session.anima.json', saved[0]!.bytes);
    expect(sessions.importState).toMatchObject({ status: 'checked', preview: { exists: true, goals: 0 } });

    await sessions.importFile({ as: 'copy', name: 'As it was' });
    expect(named(sessions, 'As it was')).toMatchObject({ isActive: false, goals: { total: 0 } });
    expect(named(sessions, 'My session').goals.total).toBe(1);

    await agent.run.loadGoals();
    await sessions.chooseFile('my-session.anima.json', saved[0]!.bytes);
    await sessions.importFile({ as: 'replace' });
    expect(sessions.importState).toMatchObject({ status: 'imported' });
    expect(named(sessions, 'My session').goals.total).toBe(0);
    // The open session was replaced: the app opened it afresh, without the goal it had.
    expect(agent.run.goals).toEqual([]);
    expect(agent.status).toBe('ready');
  });

  it('imports a session whose persona this device has with other content, and warns that it wears none', async () => {
    const here = await device('here');
    await here.service.personaCreate({ fields: { name: 'Mentor', summary: 'A patient teacher.' } });
    await here.service.sessionPersonaSet({ sessionId: here.agent.sessionId, persona: 'Mentor' });
    await here.sessions.load();
    expect(named(here.sessions, 'My session').persona).toBe('Mentor');
    await here.sessions.exportFile(named(here.sessions, 'My session'), false);

    const there = await device('there');
    await there.service.personaCreate({ fields: { name: 'Mentor', summary: 'A stern examiner.' } });
    await there.sessions.chooseFile('my-session.anima.json', here.saved[0]!.bytes);
    expect(there.sessions.importState).toMatchObject({ status: 'checked', preview: { persona: 'Mentor' } });
    await there.sessions.importFile();
    expect(there.sessions.importState).toMatchObject({
      status: 'imported',
      report: {
        tone: 'success',
        warnings: [
          expect.stringMatching(
            /^at persona: the session wore the persona "Mentor", which this device's catalog has with other content/,
          ),
        ],
      },
    });
  });

  it('refuses a tampered file, says where it is wrong, and changes nothing', async () => {
    const { service, agent, sessions, saved } = await device();
    await addGoals(service, agent.sessionId, 'Learn about Mars');
    await sessions.exportFile(named(sessions, 'My session'), false);
    const text = new TextDecoder().decode(saved[0]!.bytes).replace('Learn about Mars', 'Learn about Mart');
    const before = $state.snapshot(sessions.sessions);

    await sessions.chooseFile('tampered.anima.json', new TextEncoder().encode(text));
    expect(sessions.importState).toMatchObject({
      status: 'refused',
      report: {
        tone: 'failure',
        message: 'tampered.anima.json cannot be imported; nothing changed:',
        problems: [
          'at sha256: the content does not match its SHA-256: the file was changed or damaged after it was exported',
        ],
      },
    });
    await sessions.load();
    expect(sessions.sessions).toEqual(before);
  });
});

describe('a tab that only shows the session', () => {
  it('cannot make, open, rename or delete sessions, nor import, but can export and check them', async () => {
    const { service, sessions, saved, sessionId, reopened } = await readOnlyDevice();
    const session = sessions.sessions[0]!;
    expect(sessions.blockedReason).toBe(
      'Anima is open in another tab, and only that tab can change sessions: close it to change them here.',
    );
    expect(await sessions.create('Mars')).toBe(false);
    expect(await sessions.rename(session, 'Zoo')).toBe(false);
    await sessions.remove(session);
    await sessions.openSession(session);
    expect(reopened()).toBe(0);
    expect((await service.sessionList({})).sessions.map((stored) => stored.name)).toEqual(['My session']);

    await sessions.exportFile(session, false);
    expect(saved).toHaveLength(1);
    await sessions.check(session);
    expect(sessions.outcome?.report.message).toBe('Whole: no problems found.');

    await sessions.chooseFile('my-session.anima.json', saved[0]!.bytes);
    expect(sessions.importState).toMatchObject({ status: 'checked', preview: { id: sessionId, exists: true } });
    await sessions.importFile({ as: 'copy', name: 'Copy' });
    expect(sessions.importState.status).toBe('checked');
  });
});

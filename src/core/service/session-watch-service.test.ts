import { describe, expect, it } from 'vitest';
import { withContractChecks } from '#core/api.ts';
import type { ChangeFeed } from '#core/change-feed.ts';
import { createAgentService, type WriteAccess } from './service.ts';
import type { SessionEvent } from '#core/api/session-watch-contract.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { freshIndexedDb } from '#core/testing/test-database.ts';

const STARTER = `@prefix : <urn:anima:kg#> .
:Dog :is-a :Canine . :Canine :is-a :Mammal .
`;

/**
 * Tabs of one browser: one database, and a feed between them that, like a BroadcastChannel,
 * delivers a tab's notices (uncoalesced) to every other tab, when the test lets them arrive.
 */
function browser() {
  const indexedDb = freshIndexedDb();
  const feeds: { listeners: (() => void)[]; announced: number }[] = [];
  const deliveries: (() => void)[] = [];
  const tab = (writeAccess?: WriteAccess) => {
    const feed = { listeners: [] as (() => void)[], announced: 0 };
    feeds.push(feed);
    const changeFeed: ChangeFeed = {
      announce: () => {
        feed.announced++;
        for (const other of feeds)
          if (other !== feed) deliveries.push(() => other.listeners.forEach((listener) => listener()));
      },
      onChange: (listener) => feed.listeners.push(listener),
    };
    let nextId = 1;
    const service = withContractChecks(
      createAgentService({
        db: new AnimaDatabase('anima', indexedDb),
        now: () => 1_700_000_000_000,
        newId: () => `session-${nextId++}`,
        loadStarterGraph: async () => STARTER,
        changeFeed,
        ...(writeAccess ? { writeAccess } : {}),
      }),
    );
    return { service, feed };
  };
  /** Lets the notices sent so far arrive. */
  const deliver = () => {
    for (const delivery of deliveries.splice(0)) delivery();
  };
  return { tab, deliver };
}

/** Write access another tab holds until `grant()`. */
function heldElsewhere() {
  let isGranted = false;
  const listeners: (() => void)[] = [];
  const writeAccess: WriteAccess = {
    ready: Promise.resolve(),
    canWrite: () => isGranted,
    onGranted: (listener) => listeners.push(listener),
  };
  const grant = () => {
    isGranted = true;
    for (const listener of listeners) listener();
  };
  return { writeAccess, grant };
}

/** Starts a session watch, recording its events. */
function watch(service: ReturnType<ReturnType<typeof browser>['tab']>['service'], operationId = 'watch') {
  const events: SessionEvent[] = [];
  const ended = service.sessionWatch({ operationId }, (event) => events.push(event));
  return { events, ended };
}

describe('session watch: two tabs', () => {
  it("shows a read-only tab the writer's import once the notice arrives", async () => {
    const { tab, deliver } = browser();
    const writer = tab();
    const { session } = await writer.service.open({});
    const reader = tab(heldElsewhere().writeAccess);
    expect((await reader.service.open({})).stats.triples).toBe(2);
    const readerWatch = watch(reader.service);

    await writer.service.kgImport({
      sessionId: session.id,
      operationId: 'import',
      fileName: 'pets.csv',
      data: 'Rex,is-a,Dog\n',
    });
    deliver();

    expect(readerWatch.events).toEqual([{ kind: 'changed' }]);
    expect((await reader.service.kgStats({ sessionId: session.id })).triples).toBe(3);
    const rex = (await reader.service.kgSearch({ sessionId: session.id, text: 'Rex' })).hits.map(
      (hit) => hit.symbol.label,
    );
    expect(rex).toEqual(['Rex']);
  });

  it('announces every kind of change the writer commits: goals, settings, the persona catalog', async () => {
    const { tab } = browser();
    const writer = tab();
    const { session } = await writer.service.open({});
    const announcedBefore = writer.feed.announced;

    expect(
      await writer.service.goalAdd({ sessionId: session.id, description: 'Learn about dogs', criteria: 'Dog is-a ?x' }),
    ).toMatchObject({ ok: true });
    expect(writer.feed.announced).toBe(announcedBefore + 1);
    expect(
      await writer.service.webAccessSet({
        webAccess: { allowedPrefixes: ['https://example.org/'], timeoutSeconds: 5, maxKilobytes: 64 },
      }),
    ).toMatchObject({ ok: true });
    expect(writer.feed.announced).toBe(announcedBefore + 2);
    expect(
      await writer.service.partCreate({ fields: { name: 'calm-tone', type: 'tone', summary: 'speaks calmly' } }),
    ).toMatchObject({ ok: true });
    expect(writer.feed.announced).toBe(announcedBefore + 3);
    expect(
      await writer.service.agentSettingsSet({
        sessionId: session.id,
        settings: { planning: false, reflectionInterval: 2, maxFailedPlans: 1 },
      }),
    ).toMatchObject({ ok: true });
    expect(writer.feed.announced).toBe(announcedBefore + 4);
  });

  it('keeps a read-only tab silent: it refuses changes without announcing, and opening announces nothing', async () => {
    const { tab } = browser();
    const writer = tab();
    const { session } = await writer.service.open({});
    const reader = tab(heldElsewhere().writeAccess);
    await reader.service.open({});
    expect(await reader.service.goalAdd({ sessionId: session.id, description: 'Learn about cats' })).toMatchObject({
      ok: false,
    });
    expect(reader.feed.announced).toBe(0);
  });

  it('tells a tab that takes over, which then writes and ignores notices sent before it did', async () => {
    const { tab, deliver } = browser();
    const writer = tab();
    const { session } = await writer.service.open({});
    const access = heldElsewhere();
    const reader = tab(access.writeAccess);
    await reader.service.open({});
    const readerWatch = watch(reader.service);

    // A notice still on its way when the first tab closes and this one takes over.
    await writer.service.kgImport({
      sessionId: session.id,
      operationId: 'import',
      fileName: 'pets.csv',
      data: 'Rex,is-a,Dog\n',
    });
    access.grant();
    deliver();

    expect(readerWatch.events).toEqual([{ kind: 'write-access' }]);
    expect((await reader.service.kgStats({ sessionId: session.id })).triples).toBe(3);
    expect(
      await reader.service.kgImport({
        sessionId: session.id,
        operationId: 'import',
        fileName: 'cats.csv',
        data: 'Tabby,is-a,Cat\n',
      }),
    ).toMatchObject({ ok: true, stats: { triples: 4 } });
    expect(reader.feed.announced).toBe(1);
  });

  it('says at once that a tab already holding write access has it, and ends the watch when cancelled', async () => {
    const { tab } = browser();
    const writer = tab();
    await writer.service.open({});
    const writerWatch = watch(writer.service, 'watch-1');
    expect(writerWatch.events).toEqual([{ kind: 'write-access' }]);

    expect(await writer.service.cancel({ operationId: 'watch-1' })).toEqual({ isCancelled: true });
    await expect(writerWatch.ended).resolves.toEqual({});
    expect(await writer.service.cancel({ operationId: 'watch-1' })).toEqual({ isCancelled: false });
  });
});

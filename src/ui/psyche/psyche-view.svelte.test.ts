import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { AgentApi } from '#core/api.ts';
import { fakePsycheAgent, scholar } from './fake-psyche-agent.ts';
import { PsycheView } from './psyche-view.svelte.ts';

describe('PsycheView', () => {
  it('shows the current psyche and its history', async () => {
    const { host } = fakePsycheAgent();
    const view = new PsycheView(host);
    await view.load();
    flushSync();
    expect(view.status).toBe('ready');
    expect(view.current?.psyche.persona.name).toBe('Scholar');
    expect(view.history.map((entry) => entry.version)).toEqual([1]);
  });

  it('fetches the history again only when the version changed (a cycle mostly changes nothing)', async () => {
    const { host, calls } = fakePsycheAgent();
    const view = new PsycheView(host);
    await view.load();
    await view.load();
    expect(calls.filter((call) => call === 'psycheHistory')).toHaveLength(1);
    const psyche = scholar();
    psyche.persona.name = 'Explorer';
    await view.save(psyche);
    expect(calls.filter((call) => call === 'psycheHistory')).toHaveLength(2);
    expect(view.history.map((entry) => entry.version)).toEqual([1, 2]);
  });

  it('saves, imports and restores, each as a new version, and fetches the history again', async () => {
    const { host } = fakePsycheAgent();
    const view = new PsycheView(host);
    await view.load();

    const psyche = scholar();
    psyche.persona.name = 'Explorer';
    expect(await view.save(psyche)).toMatchObject({ tone: 'success', message: 'Saved as version 2.' });
    expect(await view.importToml('explorer = 0.9', 'psyche.toml')).toMatchObject({
      tone: 'success',
      message: 'Imported psyche.toml as version 3.',
    });
    expect(view.current?.psyche.archetypes.explorer).toBe(0.9);
    expect(await view.restore(1)).toMatchObject({ tone: 'success', message: 'Restored version 1 as version 4.' });
    expect(view.current?.psyche.archetypes.explorer).toBe(0.5);
    expect(view.history.map((entry) => entry.reason)).toEqual([
      'default',
      'saved',
      'imported psyche.toml',
      'restored version 1',
    ]);
  });

  it('changes nothing when an import is invalid, and says where', async () => {
    const { host, versions } = fakePsycheAgent();
    const view = new PsycheView(host);
    await view.load();
    const report = await view.importToml('explorer = 0.9\nsage = lots', 'mine.toml');
    expect(report).toEqual({
      tone: 'failure',
      message: 'mine.toml was not imported; nothing changed:',
      problems: ['line 2: cannot read "sage = lots"'],
      warnings: [],
    });
    expect(versions).toHaveLength(1);
    expect(view.current?.version).toBe(1);
  });

  it('changes nothing in a read-only tab, and says why', async () => {
    const { host, calls } = fakePsycheAgent({ canWrite: false });
    const view = new PsycheView(host);
    expect(view.blockedReason).toMatch(/open in another tab/);
    expect(await view.restore(1)).toMatchObject({ tone: 'failure', message: view.blockedReason });
    expect(calls).toEqual([]);
  });

  it('reports a psyche that cannot be fetched, and a change that fails', async () => {
    const failing = {
      psycheGet: async () => Promise.reject(new Error('not implemented')),
      psycheHistory: async () => ({ versions: [] }),
      psycheSave: async () => Promise.reject(new Error('not implemented')),
    };
    const view = new PsycheView({ client: failing as unknown as AgentApi, sessionId: 's', canWrite: true });
    await view.load();
    expect(view.status).toBe('error');
    expect(view.errorMessage).toBe('not implemented');
    expect(await view.save(scholar())).toEqual({
      tone: 'failure',
      message: 'Nothing changed: not implemented',
      problems: [],
      warnings: [],
    });
  });
});

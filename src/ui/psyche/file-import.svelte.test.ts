import { describe, expect, it } from 'vitest';
import { fakePsycheAgent } from './fake-psyche-agent.ts';
import { PsycheFileImport } from './file-import.svelte.ts';
import { PsycheView } from './psyche-view.svelte.ts';

describe('PsycheFileImport', () => {
  it('previews a valid file and imports it only once confirmed', async () => {
    const { host, calls } = fakePsycheAgent();
    const view = new PsycheView(host);
    const fileImport = new PsycheFileImport(view);
    await fileImport.choose('explorer.toml', 'explorer = 0.8');
    expect(fileImport.state.status === 'checked' && fileImport.state.check.status === 'valid' && fileImport.state.check.psyche.archetypes.explorer).toBe(0.8);
    expect(calls).toEqual(['psycheCheck explorer = 0.8']);

    await fileImport.confirm();
    expect(fileImport.state).toMatchObject({ status: 'ended', report: { tone: 'success', message: 'Imported explorer.toml as version 2.' } });
    expect(view.current?.psyche.archetypes.explorer).toBe(0.8);
  });

  it('does not import an invalid file, nor a cancelled one', async () => {
    const { host, versions } = fakePsycheAgent();
    const fileImport = new PsycheFileImport(new PsycheView(host));
    await fileImport.choose('broken.toml', 'explorer = ?');
    expect(fileImport.state).toMatchObject({ status: 'checked', check: { status: 'invalid', problems: ['line 1: cannot read "explorer = ?"'] } });
    await fileImport.confirm();
    expect(versions).toHaveLength(1);

    await fileImport.choose('fine.toml', 'explorer = 0.6');
    fileImport.cancel();
    await fileImport.confirm();
    expect(fileImport.state).toEqual({ status: 'idle' });
    expect(versions).toHaveLength(1);
  });

  it('says that a file could not be read', () => {
    const fileImport = new PsycheFileImport(new PsycheView(fakePsycheAgent().host));
    fileImport.failToRead('big.toml', new Error('too large'));
    expect(fileImport.state).toMatchObject({ status: 'ended', report: { tone: 'failure', message: 'big.toml could not be read; nothing changed: too large' } });
  });
});

import { describe, expect, it } from 'vitest';
import { fakePsycheAgent } from './fake-psyche-agent.ts';
import { PsycheFileImport } from './file-import.svelte.ts';
import { PsycheView } from './psyche-view.svelte.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('PsycheFileImport', () => {
  it('previews a valid file and imports it only once confirmed', async () => {
    const { host, calls } = fakePsycheAgent();
    const view = new PsycheView(host);
    const fileImport = new PsycheFileImport(view);
    await fileImport.choose('explorer.toml', utf8('explorer = 0.8'));
    expect(
      fileImport.state.status === 'checked' &&
        fileImport.state.check.status === 'valid' &&
        fileImport.state.check.psyche.archetypes.explorer,
    ).toBe(0.8);
    expect(calls).toEqual(['psycheCheck explorer = 0.8']);

    await fileImport.confirm();
    expect(fileImport.state).toMatchObject({
      status: 'ended',
      report: { tone: 'success', message: 'Imported explorer.toml as version 2.' },
    });
    expect(view.current?.psyche.archetypes.explorer).toBe(0.8);
  });

  it('does not import an invalid file, nor a cancelled one', async () => {
    const { host, versions } = fakePsycheAgent();
    const fileImport = new PsycheFileImport(new PsycheView(host));
    await fileImport.choose('broken.toml', utf8('explorer = ?'));
    expect(fileImport.state).toMatchObject({
      status: 'checked',
      check: { status: 'invalid', problems: ['line 1: cannot read "explorer = ?"'] },
    });
    await fileImport.confirm();
    expect(versions).toHaveLength(1);

    await fileImport.choose('fine.toml', utf8('explorer = 0.6'));
    fileImport.cancel();
    await fileImport.confirm();
    expect(fileImport.state).toEqual({ status: 'idle' });
    expect(versions).toHaveLength(1);
  });

  it('refuses a file that is not UTF-8 with the byte offset, without asking the agent, and cannot import it', async () => {
    const { host, calls, versions } = fakePsycheAgent();
    const fileImport = new PsycheFileImport(new PsycheView(host));
    await fileImport.choose('latin1.toml', Uint8Array.from([...utf8('[persona]\nname = "Cl'), 0xe9, ...utf8('rk"\n')]));
    expect(fileImport.state).toMatchObject({
      status: 'checked',
      check: {
        status: 'invalid',
        problems: [
          'line 2: the file is not UTF-8 text: the byte 0xE9 at offset 20 (counting from 0) does not start a UTF-8 character; save the file as UTF-8',
        ],
      },
    });
    await fileImport.confirm();
    expect(calls).toEqual([]);
    expect(versions).toHaveLength(1);
  });

  it('says that a file could not be read', () => {
    const fileImport = new PsycheFileImport(new PsycheView(fakePsycheAgent().host));
    fileImport.failToRead('big.toml', new Error('too large'));
    expect(fileImport.state).toMatchObject({
      status: 'ended',
      report: { tone: 'failure', message: 'big.toml could not be read; nothing changed: too large' },
    });
  });
});

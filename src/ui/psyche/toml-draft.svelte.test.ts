import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakePsycheAgent } from './fake-psyche-agent.ts';
import { PsycheView } from './psyche-view.svelte.ts';
import { CHECK_DELAY_MS, TomlDraft } from './toml-draft.svelte.ts';

describe('TomlDraft', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  function draftOfFakeAgent() {
    const agent = fakePsycheAgent();
    const view = new PsycheView(agent.host);
    return { draft: new TomlDraft((toml) => view.check(toml)), calls: agent.calls };
  }

  it('checks the text once typing pauses, only the latest text', async () => {
    const { draft, calls } = draftOfFakeAgent();
    draft.reset('explorer = 0.5');
    draft.edit('explorer = 0.');
    draft.edit('explorer = 0.9');
    expect(draft.check.status).toBe('checking');
    await vi.advanceTimersByTimeAsync(CHECK_DELAY_MS);
    flushSync();
    expect(calls).toEqual(['psycheCheck explorer = 0.9']);
    expect(draft.check).toMatchObject({ status: 'valid', warnings: [] });
    expect(draft.canImport).toBe(true);
  });

  it('shows the problems with their lines and allows no import of invalid text', async () => {
    const { draft } = draftOfFakeAgent();
    draft.reset('explorer = 0.5');
    draft.edit('explorer = 0.5\n[archetypes\n');
    await vi.advanceTimersByTimeAsync(CHECK_DELAY_MS);
    flushSync();
    expect(draft.check).toEqual({ status: 'invalid', problems: ['line 2: cannot read "[archetypes"'], warnings: [] });
    expect(draft.canImport).toBe(false);
  });

  it('offers no import of the unchanged text, and forgets a pending check when reset', async () => {
    const { draft, calls } = draftOfFakeAgent();
    draft.reset('explorer = 0.5');
    await draft.checkNow();
    expect(draft.check.status).toBe('valid');
    expect(draft.canImport).toBe(false);

    draft.edit('explorer = 0.7');
    draft.reset('explorer = 0.7');
    await vi.advanceTimersByTimeAsync(CHECK_DELAY_MS);
    expect(calls).toEqual(['psycheCheck explorer = 0.5']);
    expect(draft.check).toEqual({ status: 'idle' });
  });

  it('says when the text cannot be checked', async () => {
    const draft = new TomlDraft(async () => Promise.reject(new Error('not implemented')));
    draft.edit('explorer = 0.9');
    await vi.advanceTimersByTimeAsync(CHECK_DELAY_MS);
    expect(draft.check).toEqual({ status: 'failed', message: 'not implemented' });
  });
});

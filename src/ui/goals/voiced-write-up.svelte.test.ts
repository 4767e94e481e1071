import { describe, expect, it } from 'vitest';
import type { AgentApi } from '#core/api.ts';
import { VoicedWriteUp } from './voiced-write-up.svelte.ts';

const use = {
  provider: 'webllm',
  model: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
  requests: 1,
  promptTokens: 10,
  completionTokens: 5,
};

function hostAnswering(answer: Awaited<ReturnType<AgentApi['synthesizeInVoice']>>) {
  const cancelled: string[] = [];
  const client = {
    synthesizeInVoice: async () => answer,
    cancel: async ({ operationId }: { operationId: string }) => {
      cancelled.push(operationId);
      return { isCancelled: true };
    },
  } satisfies Partial<AgentApi>;
  return { host: { client: client as unknown as AgentApi, sessionId: 's' }, cancelled };
}

describe('VoicedWriteUp', () => {
  it('shows the prose, the persona and model, and each finding marked cited or not', async () => {
    const { host } = hostAnswering({
      ok: true,
      persona: 'Old Sailor',
      text: 'Arr [2].',
      findings: ['Dog -> is-a -> Mammal [1.00]', 'Dog -> has -> Tail [1.00]'],
      cites: [2],
      model: use,
    });
    const voiced = new VoicedWriteUp(host, 1, () => 'op');
    await voiced.write();
    expect(voiced.state).toEqual({
      status: 'written',
      persona: 'Old Sailor',
      model: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
      text: 'Arr [2].',
      findings: [
        { number: 1, line: 'Dog -> is-a -> Mammal [1.00]', isCited: false },
        { number: 2, line: 'Dog -> has -> Tail [1.00]', isCited: true },
      ],
    });
  });

  it('says where to choose a model when none is chosen, and gives the bottleneck in full', async () => {
    const none = new VoicedWriteUp(
      hostAnswering({ ok: false, reason: 'no-model', problems: [{ message: 'no language model is chosen' }] }).host,
      1,
    );
    await none.write();
    expect(none.state).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('Settings, Language model'),
      problems: [],
    });
    const stuck = new VoicedWriteUp(
      hostAnswering({
        ok: false,
        reason: 'bottleneck',
        problems: [{ message: 'the model did not write it (missing_input): too few findings' }],
        model: use,
      }).host,
      1,
    );
    await stuck.write();
    expect(stuck.state).toEqual({
      status: 'failed',
      message: 'The model did not write it:',
      problems: ['the model did not write it (missing_input): too few findings'],
    });
  });

  it('stops a write-up in progress by cancelling its operation', async () => {
    const { host, cancelled } = hostAnswering({ ok: false, reason: 'cancelled', problems: [{ message: 'cancelled' }] });
    const voiced = new VoicedWriteUp(host, 1, () => 'op-7');
    const writing = voiced.write();
    expect(voiced.state).toEqual({ status: 'writing', operationId: 'op-7' });
    await voiced.stop();
    await writing;
    expect(cancelled).toEqual(['op-7']);
    expect(voiced.state).toMatchObject({ status: 'failed', message: 'Stopped: nothing was written.' });
  });
});

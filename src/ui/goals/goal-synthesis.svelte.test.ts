import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { AgentApi } from '#core/api.ts';
import { GoalSynthesis, type SynthesisHost } from './goal-synthesis.svelte.ts';

/** A fake agent that writes "<grammar>: findings" and knows one custom grammar; it can hold answers back. */
function fakeHost(options: { isHolding?: boolean; refusal?: string } = {}) {
  const calls: (string | undefined)[] = [];
  const held: (() => void)[] = [];
  const client = {
    synthesize: async ({ grammar }: { grammar?: string }) => {
      calls.push(grammar);
      if (options.isHolding) await new Promise<void>((resolve) => held.push(resolve));
      if (options.refusal) return { ok: false as const, problems: [{ path: 'grammar', message: options.refusal }] };
      const used = grammar ?? 'formal';
      return {
        ok: true as const,
        grammar: used,
        text: `${used}: findings`,
        grammars: ['narrative', 'formal', 'terse', 'scholarly'],
      };
    },
  } satisfies Partial<AgentApi>;
  const host: SynthesisHost = { client: client as unknown as AgentApi, sessionId: 's' };
  return { host, calls, held };
}

describe('GoalSynthesis', () => {
  it("writes in the persona's grammar first, then in the one chosen, offering the custom grammar too", async () => {
    const { host, calls } = fakeHost();
    const synthesis = new GoalSynthesis(host, 1);
    await synthesis.write();
    flushSync();
    expect(synthesis.state).toEqual({ status: 'written', grammar: 'formal', text: 'formal: findings' });
    expect(synthesis.grammar).toBe('formal');
    expect(synthesis.grammars).toEqual(['narrative', 'formal', 'terse', 'scholarly']);

    await synthesis.write('scholarly');
    expect(synthesis.state).toMatchObject({ grammar: 'scholarly', text: 'scholarly: findings' });
    expect(calls).toEqual([undefined, 'scholarly']);
  });

  it('shows only the answer to the latest request', async () => {
    const { host, held } = fakeHost({ isHolding: true });
    const synthesis = new GoalSynthesis(host, 1);
    const first = synthesis.write('terse');
    const second = synthesis.write('narrative');
    expect(synthesis.grammar).toBe('narrative');
    held[1]?.();
    await second;
    held[0]?.();
    await first;
    expect(synthesis.state).toMatchObject({ grammar: 'narrative' });
  });

  it('says why the findings could not be written up', async () => {
    const { host } = fakeHost({ refusal: 'no grammar named "nope"' });
    const synthesis = new GoalSynthesis(host, 1);
    await synthesis.write('nope');
    expect(synthesis.state).toEqual({
      status: 'failed',
      message: 'The findings could not be written up:',
      problems: ['at grammar: no grammar named "nope"'],
    });
  });
});

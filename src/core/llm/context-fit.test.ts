import { describe, expect, it } from 'vitest';
import { fitToContext } from './context-fit.ts';
import { PHI3_VISION_MAX_IMAGE_TOKENS } from './image-tokens.ts';
import type { ChatMessage } from './provider.ts';
import { webLlmImageTokens } from './webllm-tokens.ts';

/** A context that counts a token per word. */
const windowOf = (tokens: number) => ({
  tokens,
  count: async (text: string) => text.split(/\s+/).filter(Boolean).length,
});
const words = (count: number, word: string) => Array.from({ length: count }, () => word).join(' ');

// Each message costs its words and 8 tokens of template; a prompt 16 more.
const conversation: ChatMessage[] = [
  { role: 'system', content: words(20, 'rule') },
  { role: 'user', content: words(30, 'question') },
  { role: 'assistant', content: words(10, 'call1') },
  { role: 'user', content: words(40, 'result1') },
  { role: 'assistant', content: words(10, 'call2') },
  { role: 'user', content: words(40, 'result2') },
];
// 20 + 30 + 10 + 40 + 10 + 40 = 150 words, 6 × 8 = 48, and 16: 214 tokens.

describe('a prompt fitted to the context window', () => {
  it('is sent whole when it fits with room for the answer', async () => {
    expect(await fitToContext(windowOf(314), conversation, 100)).toEqual({
      ok: true,
      messages: conversation,
      leftOut: 0,
    });
  });

  it('leaves out the oldest steps after the question, keeping the system prompt, the question and the last message', async () => {
    const fitted = await fitToContext(windowOf(313), conversation, 100);
    expect(fitted).toEqual({
      ok: true,
      messages: [conversation[0], conversation[1], conversation[4], conversation[5]],
      leftOut: 2,
    });
    // Two more steps: the oldest go first, as many as need to.
    const longer = [
      ...conversation,
      { role: 'assistant' as const, content: words(10, 'call3') },
      { role: 'user' as const, content: words(40, 'result3') },
    ];
    expect(await fitToContext(windowOf(313), longer, 100)).toEqual({
      ok: true,
      messages: [longer[0], longer[1], longer[6], longer[7]],
      leftOut: 4,
    });
    expect(await fitToContext(windowOf(350), longer, 100)).toEqual({
      ok: true,
      messages: [longer[0], longer[1], longer[4], longer[5], longer[6], longer[7]],
      leftOut: 2,
    });
  });

  it('says what the question needs when even the question and the last message do not fit', async () => {
    // The system prompt, the question, the last call and its result: 20 + 30 + 10 + 40 words, 4 × 8 and 16; then 40 for the answer.
    expect(await fitToContext(windowOf(150), conversation, 40)).toEqual({
      ok: false,
      needed: 100 + 32 + 16 + 40,
      window: 150,
    });
  });

  it('keeps at most half the window for the answer, so a large answer limit does not crowd out every prompt', async () => {
    expect(await fitToContext(windowOf(428), conversation, 4096)).toMatchObject({ ok: true, leftOut: 0 });
  });

  it("counts each image by the model's rule, so a prompt with images never overflows the window", async () => {
    // A 640 x 480 GIF's header: Phi-3.5 vision reads it as 1,921 tokens.
    const photo = {
      mediaType: 'image/gif',
      bytes: new Uint8Array([...'GIF89a'].map((c) => c.charCodeAt(0)).concat([128, 2, 224, 1])),
    };
    const vision = { ...windowOf(4096), imageTokens: webLlmImageTokens('Phi-3.5-vision-instruct-q4f16_1-MLC')! };
    const asked: ChatMessage[] = [
      { role: 'system', content: words(20, 'rule') },
      { role: 'user', content: words(1700, 'question'), images: [photo] },
    ];
    // Its text alone fits: 20 + 1,700 words, 2 × 8 and 16, with 512 for the answer.
    expect(await fitToContext(vision, [{ ...asked[0]! }, { ...asked[1]!, images: [] }], 512)).toMatchObject({
      ok: true,
    });
    // The image's 1,921 tokens and its mark (8) do not.
    expect(await fitToContext(vision, asked, 512)).toEqual({
      ok: false,
      needed: 1720 + 16 + 16 + 1921 + 8 + 512,
      window: 4096,
    });
    // Older steps carrying images are left out first, as other steps are.
    const steps: ChatMessage[] = [
      { role: 'system', content: words(20, 'rule') },
      { role: 'user', content: words(30, 'question') },
      { role: 'assistant', content: words(10, 'call1') },
      { role: 'user', content: words(40, 'result1'), images: [photo] },
      { role: 'assistant', content: words(10, 'call2') },
      { role: 'user', content: words(40, 'result2'), images: [photo] },
    ];
    expect(await fitToContext(vision, steps, 512)).toEqual({
      ok: true,
      messages: [steps[0], steps[1], steps[4], steps[5]],
      leftOut: 2,
    });
  });

  it('counts an image the most any rule gives where the model has no rule of its own', async () => {
    const image = { mediaType: 'image/png', bytes: new Uint8Array(8) };
    const message: ChatMessage = { role: 'user', content: words(10, 'look'), images: [image] };
    expect(await fitToContext(windowOf(100), [message])).toEqual({
      ok: false,
      needed: 10 + 8 + 16 + PHI3_VISION_MAX_IMAGE_TOKENS + 8,
      window: 100,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './tool.ts';

const PNG = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3);

describe('a tool outcome with artifacts', () => {
  const toolGiving = (artifacts: unknown) =>
    defineTool({
      name: 'maker',
      description: 'makes a file',
      archetype: undefined,
      danger: 'safe',
      capabilities: [],
      input: z.object({}),
      unavailableBecause: () => undefined,
      baseScore: () => 0.5,
      proposeInput: () => ({}),
      run: () => ({
        ok: true,
        summary: 'made it',
        value: 'a chart of 3 bars',
        facts: [],
        symbols: [],
        artifacts: artifacts as never,
      }),
    });

  it('keeps what the model reads apart from what the user gets', async () => {
    const outcome = await toolGiving([{ name: 'chart.png', kind: 'image', mediaType: 'image/png', bytes: PNG }]).run(
      {},
      {} as never,
    );
    expect(outcome).toMatchObject({ ok: true, value: 'a chart of 3 bars', artifacts: [{ name: 'chart.png' }] });
  });

  it('fails, saying which artifact and why, when one cannot be kept', async () => {
    const outcome = await toolGiving([
      { name: 'chart.png', kind: 'image', mediaType: 'image/png', bytes: PNG },
      { name: 'page.html', kind: 'image', mediaType: 'text/html', bytes: PNG },
    ]).run({}, {} as never);
    expect(outcome).toMatchObject({
      ok: false,
      summary:
        'maker gave an artifact Anima cannot keep (artifacts.1.bytes: an image needs an image/ media type, not text/html)',
    });
    expect(outcome.artifacts).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { actionDigest } from './action-digest.ts';
import { defineTool } from './tool.ts';
import { userInteract } from './user-interact.ts';

describe('actionDigest', () => {
  const input = { question: 'What do you know about Mars?' };

  it('is the same for the same definition and input, and differs for another input', async () => {
    const digest = await actionDigest(defineTool(userInteract), input);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(await actionDigest(defineTool({ ...userInteract }), { ...input })).toBe(digest);
    expect(await actionDigest(defineTool(userInteract), { question: 'What do you know about Venus?' })).not.toBe(
      digest,
    );
  });

  it("changes when the tool's description, danger or input schema changes", async () => {
    const digest = await actionDigest(defineTool(userInteract), input);
    expect(await actionDigest(defineTool({ ...userInteract, description: 'ask the user anything' }), input)).not.toBe(
      digest,
    );
    expect(await actionDigest(defineTool({ ...userInteract, danger: 'cautious' }), input)).not.toBe(digest);
    expect(
      await actionDigest(
        defineTool({ ...userInteract, input: z.object({ question: z.string().min(1).max(500) }) }),
        input,
      ),
    ).not.toBe(digest);
  });
});

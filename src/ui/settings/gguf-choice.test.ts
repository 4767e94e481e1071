import { describe, expect, it } from 'vitest';
import type { GgufModelView } from '#core/api.ts';
import { ggufNote, ggufOptions } from './gguf-choice.ts';

const TINY: GgufModelView = {
  id: 'tiny.gguf',
  engine: 'gguf',
  fileName: 'Tiny.gguf',
  sizeBytes: 2 ** 20,
  architecture: 'llama',
  name: 'anima-tiny-7',
  contextLength: 256,
  quantisation: 'F32',
  parameters: 128_512,
  source: { kind: 'file' },
  addedAt: 1,
  memoryBytes: 27 * 2 ** 20,
};

describe("the CPU engine's model choice in Settings", () => {
  it('offers the models added here, each with its size and memory, and keeps a chosen one that is gone', () => {
    expect(ggufOptions([TINY], '')).toEqual([
      { value: 'tiny.gguf', label: 'anima-tiny-7: 129K F32, about 27 MB of memory (Tiny.gguf)' },
    ]);
    expect(ggufOptions([TINY], 'tiny.gguf')).toHaveLength(1);
    expect(ggufOptions([TINY], 'gone.gguf').at(-1)).toEqual({
      value: 'gone.gguf',
      label: 'gone.gguf (not on this device)',
    });
  });

  it('says why there is nothing to choose: the engine is not here, or no model is added', () => {
    expect(
      ggufNote(
        {
          isAvailable: false,
          unavailableBecause: 'the CPU engine (llama.cpp in WebAssembly) runs only in the browser',
        },
        0,
      ),
    ).toBe('The CPU engine cannot run here: the CPU engine (llama.cpp in WebAssembly) runs only in the browser.');
    expect(ggufNote({ isAvailable: true }, 0)).toBe('No GGUF model is added on this device yet.');
    expect(ggufNote({ isAvailable: true }, 1)).toBeUndefined();
  });
});

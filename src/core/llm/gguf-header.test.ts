import { describe, expect, it } from 'vitest';
import { TINY_GGUF_MERGES, tinyGguf, tinyTokenize, tinyVocabulary } from '#core/testing/tiny-gguf.ts';
import { bytesSource, readGgufHeader } from './gguf-header.ts';

describe('the tiny GGUF model made for tests', () => {
  it('is the same bytes for the same seed, other bytes for another, and about half a megabyte', () => {
    const first = tinyGguf(7);
    expect(Buffer.compare(first, tinyGguf(7))).toBe(0);
    expect(Buffer.compare(first, tinyGguf(8))).not.toBe(0);
    expect(first.length).toBeGreaterThan(400_000);
    expect(first.length).toBeLessThan(700_000);
  });

  it('has a byte-fallback SentencePiece vocabulary of 364 tokens, whose merges a tokenizer takes', () => {
    const vocabulary = tinyVocabulary();
    expect(vocabulary).toHaveLength(364);
    expect(vocabulary.slice(0, 3).map((token) => token.text)).toEqual(['<unk>', '<s>', '</s>']);
    expect(vocabulary[3 + 0x41]!.text).toBe('<0x41>');
    expect(vocabulary.slice(-TINY_GGUF_MERGES.length).map((token) => token.text)).toEqual([...TINY_GGUF_MERGES]);
    expect(tinyTokenize('the cat')).toEqual(['▁t', 'he', '▁', 'c', 'a', 't']);
    expect(tinyTokenize('QXZ')).toEqual(['▁', 'Q', 'X', 'Z']);
  });
});

describe('reading a GGUF header', () => {
  it('tells the architecture, name, context, quantisation, parameters and tensors of a model', async () => {
    const bytes = tinyGguf(3);
    const header = await readGgufHeader(bytesSource(bytes));
    expect(header).toMatchObject({
      version: 3,
      architecture: 'llama',
      name: 'anima-tiny-3',
      contextLength: 256,
      quantisation: 'F32',
      fileBytes: bytes.length,
    });
    expect(header.metadata.get('tokenizer.ggml.tokens')).toEqual({ arrayLength: 364 });
    expect(header.metadata.get('tokenizer.ggml.add_bos_token')).toBe(true);
    expect(header.tensors[0]).toEqual({ name: 'token_embd.weight', dims: [64, 364], type: 0 });
    // Embeddings and output 2 x 64 x 364, per layer 4 x 64 x 64 + 3 x 64 x 128 + 2 x 64 norms, and the output norm.
    expect(header.parameters).toBe(2 * 64 * 364 + 2 * (4 * 64 * 64 + 3 * 64 * 128 + 2 * 64) + 64);
  });

  it('says the context the model was made with, the same size whatever it is', async () => {
    const long = tinyGguf(3, { contextLength: 4096 });
    expect((await readGgufHeader(bytesSource(long))).contextLength).toBe(4096);
    expect(long.byteLength).toBe(tinyGguf(3).byteLength);
  });

  it('refuses a file that is not a GGUF model, a truncated one, and an unknown version, saying which', async () => {
    await expect(readGgufHeader(bytesSource(new TextEncoder().encode('PK\u0003\u0004 a zip file')))).rejects.toThrow(
      'not a GGUF model: the file starts with "PK??", not "GGUF"',
    );
    const bytes = tinyGguf(3);
    await expect(readGgufHeader(bytesSource(bytes.subarray(0, 5000)))).rejects.toThrow(
      'the file ends at byte 5000, inside its header (a truncated download?)',
    );
    const version4 = bytes.slice(0, 4096);
    new DataView(version4.buffer).setUint32(4, 4, true);
    await expect(readGgufHeader(bytesSource(version4))).rejects.toThrow(
      'GGUF version 4 is not supported (2 and 3 are)',
    );
  });
});

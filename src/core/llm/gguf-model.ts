import type { GgufModelRecord } from '#core/records/gguf-model.ts';

/** The context a model is loaded with: its own, but at most this (memory grows with it). */
export const MAX_GGUF_CONTEXT = 4096;

/** About how much memory a model takes loaded: its weights plus a KV cache and buffers for the context it runs with. */
export function ggufMemoryBytes(record: Pick<GgufModelRecord, 'sizeBytes' | 'contextLength'>): number {
  const context = Math.min(record.contextLength ?? MAX_GGUF_CONTEXT, MAX_GGUF_CONTEXT);
  // A rough rule that holds for the 0.1B-3B llama-family models: 1.1x the file, and about 0.1 MB of KV cache and buffers per context token.
  return Math.round(record.sizeBytes * 1.1 + context * 100_000);
}

/** An id for a model file, from its name: "qwen2.5-0.5b-instruct-q4_k_m.gguf" stays itself; taken ids get "-2", "-3". */
export function ggufIdFor(fileName: string, taken: ReadonlySet<string>): string {
  const base =
    fileName
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}._-]+/gu, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 180) || 'model.gguf';
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix++) if (!taken.has(`${base}-${suffix}`)) return `${base}-${suffix}`;
}

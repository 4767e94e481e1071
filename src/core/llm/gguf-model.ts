import { z } from 'zod';

/**
 * A GGUF model the user added for the CPU engine: its file (kept by the GgufHost under `id`) and
 * what its header says, read once when it was added. Stored in the `models` table.
 */
export const ggufModelRecordSchema = z.object({
  id: z.string().min(1).max(200),
  engine: z.literal('gguf'),
  fileName: z.string().max(500),
  sizeBytes: z.number().int().nonnegative(),
  architecture: z.string(),
  /** general.name, when the file gives one. */
  name: z.string().optional(),
  contextLength: z.number().int().positive().optional(),
  quantisation: z.string(),
  parameters: z.number().nonnegative(),
  /** Where it came from: a file picked on this device, or an address. */
  source: z.discriminatedUnion('kind', [z.object({ kind: z.literal('file') }), z.object({ kind: z.literal('url'), url: z.string() })]),
  addedAt: z.number(),
});
export type GgufModelRecord = z.infer<typeof ggufModelRecordSchema>;

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

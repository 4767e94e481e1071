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
  source: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('file') }),
    z.object({ kind: z.literal('url'), url: z.string() }),
  ]),
  addedAt: z.number(),
});
export type GgufModelRecord = z.infer<typeof ggufModelRecordSchema>;

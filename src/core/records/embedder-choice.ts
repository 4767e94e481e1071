import { z } from 'zod';

/** The embedders a session can bind: an OpenAI-compatible endpoint, a GGUF model on the CPU engine, a WebLLM model. */
export const embedderProviderSchema = z.enum(['openai-compatible', 'gguf', 'webllm'], {
  error: 'the embedder is openai-compatible, gguf or webllm',
});
export type EmbedderProvider = z.infer<typeof embedderProviderSchema>;

/**
 * The embedder a session binds, kept with it (and its snapshots): which provider, and which of
 * its models. No address or key: an OpenAI-compatible embedder reaches the endpoint of the
 * device's language model settings, whose key stays on the device.
 */
export const embedderChoiceSchema = z.object({
  provider: embedderProviderSchema,
  model: z.string().trim().min(1, 'name the embedding model').max(200, 'the model name is at most 200 characters'),
});
export type EmbedderChoice = z.infer<typeof embedderChoiceSchema>;

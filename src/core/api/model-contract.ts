import { z } from 'zod';
import { operationIdSchema } from './operation.ts';
import { inferenceViewSchema } from '#core/llm/inference-settings.ts';
import { modelSettingsSchema } from '#core/records/model-settings.ts';
import { embedderChoiceSchema } from '#core/records/embedder-choice.ts';
import { bottleneckSchema } from '#core/records/model-use.ts';
import { gpuReportSchema } from '#core/llm/webllm-models.ts';
import { ggufModelRecordSchema } from '#core/records/gguf-model.ts';
import { problemSchema } from '#core/result.ts';
import { sessionIdSchema } from '#core/names.ts';

/** A WebLLM model as the Models screen lists it: its needs, whether it is downloaded (fully or in part), recommended, or cannot run here (and why). */
export const modelViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  vramMB: z.number(),
  contextTokens: z.number().int(),
  needsShaderF16: z.boolean(),
  /** Fully downloaded: it loads offline. */
  cached: z.boolean(),
  /** Not fully downloaded, but some of its files are stored (a download stopped): a new download goes on from them, a repair deletes them. */
  partial: z.boolean(),
  recommended: z.boolean(),
  notRunnableBecause: z.string().optional(),
  /** A model the user added (not of WebLLM's prebuilt list): where its weights and library are fetched from. */
  custom: z.object({ modelUrl: z.string(), modelLibUrl: z.string() }).optional(),
});
export type ModelView = z.infer<typeof modelViewSchema>;

/** The outcome of a one-call check of the bound model: its answer, or the bottleneck; attempts and tokens. */
export const inferenceCheckSchema = z.object({
  provider: z.string(),
  model: z.string(),
  answer: z.string().optional(),
  bottleneck: bottleneckSchema.optional(),
  attempts: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
});

/** A GGUF model as the Models screen lists it: its record and about how much memory it takes loaded. */
export const ggufModelViewSchema = ggufModelRecordSchema.extend({ memoryBytes: z.number() });
export type GgufModelView = z.infer<typeof ggufModelViewSchema>;

/** Language models: the inference settings, WebLLM models and GGUF models. */
export const modelContract = {
  /** What the user allows the agent on the web (this device's setting): address prefixes, time and size caps. */
  /** Which language model runs bind (a device setting; the API key is never sent back, only whether one is stored). */
  inferenceGet: { args: z.object({}), result: inferenceViewSchema },
  /** Changes it: an endpoint without apiKey keeps the stored key, an empty apiKey removes it. */
  inferenceSet: {
    args: z.object({ settings: z.unknown() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), settings: inferenceViewSchema }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** How the session's model samples, and what the chosen provider cannot promise to honour of it, in words. */
  modelSettingsGet: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.object({ settings: modelSettingsSchema, notes: z.array(z.string()) }),
  },
  /** Changes them (each field checked; max tokens within the chosen model's context window, where it is known); a field left out is the engine's default. */
  modelSettingsSet: {
    args: z.object({ sessionId: sessionIdSchema, settings: z.unknown() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), settings: modelSettingsSchema, notes: z.array(z.string()) }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** The embedder the session binds (absent: none, recall and similarity by hypervectors). */
  embedderGet: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.object({ embedder: embedderChoiceSchema.optional() }),
  },
  /** Binds an embedder to the session, or none (null); checked, then kept with the session. */
  embedderSet: {
    args: z.object({ sessionId: sessionIdSchema, embedder: z.unknown() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), embedder: embedderChoiceSchema.optional() }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** Embeds two short texts with the session's embedder: a user's way to test it (its vectors' size, and the time it took). */
  embedderCheck: {
    args: z.object({ sessionId: sessionIdSchema, operationId: operationIdSchema }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        check: z.object({
          provider: z.string(),
          model: z.string(),
          dimensions: z.number().int(),
          similarity: z.number(),
        }),
      }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** Makes one structured call through the contract with the chosen model: a user's way to test it. */
  inferenceCheck: {
    args: z.object({ operationId: operationIdSchema }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), check: inferenceCheckSchema }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** The GPU as WebGPU sees it, the WebLLM models with their state, and the chosen model. */
  modelList: {
    args: z.object({}),
    result: z.object({ gpu: gpuReportSchema, models: z.array(modelViewSchema), chosen: z.string().optional() }),
  },
  /** Downloads a model and loads it on the GPU, reporting progress; cancel stops it (what was fetched stays cached). */
  modelDownload: {
    args: z.object({ operationId: operationIdSchema, modelId: z.string().min(1).max(200) }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), modelId: z.string() }),
      z.object({ ok: z.literal(false), cancelled: z.boolean().optional(), problems: z.array(problemSchema) }),
    ]),
    progress: z.object({ fraction: z.number(), text: z.string() }),
  },
  /** Deletes a model's files (also what a broken download left). */
  modelDelete: {
    args: z.object({ modelId: z.string().min(1).max(200) }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), modelId: z.string() }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** Adds a model that is not in WebLLM's list (MLC weights and their WebGPU library, by address); nothing is fetched until it is downloaded. */
  modelAdd: {
    args: z.object({ model: z.unknown() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), model: modelViewSchema }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** Removes an added model from the list, with its files. */
  modelForget: {
    args: z.object({ modelId: z.string().min(1).max(200) }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), modelId: z.string() }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** The CPU engine (llama.cpp in WebAssembly): whether it is here, the GGUF models added, each with its header facts and the memory it needs loaded. */
  ggufList: {
    args: z.object({}),
    result: z.object({
      isAvailable: z.boolean(),
      unavailableBecause: z.string().optional(),
      models: z.array(ggufModelViewSchema),
      chosen: z.string().optional(),
    }),
  },
  /** Adds a GGUF model from a file picked here or from an address, kept for offline use; a file that is not a model is refused and nothing is kept; cancellable. */
  ggufAdd: {
    args: z.object({
      operationId: operationIdSchema,
      source: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('file'), file: z.instanceof(Blob), fileName: z.string().min(1).max(500) }),
        z.object({
          kind: z.literal('url'),
          url: z.url({ protocol: /^https?$/, error: 'give an http(s) address' }).max(2000),
        }),
      ]),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), model: ggufModelViewSchema }),
      z.object({ ok: z.literal(false), cancelled: z.boolean().optional(), problems: z.array(problemSchema) }),
    ]),
    progress: z.object({
      phase: z.enum(['storing', 'downloading']),
      bytesWritten: z.number(),
      totalBytes: z.number().optional(),
    }),
  },
  /** Deletes a GGUF model's file and record. */
  ggufDelete: {
    args: z.object({ id: z.string().min(1).max(200) }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), id: z.string() }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
} as const;

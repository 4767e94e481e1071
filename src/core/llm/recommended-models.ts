import type { WEBLLM_MODELS } from '#core/llm/webllm-models.ts';
import { ggufMemoryBytes, MAX_GGUF_CONTEXT } from '#core/llm/gguf-model.ts';

/**
 * The models the Models screen recommends, with what each is good for: a few GGUF files for the
 * CPU engine (any machine), and words for WebLLM's models (a GPU). Every fact here is copied from
 * a public source, named beside it; none is estimated except memory, which `ggufMemoryBytes` works
 * out the way it does for an added model, and the speed class, which follows from the parameters.
 */

/** How fast a model answers, by its size: under 1B parameters fast, under 2B moderate, else slow. */
export type SpeedClass = 'fast' | 'moderate' | 'slow';

export function speedClassOf(parameters: number): SpeedClass {
  return parameters < 1e9 ? 'fast' : parameters < 2e9 ? 'moderate' : 'slow';
}

/** A GGUF model file recommended for the CPU engine, added by its address in one click. */
export type GgufRecommendation = {
  name: string;
  /** Its parameters, as its model card gives them. */
  parameters: number;
  quantisation: string;
  /** The Hugging Face repository holding the file ("owner/name"). */
  repository: string;
  fileName: string;
  /** The file's size as Hugging Face lists it (rounded to three digits): what is downloaded. */
  downloadBytes: number;
  goodFor: string;
};

/**
 * Smallest first. Repositories, file names and sizes are as the repositories' "Files and
 * versions" pages on huggingface.co list them (bartowski's quantisations of each maker's
 * instruct model); parameters as the original model cards give them.
 */
export const GGUF_RECOMMENDATIONS = [
  {
    // huggingface.co/bartowski/SmolLM2-360M-Instruct-GGUF: SmolLM2-360M-Instruct-Q8_0.gguf, 386 MB.
    // Q8_0 rather than Q4: a model this small loses much at 4 bits, and Q8_0 is still the smallest download here.
    name: 'SmolLM2 360M Instruct',
    parameters: 362e6,
    quantisation: 'Q8_0',
    repository: 'bartowski/SmolLM2-360M-Instruct-GGUF',
    fileName: 'SmolLM2-360M-Instruct-Q8_0.gguf',
    downloadBytes: 386e6,
    goodFor: 'trying the engine on any machine: short answers and simple lookups, quickly',
  },
  {
    // huggingface.co/bartowski/Qwen2.5-0.5B-Instruct-GGUF: Qwen2.5-0.5B-Instruct-Q4_K_M.gguf, 398 MB.
    name: 'Qwen2.5 0.5B Instruct',
    parameters: 494e6,
    quantisation: 'Q4_K_M',
    repository: 'bartowski/Qwen2.5-0.5B-Instruct-GGUF',
    fileName: 'Qwen2.5-0.5B-Instruct-Q4_K_M.gguf',
    downloadBytes: 398e6,
    goodFor: 'structured answers (JSON) on a modest laptop, in many languages',
  },
  {
    // huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF: Llama-3.2-1B-Instruct-Q4_K_M.gguf, 0.81 GB.
    name: 'Llama 3.2 1B Instruct',
    parameters: 1.23e9,
    quantisation: 'Q4_K_M',
    repository: 'bartowski/Llama-3.2-1B-Instruct-GGUF',
    fileName: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    downloadBytes: 810e6,
    goodFor: 'following instructions and summing up findings, on a recent laptop',
  },
  {
    // huggingface.co/bartowski/Qwen2.5-1.5B-Instruct-GGUF: Qwen2.5-1.5B-Instruct-Q4_K_M.gguf, 986 MB.
    name: 'Qwen2.5 1.5B Instruct',
    parameters: 1.54e9,
    quantisation: 'Q4_K_M',
    repository: 'bartowski/Qwen2.5-1.5B-Instruct-GGUF',
    fileName: 'Qwen2.5-1.5B-Instruct-Q4_K_M.gguf',
    downloadBytes: 986e6,
    goodFor: 'better reasoning over the graph than the smaller ones, still on a laptop',
  },
  {
    // huggingface.co/bartowski/Phi-3.5-mini-instruct-GGUF: Phi-3.5-mini-instruct-Q4_K_M.gguf, 2.39 GB.
    name: 'Phi-3.5 mini Instruct',
    parameters: 3.8e9,
    quantisation: 'Q4_K_M',
    repository: 'bartowski/Phi-3.5-mini-instruct-GGUF',
    fileName: 'Phi-3.5-mini-instruct-Q4_K_M.gguf',
    downloadBytes: 2.39e9,
    goodFor: 'the best answers of this list, for a desktop with memory to spare and patience',
  },
] as const satisfies readonly GgufRecommendation[];

/** The address a recommended file is downloaded from: Hugging Face's "resolve" address, which lets other sites fetch it. */
export function ggufRecommendationUrl(model: Pick<GgufRecommendation, 'repository' | 'fileName'>): string {
  return `https://huggingface.co/${model.repository}/resolve/main/${model.fileName}`;
}

/** About how much memory a recommended model takes loaded, worked out as for an added one (at the engine's largest context). */
export function ggufRecommendationMemoryBytes(model: Pick<GgufRecommendation, 'downloadBytes'>): number {
  return ggufMemoryBytes({ sizeBytes: model.downloadBytes, contextLength: MAX_GGUF_CONTEXT });
}

/** What a WebLLM model is good for, and whether WebLLM says it suits limited devices. */
export type WebLlmModelNote = {
  parameters: number;
  goodFor: string;
  /** WebLLM's `low_resource_required` in its prebuilt list: it runs on limited devices (a phone, say). */
  lowResource: boolean;
};

type WebLlmModelId = (typeof WEBLLM_MODELS)[number]['id'];

const SMOLLM2_360M = { parameters: 362e6, goodFor: 'trying WebLLM: short answers, quickly, on any GPU' };
const QWEN25_05B = { parameters: 494e6, goodFor: 'structured answers (JSON) on a small GPU, in many languages' };
const LLAMA32_1B = { parameters: 1.23e9, goodFor: 'following instructions and summing up findings' };
const QWEN25_15B = { parameters: 1.54e9, goodFor: 'better reasoning over the graph than the smaller ones' };
const PHI35_MINI = { parameters: 3.8e9, goodFor: 'careful reasoning and longer write-ups' };

/**
 * Each WebLLM model Anima offers: parameters as its maker's model card gives them; lowResource as
 * WebLLM 0.2.86's prebuiltAppConfig says (a test holds them to it).
 */
export const WEBLLM_MODEL_NOTES: Record<WebLlmModelId, WebLlmModelNote> = {
  'SmolLM2-360M-Instruct-q4f16_1-MLC': { ...SMOLLM2_360M, lowResource: true },
  'SmolLM2-360M-Instruct-q4f32_1-MLC': { ...SMOLLM2_360M, lowResource: true },
  'Qwen2.5-0.5B-Instruct-q4f16_1-MLC': { ...QWEN25_05B, lowResource: true },
  'Qwen2.5-0.5B-Instruct-q4f32_1-MLC': { ...QWEN25_05B, lowResource: true },
  'Llama-3.2-1B-Instruct-q4f16_1-MLC': { ...LLAMA32_1B, lowResource: true },
  'Llama-3.2-1B-Instruct-q4f32_1-MLC': { ...LLAMA32_1B, lowResource: true },
  'Qwen3-0.6B-q4f16_1-MLC': {
    parameters: 0.6e9,
    goodFor: 'a newer small model that thinks before it answers',
    lowResource: true,
  },
  'Qwen2.5-1.5B-Instruct-q4f16_1-MLC': { ...QWEN25_15B, lowResource: true },
  'Qwen2.5-1.5B-Instruct-q4f32_1-MLC': { ...QWEN25_15B, lowResource: true },
  'Llama-3.2-3B-Instruct-q4f16_1-MLC': {
    parameters: 3.21e9,
    goodFor: 'good all-round answers on a mid-range GPU',
    lowResource: true,
  },
  'Qwen2.5-3B-Instruct-q4f32_1-MLC': {
    parameters: 3.09e9,
    goodFor: 'good all-round answers on a GPU without shader-f16',
    lowResource: true,
  },
  'Phi-3.5-mini-instruct-q4f16_1-MLC': { ...PHI35_MINI, lowResource: false },
  'Phi-3.5-vision-instruct-q4f16_1-MLC': {
    parameters: 4.2e9,
    goodFor: 'reading the images tools give, as well as text',
    lowResource: false,
  },
  'Llama-3.1-8B-Instruct-q4f16_1-MLC': {
    parameters: 8.03e9,
    goodFor: 'the best answers of this list, on a GPU with 6 GB or more',
    lowResource: false,
  },
};

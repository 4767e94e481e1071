import { imageSize, PHI3_VISION_MAX_IMAGE_TOKENS, phi3VisionImageTokens } from './image-tokens.ts';
import type { ChatImage } from './provider.ts';
import { webLlmModelSeesImages } from './webllm-models.ts';

/** The part of WebLLM's engine that holds a loaded model's tokenizer: a private field, so looked for, never relied on. */
type Pipelines = { loadedModelIdToPipeline?: unknown };
type Tokenizer = { encode(text: string): ArrayLike<number> };

/**
 * A text's tokens as an estimate that errs long: an ASCII character a half token (English prose
 * is about four characters a token), any other character its UTF-8 bytes (a byte-level tokenizer,
 * as Llama 3's and Qwen's, never needs more tokens than bytes; Chinese takes about one token a
 * character, which half a token a character would count short). A run of single digits and
 * punctuation may still count short: WebLLM's own check then ends the call as a spent budget.
 */
export function estimatedTokens(text: string): number {
  let ascii = 0;
  let bytes = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (code < 0x80) ascii += 1;
    else bytes += code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return Math.ceil(ascii / 2) + bytes;
}

/**
 * Counts a text's tokens with the tokenizer of the model a WebLLM engine has loaded. WebLLM
 * (0.2.86) does not offer it: it is read from the engine's pipeline for the model, and where that
 * is not there (the model unloaded, or another WebLLM that keeps it elsewhere; a test holds the
 * field to the WebLLM installed), the count is `estimatedTokens`.
 */
export function webLlmTokenCounter(engine: object, modelId: string): (text: string) => number {
  return (text) => {
    const tokenizer = tokenizerOf(engine, modelId);
    if (!tokenizer) return estimatedTokens(text);
    try {
      return tokenizer.encode(text).length;
    } catch {
      return estimatedTokens(text);
    }
  };
}

function tokenizerOf(engine: object, modelId: string): Tokenizer | undefined {
  const pipelines = (engine as Pipelines).loadedModelIdToPipeline;
  if (!(pipelines instanceof Map)) return undefined;
  const tokenizer = (pipelines.get(modelId) as { tokenizer?: unknown } | undefined)?.tokenizer;
  return typeof tokenizer === 'object' && tokenizer !== null && typeof (tokenizer as Tokenizer).encode === 'function'
    ? (tokenizer as Tokenizer)
    : undefined;
}

/**
 * The tokens a WebLLM model that sees images reads for one: Anima's one vision model is Phi-3.5
 * vision, whose count follows from the image's size (an image whose size its header does not
 * give counts the most the rule gives); undefined for a model that sees none.
 */
export function webLlmImageTokens(modelId: string): ((image: ChatImage) => number) | undefined {
  if (!webLlmModelSeesImages(modelId)) return undefined;
  return (image) => {
    const size = imageSize(image.bytes);
    return size ? phi3VisionImageTokens(size) : PHI3_VISION_MAX_IMAGE_TOKENS;
  };
}

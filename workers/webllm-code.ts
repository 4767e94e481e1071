// WebLLM's code, imported only when a model is listed, loaded or deleted; this module is bundled
// into WebLLM's chunk, so its own address is the chunk's, which is kept for offline use (see engine-code.ts).
export * from '@mlc-ai/web-llm';
export const WEBLLM_CODE_URL: string = import.meta.url;

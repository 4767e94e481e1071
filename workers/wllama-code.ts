// wllama's code, imported only when a model is loaded; this module is bundled into wllama's chunk,
// so its own address is the chunk's, which is kept for offline use (see engine-code.ts).
export * from '@wllama/wllama/esm/index.js';
export const WLLAMA_CODE_URL: string = import.meta.url;

import { z } from 'zod';

const WEBLLM_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const httpAddress = (what: string) =>
  z.url({ protocol: /^https?$/, error: `give ${what} as an http(s) address` }).max(2000);

/**
 * A model the user adds that is not in WebLLM's prebuilt list: weights compiled with MLC LLM
 * (the folder that holds mlc-chat-config.json), the WebGPU library (.wasm) compiled for them,
 * and what WebLLM's own records say of a model. Stored in the `models` table, on this device only.
 */
export const customWebLlmModelSchema = z.object({
  id: z
    .string({ error: 'give the model an id' })
    .trim()
    .min(1, { error: 'give the model an id', abort: true })
    .max(200, 'an id is at most 200 characters')
    .regex(
      WEBLLM_ID,
      'an id is letters, digits, ".", "_" and "-" (as WebLLM names models), starting with a letter or digit',
    ),
  name: z.string().trim().max(100, 'a name is at most 100 characters').optional(),
  modelUrl: httpAddress("the weights' address (the folder with mlc-chat-config.json)"),
  modelLibUrl: httpAddress("the model library's address").refine(
    (url) => /\.wasm$/i.test(new URL(url).pathname),
    'the model library is a .wasm file compiled for these weights',
  ),
  vramMB: z
    .number({ error: 'give the GPU memory it needs, in MB' })
    .positive('the GPU memory it needs is more than 0 MB')
    .max(200_000, 'no GPU has that much memory'),
  contextTokens: z
    .number({ error: 'give the context window in tokens' })
    .int('a context window is a whole number of tokens')
    .min(256, 'a context window of fewer than 256 tokens holds no prompt')
    .max(131_072, 'a context window is at most 131,072 tokens')
    .default(4096),
  needsShaderF16: z.boolean({ error: 'say whether its weights are f16' }),
});
/** A custom model as stored: named (its id when the user gave no name) and dated. */
export type WebLlmModelRecord = Omit<z.infer<typeof customWebLlmModelSchema>, 'name'> & {
  engine: 'webllm';
  name: string;
  addedAt: number;
};

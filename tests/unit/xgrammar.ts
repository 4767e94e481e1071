import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * WebLLM's own xgrammar (the grammar engine it constrains decoding with), run in Node. WebLLM
 * 0.2.86 bundles it (with its WebAssembly inlined) without exporting it: this takes its module
 * out of WebLLM's file and runs it, as WebLLM does in the browser. The module asks where its file
 * is (to find its wasm, which is inlined, so never read), hence the `location` it is given.
 */
export type Xgrammar = {
  TokenizerInfo: {
    createTokenizerInfo(vocab: string[], vocabType?: string, prependSpace?: boolean): Promise<TokenizerInfo>;
  };
  GrammarCompiler: { createGrammarCompiler(info: TokenizerInfo, cacheEnabled?: boolean): Promise<GrammarCompiler> };
  GrammarMatcher: { createGrammarMatcher(grammar: Disposable): Promise<GrammarMatcher> };
  Grammar: { fromEBNF(ebnf: string): Promise<Disposable> };
  Testings: { isGrammarAcceptString(grammar: Disposable, text: string): Promise<boolean> };
};
type Disposable = { dispose(): void };
type TokenizerInfo = Disposable & { getVocabSize(): number };
export type GrammarMatcher = Disposable & {
  _acceptString(text: string): boolean;
  getNextTokenBitmask(): Promise<Int32Array>;
};
export type GrammarCompiler = Disposable & {
  compileGrammar(ebnf: string): Promise<Disposable>;
  compileJSONSchema(schema: string): Promise<Disposable>;
};

/** WebLLM's one file, found as Node finds the package (from this test helper or the benchmark built from it). */
const WEBLLM_FILE = pathToFileURL(createRequire(import.meta.url).resolve('@mlc-ai/web-llm'));

export function loadXgrammar(): Xgrammar {
  const source = readFileSync(WEBLLM_FILE, 'utf8');
  const start = source.indexOf('var lib$3 = {exports: {}};');
  const end = source.indexOf('var libExports$1 = requireLib$1();');
  if (start < 0 || end < start || !source.slice(start, end).includes('class GrammarCompiler'))
    throw new Error('xgrammar is no longer where WebLLM 0.2.86 bundles it: update loadXgrammar for this WebLLM');
  const load = new Function('createRequire', 'location', `${source.slice(start, end)}\nreturn requireLib$1();`) as (
    require: typeof createRequire,
    location: { href: string },
  ) => Xgrammar;
  return load(createRequire, { href: WEBLLM_FILE.href });
}

/**
 * What a token of the synthetic vocabulary starts and ends with, by its index: about half start
 * with a space, and a few in a hundred hold a quote, a backslash or a newline, as in the byte-pair
 * vocabularies of Llama 3 and Qwen (where under 2% of tokens hold a quote).
 */
const prefixOf = (index: number) => ['"', '\\', '\n', '{', '('][index % 100] ?? (index % 100 < 50 ? ' ' : '');
const suffixOf = (index: number) => ['"', '",', '":', '\\n', '.', ',', '-', ':'][Math.floor(index / 100) % 97] ?? '';

/**
 * A vocabulary of `size` distinct tokens, as a stand-in for a real tokenizer's (none is on this
 * machine): words of letters and digits (each token's own), some with a space, punctuation, a
 * quote, a backslash or a newline around them.
 */
export function syntheticVocabulary(size: number): string[] {
  return Array.from({ length: size }, (_, index) => `${prefixOf(index)}${index.toString(36)}${suffixOf(index)}`);
}

/** The CPU time `work` takes, in milliseconds: a compile runs synchronously, so other processes on a busy machine do not count. */
export async function cpuMs(work: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

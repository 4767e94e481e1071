import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * WebLLM's own xgrammar (the grammar engine it constrains decoding with), run in Node. WebLLM
 * 0.2.86 bundles it (with its WebAssembly inlined) without exporting it: this takes its module
 * out of WebLLM's file and runs it, as WebLLM does in the browser. The module asks where its file
 * is (to find its wasm, which is inlined, so never read), hence the `location` it is given.
 */
export type Xgrammar = {
  TokenizerInfo: { createTokenizerInfo(vocab: string[], vocabType?: string, prependSpace?: boolean): Promise<TokenizerInfo> };
  GrammarCompiler: { createGrammarCompiler(info: TokenizerInfo, cacheEnabled?: boolean): Promise<GrammarCompiler> };
  Grammar: { fromEBNF(ebnf: string): Promise<Disposable> };
  Testings: { isGrammarAcceptString(grammar: Disposable, text: string): Promise<boolean> };
};
type Disposable = { dispose(): void };
type TokenizerInfo = Disposable & { getVocabSize(): number };
export type GrammarCompiler = Disposable & { compileGrammar(ebnf: string): Promise<Disposable>; compileJSONSchema(schema: string): Promise<Disposable> };

const WEBLLM_FILE = new URL('../../node_modules/@mlc-ai/web-llm/lib/index.js', import.meta.url);

export function loadXgrammar(): Xgrammar {
  const source = readFileSync(WEBLLM_FILE, 'utf8');
  const start = source.indexOf('var lib$3 = {exports: {}};');
  const end = source.indexOf('var libExports$1 = requireLib$1();');
  if (start < 0 || end < start || !source.slice(start, end).includes('class GrammarCompiler')) throw new Error("xgrammar is no longer where WebLLM 0.2.86 bundles it: update loadXgrammar for this WebLLM");
  const load = new Function('createRequire', 'location', `${source.slice(start, end)}\nreturn requireLib$1();`) as (require: typeof createRequire, location: { href: string }) => Xgrammar;
  return load(createRequire, { href: WEBLLM_FILE.href });
}

/** Affixes of the synthetic vocabulary's tokens: none of them a letter or digit, so each token's letters and digits are its own. */
const PREFIXES = ['', ' ', '"', '\n', '{', ',', ' "', '\\', '.', '(', '\t'];
const SUFFIXES = ['', '', '"', ',', '":', '.', '\n', '}', ' ', '\\n', '-'];

/**
 * A vocabulary of `size` distinct tokens, as a stand-in for a real tokenizer's (none is on this
 * machine): words of letters and digits, some with a space, a quote, a comma, a backslash or a
 * newline around them, as a byte-pair vocabulary has.
 */
export function syntheticVocabulary(size: number): string[] {
  return Array.from({ length: size }, (_, index) => `${PREFIXES[index % PREFIXES.length]}${index.toString(36)}${SUFFIXES[Math.floor(index / PREFIXES.length) % SUFFIXES.length]}`);
}

/** The CPU time `work` takes, in milliseconds: a compile runs synchronously, so other processes on a busy machine do not count. */
export async function cpuMs(work: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

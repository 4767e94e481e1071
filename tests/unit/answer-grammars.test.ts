import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { EngineRequest } from '#core/llm/chat-engine.ts';
import { ANSWER_SCHEMAS } from '#core/agent/answer-schemas.ts';
import { decodingSchemaOf } from '#core/llm/decoding-schema.ts';
import { jsonGrammarOf, MAX_WHITESPACE, withJsonGrammar } from '#core/llm/json-grammar.ts';
import { voicedAnswerSchema } from '#core/synthesis/voiced-findings.ts';
import { cpuMs, type GrammarCompiler, loadXgrammar, syntheticVocabulary, type Xgrammar } from './xgrammar.ts';

/**
 * The grammars WebLLM is sent, compiled and matched by WebLLM's own xgrammar (see xgrammar.ts).
 * No real tokenizer is on this machine: the vocabulary is synthetic, 150,000 distinct tokens, the
 * size of Llama 3's and Qwen's (a grammar's compile time grows with the vocabulary).
 */
const VOCABULARY_SIZE = 150_000;
/** What a grammar may take to compile, in CPU time (a busy machine's other processes do not count). */
const COMPILE_LIMIT_MS = 200;
/** What xgrammar's own conversion of a decoding schema may take: far over what it takes, far under what a length keyword costs. */
const SCHEMA_COMPILE_LIMIT_MS = 1000;

let xgrammar: Xgrammar;
let compiler: GrammarCompiler;
const grammarOf = (schema: z.ZodType) => jsonGrammarOf(decodingSchemaOf(schema));

async function accepts(grammar: string, text: string): Promise<boolean> {
  const parsed = await xgrammar.Grammar.fromEBNF(grammar);
  try {
    return await xgrammar.Testings.isGrammarAcceptString(parsed, text);
  } finally {
    parsed.dispose();
  }
}

// Loading xgrammar and preparing the vocabulary take a few seconds on a busy 2-core machine.
beforeAll(async () => {
  xgrammar = loadXgrammar();
  const info = await xgrammar.TokenizerInfo.createTokenizerInfo(syntheticVocabulary(VOCABULARY_SIZE), 'raw');
  expect(info.getVocabSize()).toBe(VOCABULARY_SIZE);
  // No cache: each compile is measured whole.
  compiler = await xgrammar.GrammarCompiler.createGrammarCompiler(info, false);
}, 60_000);
afterAll(() => compiler?.dispose());

describe("the grammars of the app's answers, in WebLLM's xgrammar", () => {
  it.each(ANSWER_SCHEMAS.map(({ name, schema }) => [name, schema] as const))(
    `%s compiles in under ${COMPILE_LIMIT_MS} ms for a ${VOCABULARY_SIZE}-token vocabulary`,
    async (_name, schema) => {
      const grammar = grammarOf(schema);
      // The best of three: the first compile of a process also sets up xgrammar's own tables.
      const times: number[] = [];
      for (let round = 0; round < 3; round++)
        times.push(await cpuMs(async () => (await compiler.compileGrammar(grammar)).dispose()));
      expect(Math.min(...times)).toBeLessThan(COMPILE_LIMIT_MS);
    },
    60_000,
  );

  // The schema itself goes to an OpenAI-compatible server (vLLM compiles it with xgrammar too) and
  // to llama.cpp. xgrammar's own conversion is slower than the grammar WebLLM is sent (about 200 ms
  // for the step here), but a length keyword back in the schema takes seconds (a maxLength of 2,000
  // took 21 s), which this catches.
  it.each(ANSWER_SCHEMAS.map(({ name, schema }) => [name, schema] as const))(
    `%s's decoding schema, as xgrammar converts it, compiles in under ${SCHEMA_COMPILE_LIMIT_MS} ms`,
    async (_name, schema) => {
      const json = JSON.stringify(decodingSchemaOf(schema));
      const time = await cpuMs(async () => (await compiler.compileJSONSchema(json)).dispose());
      expect(time).toBeLessThan(SCHEMA_COMPILE_LIMIT_MS);
    },
    60_000,
  );

  it('lets a write-up break lines and quote, as JSON escapes them', async () => {
    const answer = JSON.stringify({
      kind: 'final',
      text: 'The first paragraph [1].\n\nThe second: he said "yes", then \\ left.',
      cites: [1],
    });
    expect(answer).toContain('\\n\\n');
    expect(answer).toContain('\\"yes\\"');
    expect(await accepts(grammarOf(voicedAnswerSchema(1)), answer)).toBe(true);
    expect(
      await accepts(
        grammarOf(voicedAnswerSchema(1)),
        '{"kind": "final", "text": "\\u00e9t\\u00e9 \\/ \\t", "cites": []}',
      ),
    ).toBe(true);
  });

  it("masks the vocabulary for a write-up's next token in well under a millisecond", async () => {
    const compiled = await compiler.compileGrammar(grammarOf(voicedAnswerSchema(1)));
    const matcher = await xgrammar.GrammarMatcher.createGrammarMatcher(compiled);
    const answer = JSON.stringify({
      kind: 'final',
      text: 'Zorblax is a mineral [1], found "in caves".\nNothing else is known.',
      cites: [1],
    });
    let total = 0;
    for (const character of answer) {
      total += await cpuMs(() => matcher.getNextTokenBitmask());
      expect(matcher._acceptString(character)).toBe(true);
    }
    matcher.dispose();
    compiled.dispose();
    // Each token is a GPU step of some 10 ms: masking must not add to it (a string written one
    // character at a time took 100 ms a token here, one shared by every property 1.5 ms).
    expect(total / answer.length).toBeLessThan(1);
  }, 60_000);

  it('takes an answer indented as models write it, and no more whitespace than that between two parts', async () => {
    const grammar = grammarOf(ANSWER_SCHEMAS.find((entry) => entry.name === 'facts')!.schema);
    const answer = {
      kind: 'final',
      answer: 'Dogs are mammals.',
      triples: [{ subject: 'Dog', predicate: 'is-a', object: 'Mammal', confidence: 0.9 }],
    };
    expect(await accepts(grammar, JSON.stringify(answer, null, 2))).toBe(true);
    expect(await accepts(grammar, JSON.stringify(answer, null, 4))).toBe(true);
    expect(await accepts(grammar, JSON.stringify(answer).replace('{', `{${' '.repeat(MAX_WHITESPACE)}`))).toBe(true);
    expect(await accepts(grammar, JSON.stringify(answer).replace('{', `{${' '.repeat(MAX_WHITESPACE + 1)}`))).toBe(
      false,
    );
  });

  it('keeps the shape of each answer: its kinds, its properties, their types', async () => {
    const step = grammarOf(ANSWER_SCHEMAS.find((entry) => entry.name === 'step')!.schema);
    expect(
      await accepts(
        step,
        '{"kind": "tool_call", "tool": "kg_query", "input": {"pattern": "?x is-a Dog", "k": [1, 2.5e3, true, null, {"a": {}}]}}',
      ),
    ).toBe(true);
    expect(
      await accepts(
        step,
        '{"kind": "bottleneck", "bottleneck": {"kind": "missing_input", "detail": "nothing about \\"Zorblax\\""}}',
      ),
    ).toBe(true);
    expect(await accepts(step, '{"kind": "tool_call", "tool": "http_fetch", "input": {}}')).toBe(false);
    expect(
      await accepts(
        step,
        '{"kind": "final", "answer": "x", "triples": [{"subject": "a", "predicate": "b", "object": "c", "confidence": "high"}]}',
      ),
    ).toBe(false);
    expect(await accepts(step, '{"kind": "final", "answer": "x"}')).toBe(false);
    expect(await accepts(step, '{"kind": "final", "answer": "x", "triples": []} and more')).toBe(false);
  });

  it('leaves out optional properties, or writes them in order', async () => {
    const grammar = grammarOf(z.object({ a: z.string().optional(), b: z.number(), c: z.boolean().optional() }));
    for (const text of ['{"b": 1}', '{"a": "x", "b": 1}', '{"b": 1, "c": true}', '{"a": "x", "b": 1, "c": false}'])
      expect(await accepts(grammar, text), text).toBe(true);
    for (const text of ['{}', '{"a": "x"}', '{"b": 1, "a": "x"}'])
      expect(await accepts(grammar, text), text).toBe(false);
    const allOptional = grammarOf(z.object({ a: z.string().optional(), b: z.number().optional() }));
    for (const text of ['{}', '{"b": 2}', '{"a": "", "b": 2}'])
      expect(await accepts(allOptional, text), text).toBe(true);
  });

  it('writes constants with quotes and backslashes as their exact JSON', async () => {
    const grammar = grammarOf(z.object({ kind: z.literal('say "hi"\\now'), mode: z.enum(['a\nb', 'c']) }));
    expect(await accepts(grammar, JSON.stringify({ kind: 'say "hi"\\now', mode: 'a\nb' }))).toBe(true);
    expect(await accepts(grammar, JSON.stringify({ kind: 'say hi', mode: 'c' }))).toBe(false);
  });

  it("sends WebLLM an answer's schema as its grammar, and a request without one as it is", () => {
    const schema = decodingSchemaOf(voicedAnswerSchema(0));
    const request: EngineRequest = { messages: [{ role: 'user', content: 'Write it up.' }], max_tokens: 9 };
    expect(
      withJsonGrammar({ ...request, response_format: { type: 'json_object', schema: JSON.stringify(schema) } }),
    ).toEqual({ ...request, response_format: { type: 'grammar', grammar: jsonGrammarOf(schema) } });
    expect(withJsonGrammar(request)).toEqual(request);
  });

  it("is the same grammar for every write-up: zod alone checks the citations' numbers", () => {
    expect(grammarOf(voicedAnswerSchema(0))).toBe(grammarOf(voicedAnswerSchema(12)));
  });
});

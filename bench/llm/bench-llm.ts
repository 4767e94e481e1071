/**
 * The prompt-economy benchmark (issue 8): a 20-cycle run of the real loop with a model bound
 * (a deterministic engine with WebLLM's interface, counting a token per word) and a persona worn,
 * on the starter graph, with goals only a model can reach; each time it is asked, the model first
 * calls kg_query, then answers. For every model request it measures the prompt's tokens and how
 * many of them an engine need not read again:
 * - prefix caches (llama.cpp, so the CPU engine and llama.cpp's server; vLLM): the tokens that
 *   repeat the start of the request before;
 * - WebLLM (0.2.86): only a request that continues the conversation before (its messages, then
 *   the answer to them) keeps the KV cache; any other request is read whole.
 * Target: 80% or more of the prompt is such a prefix for prefix caches.
 *
 * Then it compiles the grammar WebLLM is sent for each answer schema of the app with WebLLM's own
 * xgrammar, in Node, for a synthetic vocabulary of 150,000 tokens (no real tokenizer is at hand),
 * and times the token mask while an example answer is matched character by character.
 * Prints tables, then one JSON object as the last line.
 */
import { readFileSync } from 'node:fs';
import { withContractChecks } from '#core/api.ts';
import { type ChatEngine, type EngineRequest, messageText } from '#core/llm/chat-engine.ts';
import { createAgentService } from '#core/service/service.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { freshIndexedDb } from '#core/testing/test-database.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import { ANSWER_SCHEMAS } from '#core/agent/answer-schemas.ts';
import { decodingSchemaOf } from '#core/llm/decoding-schema.ts';
import { jsonGrammarOf } from '#core/llm/json-grammar.ts';
import { cpuMs, loadXgrammar, syntheticVocabulary } from '../../tests/unit/xgrammar.ts';

const CYCLES = 20;
const TARGET = 0.8;
const MODEL = 'SmolLM2-360M-Instruct-q4f16_1-MLC';
const GOALS = [
  { description: 'What is Zorblax', criteria: 'Zorblax is-a ?x, at least 4' },
  { description: 'What is Quuxite', criteria: 'Quuxite is-a ?x, at least 4' },
  { description: 'What is Vexal', criteria: 'Vexal part-of ?x, at least 4' },
];

const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');
const promptOf = (request: EngineRequest) => request.messages.map((message) => message.content).join('\n');

/** Calls kg_query about the goal's subject at the start of a conversation, then answers with one new fact, so goals advance a fact at a time. */
class QueryThenAnswerEngine implements ChatEngine {
  readonly requests: EngineRequest[] = [];
  readonly answers: string[] = [];
  readonly chat = {
    completions: {
      create: ((request: EngineRequest) => this.#create(request)) as ChatEngine['chat']['completions']['create'],
    },
  };
  interruptGenerate(): void {}

  async #create(request: EngineRequest) {
    this.requests.push(request);
    const prompt = promptOf(request);
    const subject = /Goal: What is (\w+)/.exec(prompt)?.[1] ?? 'Something';
    const predicate = subject === 'Vexal' ? 'part-of' : 'is-a';
    const isFirstStep =
      request.messages.filter((message) => message.role === 'assistant').length === 0 && /tool_call/.test(prompt);
    const text = isFirstStep
      ? JSON.stringify({ kind: 'tool_call', tool: 'kg_query', input: { pattern: `${subject} ?p ?o` } })
      : JSON.stringify({
          kind: 'final',
          answer: `${subject} is known ${this.requests.length}.`,
          triples: [{ subject, predicate, object: `Kind${this.requests.length}`, confidence: 0.9 }],
        });
    this.answers.push(text);
    return {
      choices: [{ message: { content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: words(prompt).length, completion_tokens: words(text).length },
    };
  }
}

const engine = new QueryThenAnswerEngine();
const host = new ScriptedWebLlmHost(engine);
host.cached.add(MODEL);
const starter = readFileSync(new URL('../../public/starter-graph.ttl', import.meta.url), 'utf8');
const service = withContractChecks(
  createAgentService({
    db: new AnimaDatabase('bench-llm', freshIndexedDb()),
    now: () => Date.now(),
    newId: () => 'bench',
    loadStarterGraph: async () => starter,
    providerReach: { webLlm: host },
  }),
);
const { session } = await service.open({});
// A worn persona's compiled prompt leads the system prompt, as in use.
const created = await service.personaCreate({
  fields: { name: 'Surveyor', summary: 'Maps what is not yet known, fact by careful fact.' },
});
const worn = await service.sessionPersonaSet({ sessionId: session.id, persona: 'Surveyor' });
if (!created.ok || !worn.ok) throw new Error(`the persona could not be worn: ${JSON.stringify([created, worn])}`);
for (const goal of GOALS) await service.goalAdd({ sessionId: session.id, ...goal });
const run = await service.agentRun({
  sessionId: session.id,
  operationId: 'bench',
  maxCycles: CYCLES,
  inference: { provider: 'webllm', webllmModel: MODEL, limits: {}, confidenceCap: 0.7 },
});
if (!run.ok) throw new Error('the run could not start');

/** Whether a request continues the one before: its messages, then the answer to them, then more. */
function continues(request: EngineRequest, previous: EngineRequest, answer: string): boolean {
  const expected = [...previous.messages, { role: 'assistant', content: answer }];
  return (
    request.messages.length > expected.length &&
    expected.every(
      (message, index) =>
        message.role === request.messages[index]!.role && message.content === request.messages[index]!.content,
    )
  );
}

const steps = engine.requests.map((request, index) => {
  const tokens = words(promptOf(request));
  const previous = index === 0 ? undefined : engine.requests[index - 1]!;
  const previousTokens = previous ? words(promptOf(previous)) : [];
  let shared = 0;
  while (shared < tokens.length && shared < previousTokens.length && tokens[shared] === previousTokens[shared])
    shared++;
  const isContinued = previous !== undefined && continues(request, previous, engine.answers[index - 1]!);
  return {
    step: index + 1,
    prompt_tokens: tokens.length,
    prefix_tokens: shared,
    // What WebLLM keeps: the whole conversation before (the previous prompt and its answer), when this continues it.
    continued_tokens: isContinued ? previousTokens.length + words(engine.answers[index - 1]!).length : 0,
    system_tokens: words(messageText(request.messages[0]!.content)).length,
  };
});
const later = steps.slice(1);
const promptTotal = later.reduce((sum, step) => sum + step.prompt_tokens, 0);
const shareOf = (field: 'prefix_tokens' | 'continued_tokens') =>
  promptTotal === 0 ? 0 : later.reduce((sum, step) => sum + step[field], 0) / promptTotal;
const prefixShare = shareOf('prefix_tokens');
const continuedShare = shareOf('continued_tokens');
const figures = {
  cycles: run.cyclesRun,
  model_requests: steps.length,
  prompt_tokens_per_step:
    steps.length === 0 ? 0 : Math.round(steps.reduce((sum, step) => sum + step.prompt_tokens, 0) / steps.length),
  completion_tokens: run.usage.outputTokens,
  reusable_prefix_share: Number(prefixShare.toFixed(3)),
  webllm_kv_reuse_share: Number(continuedShare.toFixed(3)),
  target_share: TARGET,
  meets_target: prefixShare >= TARGET,
  steps,
};
console.log('step\tprompt\tprefix\tcontinued\tsystem');
for (const step of steps)
  console.log(
    `${step.step}\t${step.prompt_tokens}\t${step.prefix_tokens}\t${step.continued_tokens}\t${step.system_tokens}`,
  );
console.log(
  `${steps.length} model requests in ${run.cyclesRun} cycles; after the first, ${(prefixShare * 100).toFixed(1)}% of the prompt repeats the start of the request before (prefix caches; target ${TARGET * 100}%), and WebLLM keeps ${(continuedShare * 100).toFixed(1)}% (it reuses its KV cache only within a conversation: a tool call's next step, or a retry)`,
);

const VOCABULARY_SIZE = 150_000;
const EXAMPLE_ANSWERS: Record<string, unknown> = {
  step: { kind: 'tool_call', tool: 'kg_query', input: { pattern: 'Zorblax ?p ?o' } },
  facts: {
    kind: 'final',
    answer: 'Zorblax is a mineral.',
    triples: [{ subject: 'Zorblax', predicate: 'is-a', object: 'Mineral', confidence: 0.8 }],
  },
  write_up: { kind: 'final', text: 'Zorblax is a mineral [1].\n\nIt is "rare".', cites: [1] },
  check: { city: 'Paris' },
};
const xgrammar = loadXgrammar();
const vocabulary = await xgrammar.TokenizerInfo.createTokenizerInfo(syntheticVocabulary(VOCABULARY_SIZE), 'raw');
const compiler = await xgrammar.GrammarCompiler.createGrammarCompiler(vocabulary, false);
const grammars = [];
for (const { name, schema } of ANSWER_SCHEMAS) {
  const grammar = jsonGrammarOf(decodingSchemaOf(schema));
  const times: number[] = [];
  for (let round = 0; round < 3; round++)
    times.push(await cpuMs(async () => (await compiler.compileGrammar(grammar)).dispose()));
  const compiled = await compiler.compileGrammar(grammar);
  const matcher = await xgrammar.GrammarMatcher.createGrammarMatcher(compiled);
  const example = JSON.stringify(EXAMPLE_ANSWERS[name], null, 1);
  let maskMs = 0;
  for (const character of example) {
    maskMs += await cpuMs(() => matcher.getNextTokenBitmask());
    if (!matcher._acceptString(character))
      throw new Error(`the ${name} grammar refuses its example answer at "${character}"`);
  }
  matcher.dispose();
  compiled.dispose();
  grammars.push({
    schema: name,
    grammar_chars: grammar.length,
    compile_ms: Number(Math.min(...times).toFixed(1)),
    mask_ms_per_char: Number((maskMs / example.length).toFixed(3)),
  });
}
compiler.dispose();
vocabulary.dispose();
console.log(
  `\nschema\tcompile ms\tmask ms/char\t(WebLLM's xgrammar in Node, ${VOCABULARY_SIZE}-token synthetic vocabulary, CPU time, best of 3)`,
);
for (const grammar of grammars) console.log(`${grammar.schema}\t${grammar.compile_ms}\t${grammar.mask_ms_per_char}`);
console.log(JSON.stringify({ bench: 'llm', ...figures, grammars }));

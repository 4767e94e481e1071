/**
 * The prompt-economy benchmark (issue 8): a 20-cycle run of the real loop with a model bound
 * (a deterministic engine with WebLLM's interface, counting a token per word), on the starter
 * graph, with goals only a model can reach. For every model request it measures the prompt's
 * tokens and how many of them repeat the start of the previous request (the prefix an engine
 * can keep in its KV cache). Target: 80% or more of the prompt is such a prefix. Prints a table,
 * then one JSON object as the last line.
 */
import { readFileSync } from 'node:fs';
import { withContractChecks } from '../../src/core/api.ts';
import type { ChatEngine, EngineRequest } from '../../src/core/llm/chat-engine.ts';
import { createAgentService } from '../../src/core/service.ts';
import { AnimaDatabase } from '../../src/core/store/database.ts';
import { freshIndexedDb } from '../../src/core/testing/test-database.ts';
import { ScriptedWebLlmHost } from '../../src/core/testing/scripted-webllm-host.ts';

const CYCLES = 20;
const TARGET = 0.8;
const MODEL = 'SmolLM2-360M-Instruct-q4f16_1-MLC';
const GOALS = [
  { description: 'What is Zorblax', criteria: 'Zorblax is-a ?x, at least 4' },
  { description: 'What is Quuxite', criteria: 'Quuxite is-a ?x, at least 4' },
  { description: 'What is Vexal', criteria: 'Vexal part-of ?x, at least 4' },
];

const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');

/** Answers each request with one new fact about the goal's subject, so goals advance a fact at a time. */
class FactPerCallEngine implements ChatEngine {
  readonly requests: EngineRequest[] = [];
  readonly chat = { completions: { create: ((request: EngineRequest) => this.#create(request)) as ChatEngine['chat']['completions']['create'] } };
  interruptGenerate(): void {}

  async #create(request: EngineRequest) {
    this.requests.push(request);
    const prompt = request.messages.map((message) => message.content).join('\n');
    const subject = /Goal: What is (\w+)/.exec(prompt)?.[1] ?? 'Something';
    const predicate = subject === 'Vexal' ? 'part-of' : 'is-a';
    const text = JSON.stringify({ kind: 'final', answer: `${subject} is known ${this.requests.length}.`, triples: [{ subject, predicate, object: `Kind${this.requests.length}`, confidence: 0.9 }] });
    return { choices: [{ message: { content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: words(prompt).length, completion_tokens: words(text).length } };
  }
}

const engine = new FactPerCallEngine();
const host = new ScriptedWebLlmHost(engine);
host.cached.add(MODEL);
const starter = readFileSync(new URL('../../public/starter-graph.ttl', import.meta.url), 'utf8');
const service = withContractChecks(
  createAgentService({ db: new AnimaDatabase('bench-llm', freshIndexedDb()), now: () => Date.now(), newId: () => 'bench', loadStarterGraph: async () => starter, providerReach: { webLlm: host } }),
);
const { session } = await service.open({});
for (const goal of GOALS) await service.goalAdd({ sessionId: session.id, ...goal });
const run = await service.agentRun({ sessionId: session.id, operationId: 'bench', maxCycles: CYCLES, inference: { provider: 'webllm', webllmModel: MODEL, limits: {}, confidenceCap: 0.7 } });
if (!run.ok) throw new Error('the run could not start');

// Each request's prompt as tokens (a word each, as the engine counts), and its shared start with the one before.
const steps = engine.requests.map((request, index) => {
  const tokens = words(request.messages.map((message) => message.content).join('\n'));
  const previous = index === 0 ? [] : words(engine.requests[index - 1]!.messages.map((message) => message.content).join('\n'));
  let shared = 0;
  while (shared < tokens.length && shared < previous.length && tokens[shared] === previous[shared]) shared++;
  return { step: index + 1, prompt_tokens: tokens.length, prefix_tokens: shared, system_tokens: words(request.messages[0]!.content).length };
});
const later = steps.slice(1);
const promptTotal = later.reduce((sum, step) => sum + step.prompt_tokens, 0);
const prefixTotal = later.reduce((sum, step) => sum + step.prefix_tokens, 0);
const share = promptTotal === 0 ? 0 : prefixTotal / promptTotal;
const figures = {
  cycles: run.cyclesRun,
  model_requests: steps.length,
  prompt_tokens_per_step: steps.length === 0 ? 0 : Math.round(steps.reduce((sum, step) => sum + step.prompt_tokens, 0) / steps.length),
  completion_tokens: run.usage.outputTokens,
  reusable_prefix_share: Number(share.toFixed(3)),
  target_share: TARGET,
  meets_target: share >= TARGET,
  steps,
};
console.log('step\tprompt\tprefix\tsystem');
for (const step of steps) console.log(`${step.step}\t${step.prompt_tokens}\t${step.prefix_tokens}\t${step.system_tokens}`);
console.log(`${steps.length} model requests in ${run.cyclesRun} cycles; ${(share * 100).toFixed(1)}% of the prompt after the first is a prefix repeated from the step before (target ${TARGET * 100}%)`);
console.log(JSON.stringify({ bench: 'llm', ...figures }));

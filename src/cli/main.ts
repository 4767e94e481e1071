import { openAsBlob } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { AgentApi, Fact, GoalView } from '#core/api.ts';
import type { Plan } from '#core/agent/plan.ts';
import type { Reflection } from '#core/agent/reflection.ts';
import { checkProvider } from '#core/llm/endpoint-check.ts';
import { endpointSecrets, type OpenAiEndpoint, openAiCompatibleProvider, openAiEndpointSchema } from '#core/llm/openai-compatible.ts';
import { DEFAULT_CONFIDENCE_CAP, type InferenceSettings } from '#core/llm/inference-settings.ts';
import { describeSpentLimit } from '#core/llm/usage-budget.ts';
import { withContractChecks } from '#core/api.ts';
import { psycheSizeProblem } from '#core/psyche/psyche-toml.ts';
import { describeProblem, type Problem } from '#core/result.ts';
import { errorSentence, shortened } from '#core/error-sentence.ts';
import { createAgentService } from '#core/service/service.ts';
import { decodeUtf8Text } from '#core/text-bytes.ts';
import { openCatalog } from './catalog-file.ts';
import { numberOption } from './options.ts';
import { PERSONA_USAGE, runPersonaCommand } from './persona-commands.ts';
import { SNAPSHOT_USAGE, runSnapshotCommand } from './snapshot-commands.ts';
import { CliError, openSnapshot, saveSnapshot } from './snapshot-file.ts';
import { quoteInput } from '#core/quote-input.ts';
import { answerViewText } from '#core/questions/answer.ts';
import { QUESTION_COMMANDS, QUESTION_USAGE, runQuestionCommand } from './question-commands.ts';

/** Where the CLI writes; tests pass their own. */
export type CliOutput = { out: (text: string) => void; error: (text: string) => void };

const USAGE = `Usage: anima <command> [options]

Knowledge graph (the session lives in a snapshot file, created by the first import):
  anima kg import FILE --snapshot S [--format n-triples|turtle|csv]
  anima kg stats --snapshot S [--json]
  anima kg query "?x is-a mammal" --snapshot S [--json] [--limit N]
  anima kg export --snapshot S [--output FILE]
  anima kg infer --snapshot S [--min-confidence X] [--max-iterations N] [--json]
  anima kg path FROM TO --snapshot S [--json]
  anima kg similar SYMBOL --snapshot S [--limit K] [--json]

The agent (goals and cycles live in the same snapshot):
  anima run --goal TEXT [--criteria C] [--priority P] [--kg FILE] [--max-cycles N] --snapshot S [--json]
  anima resume --snapshot S [--max-cycles N] [--json]
  anima cycle --snapshot S [--json]
  anima goals --snapshot S [--json]
  anima consolidate --snapshot S
  anima recall --query TEXT --snapshot S [--limit K] [--json]
  anima write-up GOAL_ID --snapshot S [--grammar narrative|formal|terse|NAME]
  anima plan --goal TEXT [--criteria C] [--attempt N] --snapshot S [--json]   the plan it would make
  anima plan GOAL_ID --snapshot S [--json]       the plans a goal has had: the current one last
  anima reflect --snapshot S [--json]            reflect now: adjust goals, then evolve the psyche
  anima reflections --snapshot S [--limit N] [--json]
  anima settings --snapshot S [--planning on|off] [--reflection-interval N] [--max-failed-plans N] [--json]
  anima notes [GOAL_ID] --snapshot S             the notes the agent wrote (goals that ask for notes)
  anima questions --snapshot S [--json]          what the agent asked (its goal waits for the answer)
  anima answer QUESTION_ID [--facts "S, P, O[, C]" ...] [--note TEXT] --snapshot S

  run, resume and cycle take --provider openai --base-url URL --model M [--api-key KEY]
  [--max-requests N] [--max-tokens N]: the language model of this run (the reason and
  synthesize_triple tools ask it; the facts it adds are capped at confidence 0.7).
  run and resume take --psyche FILE: the psyche.toml the agent wears from then on. They plan,
  reflect (every N cycles, see settings) and evolve the psyche exactly as the app does.
  --json prints one JSON object per cycle, then {"goals":[...]} with each goal's findings.

The psyche (kept in the snapshot, version by version):
  anima psyche check FILE                       validate only: problems and warnings, exit 0 or 1
  anima psyche import FILE --snapshot S         wear it from now on (a new version)
  anima psyche export --snapshot S [--output FILE]

${QUESTION_USAGE}
${PERSONA_USAGE}
${SNAPSHOT_USAGE}
Language models:
  anima llm check --provider openai --base-url URL --model M [--api-key KEY] [--json]
                 one structured call through the agent's contract: the typed value, or the
                 bottleneck and its kind; the attempts and the tokens used. Exit 0 or 1.

Options:
  --snapshot S   the session snapshot file (JSON; gzipped when its name ends in .gz)
  --catalog C    the persona catalog file (JSON); any command with --snapshot takes it, so the
                 session wears the persona \`anima persona wear\` gave it
  --help         show this help
`;

const KG_COMMANDS = ['import', 'stats', 'query', 'export', 'infer', 'path', 'similar'];
const AGENT_COMMANDS = ['run', 'resume', 'cycle', 'goals', 'consolidate', 'recall', 'write-up', 'notes', 'plan', 'reflect', 'reflections', 'settings', 'questions', 'answer'];
const PSYCHE_COMMANDS = ['check', 'import', 'export'];

const defaultOutput: CliOutput = {
  out: (text) => process.stdout.write(text),
  error: (text) => process.stderr.write(text),
};

/** Runs one CLI command and returns its exit code: 0 done, 1 failed (bad input), 2 wrong usage. */
export async function main(argv: string[], output: CliOutput = defaultOutput): Promise<number> {
  try {
    return await run(argv, output);
  } catch (error) {
    if (error instanceof CliError) {
      // Each line cut, in case one quotes a huge input.
      output.error(`anima: ${error.message.split('\n').map((line) => shortened(line)).join('\n')}\n`);
      return error.exitCode;
    }
    // One sentence; the stack only for a developer who asks (ANIMA_DEBUG=1).
    output.error(`anima: ${errorSentence(error)}\n`);
    if (process.env.ANIMA_DEBUG) for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) output.error(`${cause.stack ?? cause.message}\n`);
    return 1;
  }
}

async function run(argv: string[], output: CliOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        snapshot: { type: 'string' },
        format: { type: 'string' },
        json: { type: 'boolean', default: false },
        limit: { type: 'string' },
        output: { type: 'string' },
        'min-confidence': { type: 'string' },
        goal: { type: 'string' },
        criteria: { type: 'string' },
        priority: { type: 'string' },
        kg: { type: 'string' },
        'max-cycles': { type: 'string' },
        query: { type: 'string' },
        'max-iterations': { type: 'string' },
        psyche: { type: 'string' },
        facts: { type: 'string', multiple: true },
        note: { type: 'string' },
        grammar: { type: 'string' },
        attempt: { type: 'string' },
        provider: { type: 'string' },
        'base-url': { type: 'string' },
        model: { type: 'string' },
        'api-key': { type: 'string' },
        'max-requests': { type: 'string' },
        'max-tokens': { type: 'string' },
        planning: { type: 'string' },
        'reflection-interval': { type: 'string' },
        'max-failed-plans': { type: 'string' },
        catalog: { type: 'string' },
        tag: { type: 'string', multiple: true },
        search: { type: 'string' },
        detail: { type: 'boolean' },
        budget: { type: 'string' },
        override: { type: 'string', multiple: true },
        types: { type: 'string' },
        as: { type: 'string' },
        'dry-run': { type: 'boolean' },
        force: { type: 'boolean' },
        none: { type: 'boolean' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    // Node's message quotes the option whole, twice.
    throw new CliError(`${shortened(error instanceof Error ? error.message : String(error), 300)}\n\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  const [area, command, ...rest] = positionals;
  if (values.help) {
    output.out(USAGE);
    return 0;
  }
  if (area === undefined) throw new CliError(`which command?\n\n${USAGE}`, 2);
  if (area === 'llm') return runLlmCommand(command, values, output);
  if (area === 'persona') return runPersonaCommand(command, rest[0], values, output);
  if (area === 'snapshot') return runSnapshotCommand(command, rest[0], values, output);
  const isAgentCommand = AGENT_COMMANDS.includes(area) || QUESTION_COMMANDS.includes(area);
  if (area !== 'kg' && area !== 'psyche' && !isAgentCommand) throw new CliError(`unknown command ${quoteInput(area)}\n\n${USAGE}`, 2);
  if (area === 'kg' && !KG_COMMANDS.includes(command ?? '')) throw new CliError(`unknown command ${quoteInput(`kg ${command ?? ''}`)}\n\n${USAGE}`, 2);
  if (area === 'psyche' && !PSYCHE_COMMANDS.includes(command ?? '')) throw new CliError(`unknown command ${quoteInput(`psyche ${command ?? ''}`)}\n\n${USAGE}`, 2);
  const commandName = isAgentCommand ? area : `${area} ${command}`;
  // Checking a psyche file needs no session: it is read over the default psyche, in a database of its own.
  const snapshotPath = area === 'psyche' && command === 'check' ? undefined : values.snapshot;
  if (!snapshotPath && commandName !== 'psyche check') throw new CliError(`${commandName}: --snapshot S is required\n\n${USAGE}`, 2);

  const { db, hadSnapshot } = await openSnapshot(snapshotPath);
  const createsSnapshot = area === 'kg' ? command === 'import' : area === 'run' || commandName === 'psyche import' || (area === 'ask' && values.kg !== undefined);
  if (snapshotPath && !hadSnapshot && !createsSnapshot)
    throw new CliError(`no snapshot at ${snapshotPath} (\`anima kg import FILE --snapshot ${snapshotPath}\` or \`anima run ... --snapshot ${snapshotPath}\` creates it)`);
  // Read only: the session gets back the persona it wears (its guardrails, its prompt, its name); nothing here changes the catalog.
  if (values.catalog) await openCatalog(db, values.catalog, { mustExist: true });
  const service: AgentApi = withContractChecks(createAgentService({ db, now: () => Date.now(), newId: () => crypto.randomUUID() }));
  const { session } = await service.open({});
  // The key and base URL given for a run are secrets too: no snapshot this command writes may carry them.
  const secrets = endpointSecrets({ baseUrl: values['base-url'] ?? '', ...(values['api-key'] ? { apiKey: values['api-key'] } : {}) });
  const save = () => (snapshotPath ? saveSnapshot(db, session.id, snapshotPath, secrets) : Promise.resolve());
  if (area === 'psyche') return runPsycheCommand({ command: command!, file: rest[0], service, sessionId: session.id, outputFile: values.output, output, save });
  if (values.psyche && (area === 'run' || area === 'resume')) await wearPsyche(service, session.id, values.psyche, output);
  if (QUESTION_COMMANDS.includes(area)) return runQuestionCommand(area, command, { service, sessionId: session.id, values, output, save });
  if (isAgentCommand) return runAgentCommand({ area, positional: command, service, sessionId: session.id, values, output, save });
  if (!snapshotPath) throw new CliError(`${commandName}: --snapshot S is required`, 2);

  switch (command) {
    case 'import': {
      const [file] = rest;
      if (!file) throw new CliError(`kg import: which FILE?\n\n${USAGE}`, 2);
      const format = values.format;
      if (format !== undefined && format !== 'n-triples' && format !== 'turtle' && format !== 'csv')
        throw new CliError(`kg import: --format must be n-triples, turtle or csv, not ${quoteInput(format)}`, 2);
      let data: Blob;
      try {
        data = await openAsBlob(file);
      } catch (error) {
        throw new CliError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const outcome = await service.kgImport({ sessionId: session.id, operationId: 'cli-import', fileName: file, format, data });
      if (!outcome.ok) throw new CliError([`${file}: nothing imported:`, ...outcome.problems.map((problem) => `  ${describeProblem(problem)}`)].join('\n'));
      await saveSnapshot(db, session.id, snapshotPath, secrets);
      output.out(
        `${file}: ${outcome.statements} statements, ${outcome.added} new triples, ${outcome.updated} raised in confidence; ` +
          `the graph has ${outcome.stats.triples} triples and ${outcome.stats.symbols} symbols\n`,
      );
      return 0;
    }
    case 'stats': {
      const stats = await service.kgStats({ sessionId: session.id });
      output.out(
        values.json
          ? `${JSON.stringify(stats)}\n`
          : `triples   ${stats.triples}\nsymbols   ${stats.symbols}\nentities  ${stats.entities}\nrelations ${stats.relations}\nliterals  ${stats.literals}\n`,
      );
      return 0;
    }
    case 'query': {
      const [query] = rest;
      if (!query) throw new CliError(`kg query: which query? e.g. anima kg query "?x is-a mammal" --snapshot ${snapshotPath}`, 2);
      const limit = numberOption(values.limit, '--limit', { min: 1, max: 10000, fallback: 1000, isInteger: true });
      const answer = await service.kgQuery({ sessionId: session.id, query, limit });
      if (!answer.ok) throw new CliError([`kg query: cannot read ${quoteInput(query)}:`, ...answer.problems.map((problem) => `  ${describeProblem(problem)}`)].join('\n'));
      if (values.json) {
        const rows = answer.rows.map((row) => Object.fromEntries(answer.variables.map((name) => [name, row[name]?.label])));
        output.out(`${JSON.stringify({ variables: answer.variables, rows, isTruncated: answer.isTruncated, unknownTerms: answer.unknownTerms })}\n`);
      } else {
        for (const term of answer.unknownTerms) output.error(`anima: unknown symbol ${term}\n`);
        if (answer.variables.length > 0) output.out(`${answer.variables.map((name) => `?${name}`).join('\t')}\n`);
        for (const row of answer.rows) output.out(`${answer.variables.map((name) => row[name]?.label ?? '').join('\t')}\n`);
        if (answer.isTruncated) output.error(`anima: more than ${limit} answers; showing the first ${limit} (use --limit)\n`);
      }
      return 0;
    }
    case 'export': {
      const exported = await service.kgExport({ sessionId: session.id, format: 'n-triples' });
      if (values.output) {
        await writeFile(values.output, exported.text);
        output.error(`anima: wrote ${exported.tripleCount} triples to ${values.output}\n`);
      } else output.out(exported.text);
      return 0;
    }
    case 'infer': {
      const minConfidence = numberOption(values['min-confidence'], '--min-confidence', { min: 0, max: 1, fallback: 0.1 });
      const maxIterations = numberOption(values['max-iterations'], '--max-iterations', { min: 1, max: 100, fallback: 10, isInteger: true });
      const run = await service.kgInfer({ sessionId: session.id, minConfidence, maxIterations, limit: 5000 });
      if (!run.ok) throw new CliError(run.problems.map(describeProblem).join('\n'));
      await saveSnapshot(db, session.id, snapshotPath, secrets);
      if (values.json) {
        const facts = run.facts.map((entry) => ({ ...labelsOf(entry.fact), rule: entry.rule }));
        output.out(`${JSON.stringify({ derived: run.derived, raised: run.raised, iterations: run.iterations, hasConverged: run.hasConverged, isTruncated: run.isTruncated, facts })}\n`);
      } else {
        for (const entry of run.facts) output.out(`${entry.fact.subject.label}\t${entry.fact.predicate.label}\t${entry.fact.object.label}\t${entry.fact.confidence.toFixed(3)}\t${entry.rule}\n`);
        output.error(
          `anima: ${run.derived} new facts, ${run.raised} raised in confidence, in ${run.iterations} rounds` +
            `${run.hasConverged ? '' : ' (stopped before the rules ran out: raise --max-iterations)'}${run.isTruncated ? ' (stopped at the size limit)' : ''}\n`,
        );
      }
      return 0;
    }
    case 'path': {
      const [fromLabel, toLabel] = rest;
      if (!fromLabel || !toLabel) throw new CliError(`kg path: which two symbols? e.g. anima kg path Dog Mammal --snapshot ${snapshotPath}`, 2);
      const [from, to] = await Promise.all([fromLabel, toLabel].map((label) => symbolIdOf(service, session.id, label)));
      const path = await service.kgPath({ sessionId: session.id, from: from!, to: to! });
      if (!path.isFound) throw new CliError(`no path between ${quoteInput(fromLabel)} and ${quoteInput(toLabel)} within 8 steps`);
      if (values.json) output.out(`${JSON.stringify(path.steps.map((step) => ({ ...labelsOf(step.fact), isForward: step.isForward })))}\n`);
      else for (const step of path.steps) output.out(`${step.fact.subject.label} ${step.fact.predicate.label} ${step.fact.object.label}\n`);
      return 0;
    }
    case 'similar': {
      const [label] = rest;
      if (!label) throw new CliError(`kg similar: which symbol? e.g. anima kg similar Dog --snapshot ${snapshotPath}`, 2);
      const k = numberOption(values.limit, '--limit', { min: 1, max: 100, fallback: 10, isInteger: true });
      const { hits } = await service.kgSimilar({ sessionId: session.id, symbolId: await symbolIdOf(service, session.id, label), k });
      if (values.json) output.out(`${JSON.stringify(hits.map((hit) => ({ symbol: hit.symbol.label, similarity: hit.similarity })))}\n`);
      else for (const hit of hits) output.out(`${hit.similarity.toFixed(3)}\t${hit.symbol.label}\n`);
      return 0;
    }
    default:
      throw new CliError(`unknown command ${quoteInput(`kg ${command ?? ''}`)}\n\n${USAGE}`, 2);
  }
}

/** A fact as the CLI prints it in JSON: labels, not ids. */
function labelsOf(fact: Fact) {
  return { subject: fact.subject.label, predicate: fact.predicate.label, object: fact.object.label, confidence: fact.confidence };
}

/** The symbol with exactly this label (case-insensitive), or a clear error. */
async function symbolIdOf(service: AgentApi, sessionId: string, label: string): Promise<number> {
  const { hits } = await service.kgSearch({ sessionId, text: label, limit: 1 });
  const hit = hits[0];
  if (!hit || hit.symbol.label.toLowerCase() !== label.toLowerCase()) throw new CliError(`unknown symbol ${quoteInput(label)}${hit ? ` (did you mean ${hit.symbol.label}?)` : ''}`);
  return hit.symbol.id;
}

/** Reads a psyche.toml as UTF-8 text, or says why it cannot: unreadable, too large, or not UTF-8 (with the byte offset). */
async function readPsycheFile(file: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    const tooLarge = psycheSizeProblem((await stat(file)).size);
    if (tooLarge) throw new CliError(`${file}: error: ${describeProblem(tooLarge)}`);
    bytes = await readFile(file);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = decodeUtf8Text(bytes);
  if (!text.ok) throw new CliError(text.error.map((problem) => `${file}: error: ${describeProblem(problem)}`).join('\n'));
  return text.value;
}

/** Problems and warnings of a psyche file, one per line, located by line and key path. */
function psycheReport(file: string, report: { problems?: Problem[]; warnings: Problem[] }): string {
  return [...(report.problems ?? []).map((problem) => `${file}: error: ${describeProblem(problem)}`), ...report.warnings.map((warning) => `${file}: warning: ${describeProblem(warning)}`)]
    .map((line) => `${line}\n`)
    .join('');
}

/** `--psyche FILE`: imports it as the session's psyche before the run; a file that fails stops the run before anything changed. */
async function wearPsyche(service: AgentApi, sessionId: string, file: string, output: CliOutput): Promise<void> {
  const imported = await service.psycheImport({ sessionId, toml: await readPsycheFile(file), fileName: file });
  output.error(psycheReport(file, imported));
  if (!imported.ok) throw new CliError(`${file}: the psyche was not imported; nothing was run`);
}

type PsycheCommand = { command: string; file: string | undefined; service: AgentApi; sessionId: string; outputFile: string | undefined; output: CliOutput; save: () => Promise<void> };

/** psyche check, import and export. */
async function runPsycheCommand({ command, file, service, sessionId, outputFile, output, save }: PsycheCommand): Promise<number> {
  if (command === 'export') {
    const exported = await service.psycheExport({ sessionId });
    if (outputFile) {
      await writeFile(outputFile, exported.text);
      output.error(`anima: wrote the psyche to ${outputFile}\n`);
    } else output.out(exported.text);
    return 0;
  }
  if (!file) throw new CliError(`psyche ${command}: which FILE?\n\n${USAGE}`, 2);
  const toml = await readPsycheFile(file);
  if (command === 'check') {
    const checked = await service.psycheCheck({ sessionId, toml });
    output.error(psycheReport(file, checked));
    if (!checked.ok) return 1;
    const { persona, archetypes, shadow } = checked.psyche;
    output.out(
      `${file}: a valid psyche: persona ${persona.name} (${persona.grammarPreference}), ${shadow.vetoPatterns.length} veto and ${shadow.biasPatterns.length} bias patterns, ` +
        `sage ${archetypes.sage} healer ${archetypes.healer} explorer ${archetypes.explorer} guardian ${archetypes.guardian}\n`,
    );
    return 0;
  }
  const imported = await service.psycheImport({ sessionId, toml, fileName: file });
  output.error(psycheReport(file, imported));
  if (!imported.ok) throw new CliError(`${file}: the psyche was not imported; the session is unchanged`);
  await save();
  output.out(`${file}: imported as psyche version ${imported.current.version} (persona ${imported.current.psyche.persona.name})\n`);
  return 0;
}

type AgentCommand = {
  area: string;
  /** The word after the command: the goal id of write-up and notes, the question id of answer. */
  positional: string | undefined;
  service: AgentApi;
  sessionId: string;
  values: {
    json?: boolean;
    goal?: string;
    criteria?: string;
    priority?: string;
    kg?: string;
    'max-cycles'?: string;
    query?: string;
    limit?: string;
    grammar?: string;
    attempt?: string;
    facts?: string[];
    note?: string;
    planning?: string;
    'reflection-interval'?: string;
    'max-failed-plans'?: string;
    provider?: string;
    'base-url'?: string;
    model?: string;
    'api-key'?: string;
    'max-requests'?: string;
    'max-tokens'?: string;
  };
  output: CliOutput;
  save: () => Promise<void>;
};

/** run, resume, cycle and goals: the agent over the snapshot's session, saved after every run. */
async function runAgentCommand({ area, positional, service, sessionId, values, output, save }: AgentCommand): Promise<number> {
  // Checked before anything is done, like every usage error.
  const inference = values.provider === undefined ? undefined : runInference(values);
  if (area === 'questions') {
    const { questions } = await service.questionList({ sessionId });
    if (values.json) output.out(`${JSON.stringify(questions)}\n`);
    else if (questions.length === 0) output.error('anima: the agent has asked nothing\n');
    else for (const question of questions) output.out(`#${question.id}\t${question.status}\tgoal ${question.goalId}\t${question.question}${question.answer ? `\t-> ${question.answer.replaceAll('\n', ' / ')}` : ''}\n`);
    return 0;
  }
  if (area === 'answer') {
    const questionId = numberOption(positional, 'QUESTION_ID', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: Number.NaN, isInteger: true });
    if (Number.isNaN(questionId)) throw new CliError(`answer: which question? e.g. anima answer 1 --facts "Mars, has-feature, OlympusMons" --snapshot S (\`anima questions\` lists them)`, 2);
    const answered = await service.questionAnswer({ sessionId, questionId, facts: (values.facts ?? []).join('\n'), note: values.note ?? '' });
    if (!answered.ok) throw new CliError([`answer: nothing changed:`, ...answered.problems.map((problem) => `  ${describeProblem(problem)}`)].join('\n'));
    await save();
    // The tool that asked changed since: the question was withdrawn, with the answer kept on it.
    if (answered.question.status === 'withdrawn') throw new CliError(`answer: question #${questionId} was withdrawn: ${answered.question.reason ?? 'it can no longer be answered'}; its goal goes on (\`anima resume\`)`);
    output.out(`answered question #${questionId}: ${answered.factsAdded} facts added; its goal goes on (\`anima resume\`)\n`);
    return 0;
  }
  if (area === 'write-up') {
    const goalId = numberOption(positional, 'GOAL_ID', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: Number.NaN, isInteger: true });
    if (Number.isNaN(goalId)) throw new CliError(`write-up: which goal? e.g. anima write-up 1 --snapshot S (\`anima goals\` lists them)`, 2);
    const written = await service.synthesize({ sessionId, goalId, ...(values.grammar ? { grammar: values.grammar } : {}) });
    if (!written.ok) throw new CliError(written.problems.map(describeProblem).join('\n'));
    output.out(`${written.text}\n`);
    return 0;
  }
  if (area === 'plan') {
    if (positional !== undefined) {
      const goalId = numberOption(positional, 'GOAL_ID', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: Number.NaN, isInteger: true });
      const { plans } = await service.planList({ sessionId, goalId });
      if (values.json) output.out(`${JSON.stringify(plans)}\n`);
      else if (plans.length === 0) output.error(`anima: goal ${goalId} has no plan yet (the agent plans when it first works on a goal; \`anima goals\` lists them)\n`);
      else for (const plan of plans) output.out(`plan ${plan.id}, made at cycle ${plan.cycle}: ${plan.status}${plan.statusReason ? ` (${plan.statusReason})` : ''}\n${planText(plan)}`);
      return 0;
    }
    if (!values.goal) throw new CliError(`plan: --goal "TEXT" (the plan it would make) or GOAL_ID (a goal's plans) is required\n\n${USAGE}`, 2);
    const attempt = numberOption(values.attempt, '--attempt', { min: 0, max: 100, fallback: 0, isInteger: true });
    const planned = await service.planPreview({ sessionId, description: values.goal, criteria: values.criteria ?? '', attempt });
    if (!planned.ok) throw new CliError([`plan: the goal cannot be planned:`, ...planned.problems.map((problem) => `  ${describeProblem(problem)}`)].join('\n'));
    output.out(values.json ? `${JSON.stringify(planned.plan)}\n` : planText(planned.plan));
    return 0;
  }
  if (area === 'reflect') {
    const reflected = await service.reflect({ sessionId });
    if (!reflected.ok) throw new CliError(reflected.problems.map(describeProblem).join('\n'));
    await save();
    output.out(values.json ? `${JSON.stringify(reflected.reflection)}\n` : reflectionText(reflected.reflection));
    return 0;
  }
  if (area === 'reflections') {
    const limit = numberOption(values.limit, '--limit', { min: 1, max: 1000, fallback: 50, isInteger: true });
    const { reflections } = await service.reflectionList({ sessionId, limit });
    if (values.json) output.out(`${JSON.stringify(reflections)}\n`);
    else if (reflections.length === 0) output.error('anima: no reflections yet (the agent reflects every few cycles; `anima reflect` reflects now)\n');
    else output.out(reflections.map(reflectionText).join(''));
    return 0;
  }
  if (area === 'settings') {
    const current = await service.agentSettingsGet({ sessionId });
    const wanted = {
      planning: values.planning === undefined ? current.planning : onOff(values.planning, '--planning'),
      reflectionInterval: numberOption(values['reflection-interval'], '--reflection-interval', { min: 1, max: 1000, fallback: current.reflectionInterval, isInteger: true }),
      maxFailedPlans: numberOption(values['max-failed-plans'], '--max-failed-plans', { min: 1, max: 20, fallback: current.maxFailedPlans, isInteger: true }),
    };
    const changed = JSON.stringify(wanted) !== JSON.stringify(current);
    if (changed) {
      const set = await service.agentSettingsSet({ sessionId, settings: wanted });
      if (!set.ok) throw new CliError(set.problems.map(describeProblem).join('\n'));
      await save();
    }
    output.out(values.json ? `${JSON.stringify(wanted)}\n` : `planning ${wanted.planning ? 'on' : 'off'}\nreflection every ${wanted.reflectionInterval} cycles\na goal is abandoned after ${wanted.maxFailedPlans} failed plans\n`);
    return 0;
  }
  if (area === 'notes') {
    const goalId = positional === undefined ? undefined : numberOption(positional, 'GOAL_ID', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: Number.NaN, isInteger: true });
    if (Number.isNaN(goalId)) throw new CliError(`notes: GOAL_ID must be a goal's number (\`anima goals\` lists them)`, 2);
    const { notes } = await service.noteList({ sessionId });
    const shown = notes.filter((note) => goalId === undefined || note.goalId === goalId);
    if (shown.length === 0) output.error(`anima: no notes${goalId === undefined ? '' : ` for goal ${goalId}`} (a goal gets notes when its words ask for them: "... and keep notes")\n`);
    output.out(shown.map((note) => note.text).join('\n'));
    return 0;
  }
  if (area === 'run') {
    if (!values.goal) throw new CliError(`run: --goal "TEXT" is required\n\n${USAGE}`, 2);
    if (values.kg) {
      let data: Blob;
      try {
        data = await openAsBlob(values.kg);
      } catch (error) {
        throw new CliError(`cannot read ${values.kg}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const imported = await service.kgImport({ sessionId, operationId: 'cli-import', fileName: values.kg, data });
      if (!imported.ok) throw new CliError([`${values.kg}: nothing imported:`, ...imported.problems.map((problem) => `  ${describeProblem(problem)}`)].join('\n'));
    }
    const priority = numberOption(values.priority, '--priority', { min: 0, max: 255, fallback: 128, isInteger: true });
    const added = await service.goalAdd({ sessionId, description: values.goal, criteria: values.criteria ?? '', priority });
    if (!added.ok) throw new CliError([`run: the goal cannot be added:`, ...added.problems.map((problem) => `  ${describeProblem(problem)}`)].join('\n'));
  }
  if (area === 'consolidate') {
    const consolidated = await service.memoryConsolidate({ sessionId });
    if (!consolidated.ok) throw new CliError(consolidated.problems.map(describeProblem).join('\n'));
    await save();
    output.out(`${consolidated.episodesAdded} episodes added; ${consolidated.entriesLeft} entries left in working memory\n`);
    return 0;
  }
  if (area === 'recall') {
    if (!values.query) throw new CliError(`recall: --query TEXT is required\n\n${USAGE}`, 2);
    const k = numberOption(values.limit, '--limit', { min: 1, max: 50, fallback: 5, isInteger: true });
    const { episodes } = await service.memoryRecall({ sessionId, text: values.query, k });
    if (values.json) output.out(`${JSON.stringify(episodes.map((episode) => ({ ...episode, learnings: episode.learnings.map((symbol) => symbol.label) })))}\n`);
    else if (episodes.length === 0) output.error('anima: no episode matches\n');
    else for (const episode of episodes) output.out(`${episode.score.toFixed(2)}\tcycle ${episode.cycle}\t${episode.summary}\n`);
    return 0;
  }
  if (area === 'goals') {
    const { goals } = await service.goalList({ sessionId, findingsLimit: 100_000 });
    if (values.json) output.out(`${JSON.stringify(goalsSummary(goals))}\n`);
    else for (const goal of goals) output.out(`#${goal.id}\t${goal.status}\t${goal.cyclesWorked} cycles\t${goal.findingsTotal} findings\t${goal.description}${goal.statusReason ? ` (${goal.statusReason})` : ''}\n`);
    return 0;
  }
  const maxCycles = area === 'cycle' ? 1 : numberOption(values['max-cycles'], '--max-cycles', { min: 1, max: 100_000, fallback: 20, isInteger: true });
  const run = await service.agentRun({ sessionId, operationId: 'cli-run', maxCycles, ...(inference ? { inference } : {}) }, (record) => {
    if (values.json)
      output.out(
        `${JSON.stringify({ cycle: record.cycle, goalId: record.goalId, phases: { observe: record.observe, orient: record.orient, decide: record.decide, act: record.act }, tool: record.tool, breakdown: record.candidates.find((candidate) => candidate.tool === record.tool)?.breakdown, candidates: record.candidates, outcome: record.outcome, ...(record.model ? { model: record.model } : {}) })}\n`,
      );
    else output.out(`cycle ${record.cycle}\t${record.tool}\t${record.outcome}\t${record.act}\n`);
  });
  if (!run.ok) throw new CliError(run.problems.map(describeProblem).join('\n'));
  await save();
  const { goals } = await service.goalList({ sessionId, findingsLimit: 100_000 });
  if (values.json) output.out(`${JSON.stringify(goalsSummary(goals))}\n`);
  else {
    const { usage } = run;
    const stopped =
      run.stoppedBecause === 'no-active-goal'
        ? 'no goal is active'
        : run.stoppedBecause === 'budget'
          ? `stopped: the run's budget is spent${run.budgetSpent ? `, ${describeSpentLimit(run.budgetSpent)}` : ''}`
          : run.stoppedBecause === 'storage-full'
            ? `stopped: storage is full; the run paused after cycle ${run.lastCycle}, and nothing of the unfinished cycle was kept`
            : `stopped: ${run.stoppedBecause}`;
    const model = usage.model ? `; ${usage.provider} ${usage.model}: ${usage.requests} requests, ${usage.inputTokens} tokens in, ${usage.outputTokens} out` : '';
    output.error(`anima: ${run.cyclesRun} cycles run (${stopped})${model}\n`);
    if (usage.fellBack) output.error(`anima: went on without the model (${usage.fellBack.kind}): ${usage.fellBack.because}\n`);
    for (const goal of goals) {
      output.out(`#${goal.id}\t${goal.status}\t${goal.description}\t${goal.findingsTotal} findings${goal.statusReason ? `\t${goal.statusReason}` : ''}\n`);
      if (goal.answer) output.out(`\t${answerViewText(goal.answer, 20)}\n`);
    }
  }
  return 0;
}

/** The endpoint --base-url, --model and --api-key describe. */
function endpointOption(values: { 'base-url'?: string; model?: string; 'api-key'?: string }, command: string): OpenAiEndpoint {
  if (values['base-url'] === undefined || values.model === undefined) throw new CliError(`${command}: --base-url URL and --model M are required\n\n${USAGE}`, 2);
  const endpoint = openAiEndpointSchema.safeParse({ baseUrl: values['base-url'], model: values.model, ...(values['api-key'] ? { apiKey: values['api-key'] } : {}) });
  if (!endpoint.success) throw new CliError(`${command}: ${endpoint.error.issues.map((issue) => issue.message).join('; ')}`, 2);
  return endpoint.data;
}

/** The model a run binds from --provider (openai or none), with its limits (--max-requests, --max-tokens). */
function runInference(values: { provider?: string; 'base-url'?: string; model?: string; 'api-key'?: string; 'max-requests'?: string; 'max-tokens'?: string }): InferenceSettings {
  const limits = {
    ...(values['max-requests'] !== undefined ? { requests: numberOption(values['max-requests'], '--max-requests', { min: 1, max: 1_000_000, fallback: 1, isInteger: true }) } : {}),
    ...(values['max-tokens'] !== undefined ? { inputTokens: numberOption(values['max-tokens'], '--max-tokens', { min: 1, max: 1_000_000_000, fallback: 1, isInteger: true }) } : {}),
  };
  if (values.provider === 'none') return { provider: 'none', limits, confidenceCap: DEFAULT_CONFIDENCE_CAP };
  if (values.provider !== 'openai') throw new CliError(`--provider is openai or none (WebLLM and GGUF run in the browser)\n\n${USAGE}`, 2);
  return { provider: 'openai-compatible', openAi: endpointOption(values, 'run'), limits, confidenceCap: DEFAULT_CONFIDENCE_CAP };
}

/** `anima llm check`: needs no session, only the endpoint. */
async function runLlmCommand(command: string | undefined, values: { provider?: string; 'base-url'?: string; model?: string; 'api-key'?: string; json?: boolean }, output: CliOutput): Promise<number> {
  if (command !== 'check') throw new CliError(`unknown command ${quoteInput(`llm ${command ?? ''}`)}\n\n${USAGE}`, 2);
  if (values.provider !== 'openai') throw new CliError(`llm check: --provider openai is the one the CLI can reach (WebLLM and GGUF run in the browser)\n\n${USAGE}`, 2);
  const outcome = await checkProvider(openAiCompatibleProvider(endpointOption(values, 'llm check')));
  const tokens = `${outcome.usage.promptTokens} prompt + ${outcome.usage.completionTokens} completion tokens`;
  if (values.json) output.out(`${JSON.stringify(outcome)}\n`);
  else if (outcome.ok) output.out(`ok: ${JSON.stringify(outcome.value)} after ${outcome.attempts.length} attempt${outcome.attempts.length === 1 ? '' : 's'}; ${tokens}\n`);
  else output.out(`bottleneck ${outcome.bottleneck.kind}: ${outcome.bottleneck.detail}\n${outcome.attempts.length} attempts; ${tokens}\n`);
  return outcome.ok ? 0 : 1;
}

/** A plan as lines: its strategy, then each step with its status, input, why, and how it ended. */
function planText(plan: Pick<Plan, 'strategy' | 'steps'>): string {
  const steps = plan.steps.map((step, index) => {
    const ended = step.result === undefined ? '' : ` -> ${step.result}${step.cycle === undefined ? '' : ` (cycle ${step.cycle})`}`;
    return `  ${index + 1}. [${step.status}] ${step.tool} ${JSON.stringify(step.input)}: ${step.rationale}${ended}\n`;
  });
  return `${plan.strategy}\n${steps.join('')}`;
}

/** A reflection as lines: what it looked at, what it changed and why, and how the psyche evolved. */
function reflectionText(reflection: Reflection): string {
  const lines = [`reflection at cycle ${reflection.cycle} (${reflection.trigger === 'interval' ? 'every few cycles' : 'asked for'}; cycles ${reflection.sinceCycle + 1} to ${reflection.cycle})`];
  for (const stat of reflection.toolStats) lines.push(`  tool ${stat.tool}: ${stat.successes} of ${stat.uses} uses advanced a goal`);
  for (const goal of reflection.goals) lines.push(`  goal ${goal.goalId} "${goal.description}": ${goal.progressed ? 'progressed' : `no progress for ${goal.stagnantFor} of its cycles`}`);
  lines.push(`  memory ${Math.round(reflection.memoryPressure * 100)}% full`);
  for (const adjustment of reflection.adjustments)
    lines.push(`  ${adjustment.kind}${adjustment.goalId === undefined ? '' : ` goal ${adjustment.goalId}`}${adjustment.to === undefined ? '' : ` ${adjustment.from} -> ${adjustment.to}`}: ${adjustment.reason}`);
  if (reflection.adjustments.length === 0) lines.push('  nothing to adjust');
  for (const change of reflection.psycheChanges) lines.push(`  psyche: ${change}`);
  if (reflection.psycheVersion !== undefined) lines.push(`  the psyche is now version ${reflection.psycheVersion}`);
  return `${lines.join('\n')}\n`;
}

/** "on" or "off", as a flag's value. */
function onOff(text: string, name: string): boolean {
  if (text === 'on' || text === 'off') return text === 'on';
  throw new CliError(`${name} must be on or off, not ${quoteInput(text)}`, 2);
}

/** The last line of `--json` output: each goal with its findings as labels. */
function goalsSummary(goals: GoalView[]) {
  return {
    goals: goals.map((goal) => ({
      description: goal.description,
      status: goal.status,
      cycles: goal.cyclesWorked,
      ...(goal.answer ? { answer: goal.answer } : {}),
      findings: goal.findings.map(labelsOf),
    })),
  };
}

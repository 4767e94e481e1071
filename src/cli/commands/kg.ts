import { openAsBlob } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { AgentApi } from '#core/api.ts';
import { quoteInput } from '#core/quote-input.ts';
import { describeProblem } from '#core/result.ts';
import { numberOption } from '../options.ts';
import { labelsOf, problemLines } from '../output.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';
import { USAGE } from '../usage.ts';
import { describeShared, prefixes, readerLanguage } from './kg-vocabulary.ts';

/** `anima kg ...`: the knowledge graph of the snapshot's session. */
export const KG_COMMANDS: Record<string, SessionCommand> = {
  'kg import': { run: importFile, createsSnapshot: true },
  'kg stats': { run: stats },
  'kg query': { run: query },
  'kg export': { run: exportGraph },
  'kg infer': { run: infer },
  'kg path': { run: path },
  'kg similar': { run: similar },
  'kg prefixes': { run: prefixes },
};

/** Reads a file the user named as a Blob, or says why it cannot. */
export async function readBlob(file: string): Promise<Blob> {
  try {
    return await openAsBlob(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function importFile({ operands, values, service, sessionId, save, output }: SessionContext): Promise<number> {
  const [file] = operands;
  if (!file) throw new CliError(`kg import: which FILE?\n\n${USAGE}`, 2);
  const format = values.format;
  if (format !== undefined && format !== 'n-triples' && format !== 'turtle' && format !== 'csv')
    throw new CliError(`kg import: --format must be n-triples, turtle or csv, not ${quoteInput(format)}`, 2);
  const data = await readBlob(file);
  const language = readerLanguage();
  const outcome = await service.kgImport({
    sessionId,
    operationId: 'cli-import',
    fileName: file,
    format,
    data,
    ...(values['link-same-labels'] ? { linkSameLabels: true } : {}),
    ...(language !== undefined ? { language } : {}),
    ...(values['dry-run'] ? { dryRun: true } : {}),
  });
  if (!outcome.ok) throw new CliError(problemLines(`${file}: nothing imported:`, outcome.problems));
  if (outcome.isDryRun) {
    // A preview: what the file would add, and what it shares with the graph, before anything is linked or written.
    output.out(
      `${file}: ${outcome.statements} statements would add ${outcome.added} new triples and raise ${outcome.updated} in confidence; nothing written (--dry-run)\n`,
    );
    output.error(describeShared(outcome.shared, { isPreview: true }));
    return 0;
  }
  await save();
  output.out(
    `${file}: ${outcome.statements} statements, ${outcome.added} new triples, ${outcome.updated} raised in confidence; ` +
      `the graph has ${outcome.stats.triples} triples and ${outcome.stats.symbols} symbols\n`,
  );
  output.error(describeShared(outcome.shared));
  return 0;
}

async function stats({ values, service, sessionId, output }: SessionContext): Promise<number> {
  const stats = await service.kgStats({ sessionId });
  output.out(
    values.json
      ? `${JSON.stringify(stats)}\n`
      : `triples   ${stats.triples}\nsymbols   ${stats.symbols}\nentities  ${stats.entities}\nrelations ${stats.relations}\nliterals  ${stats.literals}\n`,
  );
  return 0;
}

async function query({ operands, values, service, sessionId, snapshotPath, output }: SessionContext): Promise<number> {
  const [query] = operands;
  if (!query)
    throw new CliError(`kg query: which query? e.g. anima kg query "?x is-a mammal" --snapshot ${snapshotPath}`, 2);
  const limit = numberOption(values.limit, '--limit', { min: 1, max: 10000, fallback: 1000, isInteger: true });
  const answer = await service.kgQuery({ sessionId, query, limit });
  if (!answer.ok) throw new CliError(problemLines(`kg query: cannot read ${quoteInput(query)}:`, answer.problems));
  if (values.json) {
    const rows = answer.rows.map((row) => Object.fromEntries(answer.variables.map((name) => [name, row[name]?.label])));
    output.out(
      `${JSON.stringify({ variables: answer.variables, rows, isTruncated: answer.isTruncated, unknownTerms: answer.unknownTerms })}\n`,
    );
  } else {
    for (const term of answer.unknownTerms) output.error(`anima: unknown symbol ${term}\n`);
    if (answer.variables.length > 0) output.out(`${answer.variables.map((name) => `?${name}`).join('\t')}\n`);
    for (const row of answer.rows) output.out(`${answer.variables.map((name) => row[name]?.label ?? '').join('\t')}\n`);
    if (answer.isTruncated)
      output.error(`anima: more than ${limit} answers; showing the first ${limit} (use --limit)\n`);
  }
  return 0;
}

async function exportGraph({ values, service, sessionId, output }: SessionContext): Promise<number> {
  const exported = await service.kgExport({ sessionId, format: 'n-triples' });
  if (values.output) {
    await writeFile(values.output, exported.text);
    output.error(`anima: wrote ${exported.tripleCount} triples to ${values.output}\n`);
  } else output.out(exported.text);
  return 0;
}

async function infer({ values, service, sessionId, save, output }: SessionContext): Promise<number> {
  const minConfidence = numberOption(values['min-confidence'], '--min-confidence', { min: 0, max: 1, fallback: 0.1 });
  const maxIterations = numberOption(values['max-iterations'], '--max-iterations', {
    min: 1,
    max: 100,
    fallback: 10,
    isInteger: true,
  });
  const run = await service.kgInfer({ sessionId, minConfidence, maxIterations, limit: 5000 });
  if (!run.ok) throw new CliError(run.problems.map(describeProblem).join('\n'));
  await save();
  if (values.json) {
    const facts = run.facts.map((entry) => ({ ...labelsOf(entry.fact), rule: entry.rule }));
    output.out(
      `${JSON.stringify({ derived: run.derived, raised: run.raised, iterations: run.iterations, hasConverged: run.hasConverged, isTruncated: run.isTruncated, facts })}\n`,
    );
  } else {
    for (const entry of run.facts)
      output.out(
        `${entry.fact.subject.label}\t${entry.fact.predicate.label}\t${entry.fact.object.label}\t${entry.fact.confidence.toFixed(3)}\t${entry.rule}\n`,
      );
    output.error(
      `anima: ${run.derived} new facts, ${run.raised} raised in confidence, in ${run.iterations} rounds` +
        `${run.hasConverged ? '' : ' (stopped before the rules ran out: raise --max-iterations)'}${run.isTruncated ? ' (stopped at the size limit)' : ''}\n`,
    );
  }
  return 0;
}

async function path({ operands, values, service, sessionId, snapshotPath, output }: SessionContext): Promise<number> {
  const [fromLabel, toLabel] = operands;
  if (!fromLabel || !toLabel)
    throw new CliError(`kg path: which two symbols? e.g. anima kg path Dog Mammal --snapshot ${snapshotPath}`, 2);
  const [from, to] = await Promise.all([fromLabel, toLabel].map((label) => symbolIdOf(service, sessionId, label)));
  const path = await service.kgPath({ sessionId, from: from!, to: to! });
  if (!path.isFound)
    throw new CliError(`no path between ${quoteInput(fromLabel)} and ${quoteInput(toLabel)} within 8 steps`);
  if (values.json)
    output.out(
      `${JSON.stringify(path.steps.map((step) => ({ ...labelsOf(step.fact), isForward: step.isForward })))}\n`,
    );
  else
    for (const step of path.steps)
      output.out(`${step.fact.subject.label} ${step.fact.predicate.label} ${step.fact.object.label}\n`);
  return 0;
}

async function similar({
  operands,
  values,
  service,
  sessionId,
  snapshotPath,
  output,
}: SessionContext): Promise<number> {
  const [label] = operands;
  if (!label) throw new CliError(`kg similar: which symbol? e.g. anima kg similar Dog --snapshot ${snapshotPath}`, 2);
  const k = numberOption(values.limit, '--limit', { min: 1, max: 100, fallback: 10, isInteger: true });
  const { hits } = await service.kgSimilar({ sessionId, symbolId: await symbolIdOf(service, sessionId, label), k });
  if (values.json)
    output.out(`${JSON.stringify(hits.map((hit) => ({ symbol: hit.symbol.label, similarity: hit.similarity })))}\n`);
  else for (const hit of hits) output.out(`${hit.similarity.toFixed(3)}\t${hit.symbol.label}\n`);
  return 0;
}

/** The symbol with exactly this label (case-insensitive), or a clear error. */
async function symbolIdOf(service: AgentApi, sessionId: string, label: string): Promise<number> {
  const { hits } = await service.kgSearch({ sessionId, text: label, limit: 1 });
  const hit = hits[0];
  if (!hit || hit.symbol.label.toLowerCase() !== label.toLowerCase())
    throw new CliError(`unknown symbol ${quoteInput(label)}${hit ? ` (did you mean ${hit.symbol.label}?)` : ''}`);
  return hit.symbol.id;
}

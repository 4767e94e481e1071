import { symbolKey } from '#core/kg/symbol.ts';
import { type Problem, problemsFromZod, type Result } from '#core/result.ts';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { relabelNumberedNames } from '#core/kg/numbered-names.ts';
import { type Snapshot, snapshotSchema } from './snapshot-format.ts';
import { migrateSnapshot } from './snapshot-migrate.ts';

/**
 * Checks a snapshot completely (shape, then references between its parts) before anything is
 * written. Problems name the place: `symbols.3.label: ...`, `triples.10: subject 99 is not a symbol`.
 */
export function parseSnapshot(value: unknown): Result<Snapshot> {
  const parsed = snapshotSchema.safeParse(migrateSnapshot(value));
  if (!parsed.success) return { ok: false, error: problemsFromZod(parsed.error) };
  const snapshot = parsed.data;
  const problems: Problem[] = [];
  const symbolIds = new Set<number>();
  const symbolKeys = new Set<string>();
  const iris = new Set<string>();
  for (const [index, symbol] of snapshot.symbols.entries()) {
    if (symbolIds.has(symbol.id))
      problems.push({ path: `symbols.${index}.id`, message: `symbol id ${symbol.id} appears twice` });
    symbolIds.add(symbol.id);
    if (symbol.kind !== 'literal' && symbol.label === '')
      problems.push({ path: `symbols.${index}.label`, message: 'only a literal may have an empty label' });
    const key = symbolKey(symbol);
    if (symbolKeys.has(key))
      problems.push({
        path: `symbols.${index}.label`,
        message: `another symbol is already labelled "${symbol.label}" (labels are unique, ignoring case)`,
      });
    symbolKeys.add(key);
    if (symbol.iri !== undefined && iris.has(symbol.iri))
      problems.push({ path: `symbols.${index}.iri`, message: `another symbol already has the IRI ${symbol.iri}` });
    if (symbol.iri !== undefined) iris.add(symbol.iri);
  }
  const provenanceIds = new Set<number>();
  for (const [index, record] of snapshot.provenance.entries()) {
    if (provenanceIds.has(record.id))
      problems.push({ path: `provenance.${index}.id`, message: `provenance id ${record.id} appears twice` });
    provenanceIds.add(record.id);
  }
  const tripleKeys = new Set<string>();
  for (const [index, triple] of snapshot.triples.entries()) {
    for (const position of ['subject', 'predicate', 'object'] as const) {
      if (!symbolIds.has(triple[position]))
        problems.push({
          path: `triples.${index}.${position}`,
          message: `${triple[position]} is not a symbol of this snapshot`,
        });
    }
    const key = `${triple.subject} ${triple.predicate} ${triple.object}`;
    if (tripleKeys.has(key)) problems.push({ path: `triples.${index}`, message: 'this triple appears twice' });
    tripleKeys.add(key);
    if (triple.provenanceId !== undefined && !provenanceIds.has(triple.provenanceId))
      problems.push({
        path: `triples.${index}.provenanceId`,
        message: `${triple.provenanceId} is not a provenance record of this snapshot`,
      });
    if (problems.length >= 20) break;
  }
  const goalIds = new Set(snapshot.goals.map((goal) => goal.id));
  for (const [index, goal] of snapshot.goals.entries()) {
    if (goal.parentId !== undefined && !goalIds.has(goal.parentId))
      problems.push({ path: `goals.${index}.parentId`, message: `${goal.parentId} is not a goal of this snapshot` });
    for (const [findingIndex, finding] of goal.findings.entries())
      if (finding.some((id) => !symbolIds.has(id)))
        problems.push({
          path: `goals.${index}.findings.${findingIndex}`,
          message: 'names a symbol that is not in this snapshot',
        });
    for (const [entityIndex, entity] of (goal.answer?.entities ?? []).entries())
      if (!symbolIds.has(entity.symbol))
        problems.push({
          path: `goals.${index}.answer.entities.${entityIndex}`,
          message: `${entity.symbol} is not a symbol of this snapshot`,
        });
    for (const [proofIndex, fact] of (goal.answer?.proof ?? []).entries())
      if (fact.some((id) => !symbolIds.has(id)))
        problems.push({
          path: `goals.${index}.answer.proof.${proofIndex}`,
          message: 'names a symbol that is not in this snapshot',
        });
    for (const [choiceIndex, choice] of (goal.chosenSymbols ?? []).entries())
      if (!symbolIds.has(choice.symbol))
        problems.push({
          path: `goals.${index}.chosenSymbols.${choiceIndex}.symbol`,
          message: `${choice.symbol} is not a symbol of this snapshot`,
        });
    if (problems.length >= 20) break;
  }
  for (const [index, record] of snapshot.cycles.entries())
    if (!goalIds.has(record.goalId))
      problems.push({ path: `cycles.${index}.goalId`, message: `${record.goalId} is not a goal of this snapshot` });
  const versions = new Set<number>();
  for (const [index, version] of snapshot.psyches.entries()) {
    if (versions.has(version.version))
      problems.push({ path: `psyches.${index}.version`, message: `psyche version ${version.version} appears twice` });
    versions.add(version.version);
  }
  for (const [index, approval] of snapshot.approvals.entries())
    if (!goalIds.has(approval.goalId))
      problems.push({
        path: `approvals.${index}.goalId`,
        message: `${approval.goalId} is not a goal of this snapshot`,
      });
  for (const [index, question] of snapshot.questions.entries())
    if (!goalIds.has(question.goalId))
      problems.push({
        path: `questions.${index}.goalId`,
        message: `${question.goalId} is not a goal of this snapshot`,
      });
  for (const [index, artifact] of snapshot.artifacts.entries())
    if (!goalIds.has(artifact.goalId))
      problems.push({
        path: `artifacts.${index}.goalId`,
        message: `${artifact.goalId} is not a goal of this snapshot`,
      });
  const jobIds = new Set(snapshot.jobs.map((job) => job.id));
  for (const [index, goal] of snapshot.goals.entries())
    if (goal.waitingForJob !== undefined && !jobIds.has(goal.waitingForJob))
      problems.push({
        path: `goals.${index}.waitingForJob`,
        message: `${goal.waitingForJob} is not a background job of this snapshot`,
      });
  for (const [index, job] of snapshot.jobs.entries())
    if (!goalIds.has(job.goalId))
      problems.push({ path: `jobs.${index}.goalId`, message: `${job.goalId} is not a goal of this snapshot` });
  for (const [index, plan] of snapshot.plans.entries())
    if (!goalIds.has(plan.goalId))
      problems.push({ path: `plans.${index}.goalId`, message: `${plan.goalId} is not a goal of this snapshot` });
  // Row ids are primary keys: a repeat would make the restore fail half way (it is one transaction, but say why).
  const rows = {
    goals: snapshot.goals,
    workingMemory: snapshot.workingMemory,
    episodes: snapshot.episodes,
    approvals: snapshot.approvals,
    questions: snapshot.questions,
    documents: snapshot.documents,
    artifacts: snapshot.artifacts,
    plans: snapshot.plans,
    reflections: snapshot.reflections,
    jobs: snapshot.jobs,
  };
  for (const [table, records] of Object.entries(rows)) {
    const seen = new Set<number>();
    for (const [index, record] of records.entries()) {
      if (seen.has(record.id))
        problems.push({ path: `${table}.${index}.id`, message: `id ${record.id} appears twice` });
      seen.add(record.id);
    }
  }
  const approvalIds = new Set(snapshot.approvals.map((approval) => approval.id));
  for (const [index, record] of snapshot.cycles.entries())
    if (record.shadow?.approvalId !== undefined && !approvalIds.has(record.shadow.approvalId))
      problems.push({
        path: `cycles.${index}.shadow.approvalId`,
        message: `${record.shadow.approvalId} is not an approval of this snapshot`,
      });
  return problems.length > 0
    ? { ok: false, error: problems.slice(0, 20) }
    : { ok: true, value: withNamedSymbols(snapshot) };
}

/** A snapshot whose symbols an older Anima numbered (Mammal-2) with them named as imports name them now (see relabelNumberedNames). */
function withNamedSymbols(snapshot: Snapshot): Snapshot {
  if (!snapshot.symbols.some((symbol) => symbol.kind !== 'literal' && /-\d+$/u.test(symbol.label))) return snapshot;
  const relabelled = new Map(
    relabelNumberedNames(KnowledgeGraph.from(snapshot.symbols, snapshot.triples)).map((symbol) => [symbol.id, symbol]),
  );
  return relabelled.size === 0
    ? snapshot
    : { ...snapshot, symbols: snapshot.symbols.map((symbol) => relabelled.get(symbol.id) ?? symbol) };
}

import type { Goal } from '#core/records/goal.ts';
import type { Fact, GoalView, GraphStats, ImportOutcome } from '#core/api.ts';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { KgSymbol } from '#core/kg/symbol.ts';
import type { Triple } from '#core/kg/triple.ts';
import { answerViewOf, displayName } from '#core/questions/answer-view.ts';

/** How the service shows core records across the boundary: labels with ids, plain data. */
export function goalViewOf(graph: KnowledgeGraph, goal: Goal, findingsLimit = 200): GoalView {
  const kept = keptFindings(graph, goal);
  const findings = kept.slice(0, findingsLimit);
  return {
    id: goal.id!,
    description: goal.description,
    successCriteria: goal.successCriteria,
    priority: goal.priority,
    status: goal.status,
    ...(goal.statusReason !== undefined ? { statusReason: goal.statusReason } : {}),
    ...(goal.parentId !== undefined ? { parentId: goal.parentId } : {}),
    cyclesWorked: goal.cyclesWorked,
    findings: findings.map((triple) => factOf(graph, triple)),
    findingsTotal: kept.length,
    ...(goal.answer ? { answer: answerViewOf(graph, goal.answer) } : {}),
    ...(goal.chosenSymbols?.length
      ? {
          chosenSymbols: goal.chosenSymbols.map((choice) => {
            const iri = graph.symbol(choice.symbol)?.iri;
            return { ...choice, label: displayName(graph, choice.symbol), ...(iri ? { iri } : {}) };
          }),
        }
      : {}),
  };
}

/** A goal's findings still in the graph (a fact can be forgotten since): the total is what the list and the write-up hold. */
export function keptFindings(graph: KnowledgeGraph, goal: Pick<Goal, 'findings'>): Triple[] {
  return goal.findings
    .map(([subject, predicate, object]) => graph.triple(subject, predicate, object))
    .filter((triple): triple is Triple => triple !== undefined);
}

export function cancelledOutcome(): ImportOutcome {
  return { ok: false, reason: 'cancelled', problems: [{ message: 'the import was cancelled; nothing was changed' }] };
}

export function statsOf(graph: KnowledgeGraph): GraphStats {
  let entities = 0;
  let relations = 0;
  let literals = 0;
  for (const symbol of graph.symbols()) {
    if (symbol.kind === 'entity') entities++;
    else if (symbol.kind === 'relation') relations++;
    else literals++;
  }
  return { symbols: graph.symbolCount, entities, relations, literals, triples: graph.tripleCount };
}

export function refOf(symbol: KgSymbol) {
  return {
    id: symbol.id,
    label: symbol.label,
    kind: symbol.kind,
    ...(symbol.iri !== undefined ? { iri: symbol.iri } : {}),
  };
}

export function symbolOrThrow(graph: KnowledgeGraph, id: number): KgSymbol {
  const symbol = graph.symbol(id);
  if (!symbol) throw new Error(`symbol ${id} is referenced but missing`);
  return symbol;
}

export function factOf(
  graph: KnowledgeGraph,
  triple: Pick<Triple, 'subject' | 'predicate' | 'object' | 'confidence' | 'provenanceId'>,
): Fact {
  return {
    subject: refOf(symbolOrThrow(graph, triple.subject)),
    predicate: refOf(symbolOrThrow(graph, triple.predicate)),
    object: refOf(symbolOrThrow(graph, triple.object)),
    confidence: triple.confidence,
    ...(triple.provenanceId !== undefined ? { provenanceId: triple.provenanceId } : {}),
  };
}

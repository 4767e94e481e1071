import { z } from 'zod';
import { rejectionOf } from '#core/records/rejection.ts';
import { parseQuery, runQuery } from '#core/kg/query.ts';
import type { Statement } from '#core/sparql/bring-in.ts';
import type { ReachableEndpoint } from '#core/records/sparql-endpoint.ts';
import type { FactIds, Tool, ToolOutcome, ToolState } from './tool.ts';

/** The endpoints the goal has not asked yet (each is asked once per goal, whatever came back). */
function unasked(state: ToolState): ReachableEndpoint[] {
  const asked = new Set(state.goal.fetchedUrls ?? []);
  return (state.sparqlEndpoints ?? []).filter((endpoint) => !asked.has(endpoint.url));
}

/** Whether the local graph already answers the goal: its pattern has enough answers. */
function isAnsweredLocally(state: ToolState): boolean {
  if (state.criteria.kind !== 'pattern') return state.goalSymbols.length > 0;
  return runQuery(state.graph, state.criteria.patterns, state.criteria.minCount).rows.length >= state.criteria.minCount;
}

/** A failed ask: by default the endpoint did not answer as required (a missing dependency). */
const failed = (
  endpoint: ReachableEndpoint,
  summary: string,
  rejection: ToolOutcome['rejection'] = rejectionOf(
    'dependency_unavailable',
    `an answer from the endpoint ${endpoint.name}`,
    summary,
  ),
): ToolOutcome => ({ ok: false, summary, facts: [], symbols: [], fetchedUrl: endpoint.url, rejection });

/**
 * Asks a SPARQL endpoint the user added (and no other) what the goal asks, when the local graph
 * lacks the goal's symbols or answers: a pattern goal's pattern, over the standard vocabularies;
 * a goal of words, the triples around what the endpoint names by those words. What comes back is
 * kept in the graph at the endpoint's trust, with the endpoint, the queries and the time as its
 * provenance; a failure says why in words, and writes nothing.
 */
export const sparqlQuery: Tool<{ endpoint: string; pattern?: string; words?: string[] }> = {
  name: 'sparql_query',
  description: 'ask a SPARQL endpoint the user added for what the goal needs, and keep the answer with its source',
  archetype: 'explorer',
  danger: 'cautious',
  capabilities: ['network', 'writeKg'],
  input: z.object({
    endpoint: z.string().min(1).max(200),
    pattern: z.string().min(1).max(1000).optional(),
    words: z.array(z.string().min(1).max(100)).max(10).optional(),
  }),
  unavailableBecause: (state) => {
    if ((state.sparqlEndpoints ?? []).length === 0)
      return 'no SPARQL endpoint is added (anima endpoint add, or the Knowledge screen)';
    if (!state.isOnline) return 'this device is offline';
    return unasked(state).length === 0 ? 'every endpoint was asked for this goal' : undefined;
  },
  baseScore: (state) => (isAnsweredLocally(state) ? 0.15 : 0.85),
  proposeInput: (state) => ({
    endpoint: unasked(state)[0]?.name ?? '',
    ...(state.criteria.kind === 'pattern'
      ? { pattern: state.criteria.text }
      : { words: state.criteria.keywords.slice(0, 10) }),
  }),
  isPreApproved: (input, state) =>
    (state.sparqlEndpoints ?? []).some((endpoint) => endpoint.name === input.endpoint && endpoint.mayCallWithoutAsking),
  async run(input, state) {
    const endpoint = (state.sparqlEndpoints ?? []).find((candidate) => candidate.name === input.endpoint);
    if (!endpoint)
      return {
        ok: false,
        summary: `"${input.endpoint}" is not an endpoint you added`,
        facts: [],
        symbols: [],
        rejection: rejectionOf(
          'policy_block',
          'an endpoint the user added and this run may reach',
          `"${input.endpoint}" is not one of ${(state.sparqlEndpoints ?? []).map((known) => known.name).join(', ') || 'none'}`,
        ),
      };
    // Loaded on first use: a session without endpoints never needs it (and a first visit does not download it).
    const { answerPatterns, findNames, pullNeighbourhood, stageStatements } = await import('#core/sparql/bring-in.ts');
    // One deadline for the whole ask (lookups and answer together): a run never waits past it.
    const signal = AbortSignal.timeout(endpoint.timeoutSeconds * 1000);
    let statements: Statement[];
    let queries: string[];
    let said: string;
    if (input.pattern !== undefined) {
      const parsed = parseQuery(input.pattern);
      if (!parsed.ok)
        return failed(
          endpoint,
          `cannot read the pattern ${input.pattern}`,
          rejectionOf('invalid_arguments', 'a pattern of triples joined by " . "', input.pattern),
        );
      const answered = await answerPatterns(endpoint, parsed.value, signal);
      if (!answered.ok) return failed(endpoint, `SPARQL at ${endpoint.name}: ${answered.reason}`);
      ({ statements } = answered);
      queries = answered.asked.queries;
      said = `${answered.answers}${answered.isTruncated ? '+' : ''} answers to ${input.pattern}`;
    } else {
      const words = input.words ?? [];
      queries = [];
      const asked = { queries, ms: 0 };
      const found = await findNames(
        endpoint,
        words.map((name) => ({ name, asPredicate: false })),
        asked,
        signal,
      );
      if (!found.ok) return failed(endpoint, `SPARQL at ${endpoint.name}: ${found.reason}`);
      const iris = [...new Set([...found.names.values()].flat())].slice(0, 5);
      if (iris.length === 0)
        return failed(
          endpoint,
          `SPARQL at ${endpoint.name}: it names nothing ${words.map((word) => `"${word}"`).join(', ')}`,
          rejectionOf(
            'precondition_miss',
            `a resource at ${endpoint.name} named ${words.join(', ')}`,
            'the endpoint names none of them',
          ),
        );
      statements = [];
      for (const iri of iris) {
        const pulled = await pullNeighbourhood(endpoint, {
          around: iri,
          depth: 1,
          maxTriples: endpoint.rowLimit,
          signal,
        });
        if (!pulled.ok) return failed(endpoint, `SPARQL at ${endpoint.name}: ${pulled.reason}`);
        queries.push(...pulled.asked.queries);
        statements.push(...pulled.statements);
      }
      const named = words.filter((word) => found.names.has(word.toLowerCase()));
      said = `${statements.length} triples around ${iris.length} resource${iris.length === 1 ? '' : 's'} named ${named.join(', ')}`;
    }
    const batch = state.graph.batch({ now: state.now });
    stageStatements(batch, statements, endpoint.trust);
    const delta = batch.delta;
    const facts: FactIds[] = [...delta.addedTriples, ...delta.updatedTriples].map((triple) => [
      triple.subject,
      triple.predicate,
      triple.object,
    ]);
    // Facts the graph held already (the user's own, say) are findings too: the endpoint agrees.
    const known: FactIds[] = statements.flatMap(({ subject, predicate, object }) => {
      const ids = [subject, predicate, object].map((term) =>
        term.type === 'iri'
          ? state.graph.symbolByIri(term.value)?.id
          : term.type === 'label'
            ? state.graph.symbolByLabel(term.value)?.id
            : undefined,
      );
      const [s, p, o] = ids;
      return s !== undefined && p !== undefined && o !== undefined && state.graph.triple(s, p, o)
        ? [[s, p, o] as FactIds]
        : [];
    });
    const all = [...facts, ...known];
    return {
      ok: true,
      summary: `SPARQL at ${endpoint.name}: ${said}; ${delta.addedTriples.length} new facts`,
      facts: all,
      evidence: '',
      symbols: [...new Set(all.flatMap(([subject, , object]) => [subject, object]))].slice(0, 50),
      fetchedUrl: endpoint.url,
      graphChange: {
        delta,
        provenance: () => ({
          sessionId: state.sessionId,
          kind: 'sparql',
          sources: [endpoint.url],
          confidence: endpoint.trust,
          cycle: state.cycle,
          detail:
            `asked the endpoint ${endpoint.name} (${endpoint.url}) at ${new Date(state.now).toISOString()}:\n${queries.join('\n\n')}`.slice(
              0,
              20_000,
            ),
          createdAt: state.now,
        }),
      },
    };
  },
};

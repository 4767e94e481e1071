import type { Fact, SymbolRef } from '#core/api.ts';

/** A symbol drawn in the neighbourhood graph, with the size of the pill its label sits in. */
export type NeighbourhoodNode = {
  symbol: SymbolRef;
  isCentre: boolean;
  /** The label as drawn: long labels are shortened (the full one is the node's accessible name). */
  displayLabel: string;
  halfWidth: number;
  halfHeight: number;
};

/** The triples in one direction between the centre and one neighbour, drawn as one arrow. */
export type NeighbourhoodEdge = {
  /** Stable within a neighbourhood: the neighbour's id and the direction. */
  key: string;
  neighbourId: number;
  /** True when the centre is the subject (the arrow points at the neighbour). */
  isOutgoing: boolean;
  predicates: string[];
  /** True when triples run the other way too, so the two arrows are drawn as curves apart. */
  hasReverse: boolean;
};

/** What the neighbourhood graph draws: the centre first, then its neighbours, closest first. */
export type Neighbourhood = {
  nodes: NeighbourhoodNode[];
  edges: NeighbourhoodEdge[];
  /** Neighbours among the given facts that were left out to keep the drawing readable. */
  hiddenCount: number;
  /** How many distinct neighbours the given facts name. */
  neighbourCount: number;
};

/** How much of the neighbourhood to draw. */
export type NeighbourhoodOptions = {
  /** The most nodes to draw, the centre included. */
  maxNodes: number;
};

/** Labels longer than this are cut short with an ellipsis in the drawing. */
export const MAX_DRAWN_LABEL = 18;
const FONT_SIZE = 12;
const CENTRE_FONT_SIZE = 13;
/** A rough average glyph width of the UI font, in ems: close enough to size a pill, no DOM needed. */
const GLYPH_WIDTH_EM = 0.6;
const PADDING_X = 10;

/**
 * Builds the drawing of a symbol's neighbourhood from its outgoing and incoming triples: one
 * node per distinct neighbour (triples from a symbol to itself are left out), one edge per
 * neighbour and direction, labelled with the predicates. When there are more neighbours than
 * fit, those linked by the most triples (then the most confident) are kept.
 */
export function neighbourhoodOf(
  centre: SymbolRef,
  outgoing: readonly Fact[],
  incoming: readonly Fact[],
  options: NeighbourhoodOptions,
): Neighbourhood {
  type Candidate = {
    symbol: SymbolRef;
    firstSeen: number;
    tripleCount: number;
    bestConfidence: number;
    outgoing: string[];
    incoming: string[];
  };
  const candidates = new Map<number, Candidate>();
  const add = (neighbour: SymbolRef, predicate: SymbolRef, confidence: number, isOutgoing: boolean) => {
    if (neighbour.id === centre.id) return;
    let candidate = candidates.get(neighbour.id);
    if (!candidate) {
      candidate = {
        symbol: neighbour,
        firstSeen: candidates.size,
        tripleCount: 0,
        bestConfidence: 0,
        outgoing: [],
        incoming: [],
      };
      candidates.set(neighbour.id, candidate);
    }
    candidate.tripleCount += 1;
    candidate.bestConfidence = Math.max(candidate.bestConfidence, confidence);
    const predicates = isOutgoing ? candidate.outgoing : candidate.incoming;
    if (!predicates.includes(predicate.label)) predicates.push(predicate.label);
  };
  for (const fact of outgoing) add(fact.object, fact.predicate, fact.confidence, true);
  for (const fact of incoming) add(fact.subject, fact.predicate, fact.confidence, false);

  const ranked = [...candidates.values()].sort(
    (a, b) => b.tripleCount - a.tripleCount || b.bestConfidence - a.bestConfidence || a.firstSeen - b.firstSeen,
  );
  const kept = ranked.slice(0, Math.max(0, options.maxNodes - 1));

  const nodes: NeighbourhoodNode[] = [
    nodeOf(centre, true),
    ...kept.map((candidate) => nodeOf(candidate.symbol, false)),
  ];
  const edges: NeighbourhoodEdge[] = kept.flatMap((candidate) => {
    const hasReverse = candidate.outgoing.length > 0 && candidate.incoming.length > 0;
    const directions: NeighbourhoodEdge[] = [];
    if (candidate.outgoing.length > 0) {
      directions.push({
        key: `${candidate.symbol.id}-out`,
        neighbourId: candidate.symbol.id,
        isOutgoing: true,
        predicates: candidate.outgoing,
        hasReverse,
      });
    }
    if (candidate.incoming.length > 0) {
      directions.push({
        key: `${candidate.symbol.id}-in`,
        neighbourId: candidate.symbol.id,
        isOutgoing: false,
        predicates: candidate.incoming,
        hasReverse,
      });
    }
    return directions;
  });
  return { nodes, edges, hiddenCount: ranked.length - kept.length, neighbourCount: ranked.length };
}

/** An edge's label: its predicates, shortened to the first two and a count of the rest. */
export function edgeLabelOf(edge: Pick<NeighbourhoodEdge, 'predicates'>): string {
  const [first, second, ...rest] = edge.predicates;
  const shown = [first, second]
    .filter((predicate) => predicate !== undefined)
    .map((predicate) => shorten(predicate, MAX_DRAWN_LABEL))
    .join(', ');
  return rest.length > 0 ? `${shown} +${rest.length}` : shown;
}

function nodeOf(symbol: SymbolRef, isCentre: boolean): NeighbourhoodNode {
  const displayLabel = shorten(symbol.label, MAX_DRAWN_LABEL);
  const fontSize = isCentre ? CENTRE_FONT_SIZE : FONT_SIZE;
  return {
    symbol,
    isCentre,
    displayLabel,
    halfWidth: Math.ceil(([...displayLabel].length * fontSize * GLYPH_WIDTH_EM) / 2) + PADDING_X,
    halfHeight: isCentre ? 15 : 13,
  };
}

function shorten(text: string, maxLength: number): string {
  const characters = [...text];
  return characters.length <= maxLength ? text : `${characters.slice(0, maxLength - 1).join('')}…`;
}

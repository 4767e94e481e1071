import { describe, expect, it } from 'vitest';
import type { Fact, SymbolRef } from '#core/api.ts';
import { edgeLabelOf, neighbourhoodOf } from './neighbourhood.ts';

let nextId = 1;
const symbols = new Map<string, SymbolRef>();
function symbolOf(label: string): SymbolRef {
  let symbol = symbols.get(label);
  if (!symbol) {
    symbol = { id: nextId++, label, kind: 'entity' };
    symbols.set(label, symbol);
  }
  return symbol;
}
function fact(subject: string, predicate: string, object: string, confidence = 1): Fact {
  return { subject: symbolOf(subject), predicate: symbolOf(predicate), object: symbolOf(object), confidence };
}

const dog = symbolOf('Dog');

describe('neighbourhoodOf', () => {
  it('draws the symbol first, then one node per neighbour, and one arrow per neighbour and direction', () => {
    const outgoing = [
      fact('Dog', 'is-a', 'Canine'),
      fact('Dog', 'similar-to', 'Wolf'),
      fact('Dog', 'descended-from', 'Wolf'),
    ];
    const incoming = [fact('Wolf', 'similar-to', 'Dog'), fact('GoldenRetriever', 'is-a', 'Dog')];

    const neighbourhood = neighbourhoodOf(dog, outgoing, incoming, { maxNodes: 40 });

    expect(neighbourhood.nodes.map((node) => node.symbol.label)).toEqual(['Dog', 'Wolf', 'Canine', 'GoldenRetriever']);
    expect(neighbourhood.nodes[0]?.isCentre).toBe(true);
    const wolfEdges = neighbourhood.edges.filter((edge) => edge.neighbourId === symbolOf('Wolf').id);
    expect(wolfEdges).toEqual([
      {
        key: `${symbolOf('Wolf').id}-out`,
        neighbourId: symbolOf('Wolf').id,
        isOutgoing: true,
        predicates: ['similar-to', 'descended-from'],
        hasReverse: true,
      },
      {
        key: `${symbolOf('Wolf').id}-in`,
        neighbourId: symbolOf('Wolf').id,
        isOutgoing: false,
        predicates: ['similar-to'],
        hasReverse: true,
      },
    ]);
    expect(neighbourhood.hiddenCount).toBe(0);
  });

  it('keeps the best-linked neighbours when there are too many, and counts the rest', () => {
    const outgoing = Array.from({ length: 10 }, (_, index) => fact('Dog', 'knows', `Friend${index}`, index / 10));

    const neighbourhood = neighbourhoodOf(dog, outgoing, [], { maxNodes: 4 });

    expect(neighbourhood.nodes.map((node) => node.symbol.label)).toEqual(['Dog', 'Friend9', 'Friend8', 'Friend7']);
    expect(neighbourhood.hiddenCount).toBe(7);
    expect(neighbourhood.neighbourCount).toBe(10);
  });

  it('leaves out triples from the symbol to itself', () => {
    const neighbourhood = neighbourhoodOf(dog, [fact('Dog', 'similar-to', 'Dog')], [fact('Dog', 'similar-to', 'Dog')], {
      maxNodes: 40,
    });

    expect(neighbourhood.nodes).toHaveLength(1);
    expect(neighbourhood.edges).toEqual([]);
  });

  it('shortens long labels in the drawing and sizes the box to the shortened label', () => {
    const long = 'AnExtraordinarilyLongSymbolName';
    const neighbourhood = neighbourhoodOf(dog, [fact('Dog', 'knows', long)], [], { maxNodes: 40 });
    const node = neighbourhood.nodes[1];

    expect(node?.displayLabel).toBe('AnExtraordinarily…');
    expect(node?.symbol.label).toBe(long);
    expect(node?.halfWidth).toBeLessThan(long.length * 4 + 10);
  });
});

describe('edgeLabelOf', () => {
  it('names up to two predicates and counts the rest', () => {
    expect(edgeLabelOf({ predicates: ['is-a'] })).toBe('is-a');
    expect(edgeLabelOf({ predicates: ['similar-to', 'descended-from'] })).toBe('similar-to, descended-from');
    expect(edgeLabelOf({ predicates: ['a', 'b', 'c', 'd'] })).toBe('a, b +2');
  });
});

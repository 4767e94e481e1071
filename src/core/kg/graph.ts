import { type KgSymbol, type SymbolKind, ANIMA_IRI_BASE, isMetadataRelation, labelKey, literalKey, localName, symbolKey } from './symbol.ts';
import { type Triple, tripleKey } from './triple.ts';
import type { Term } from './term.ts';

/** What a batch adds to or changes in the graph; written to storage before it is applied in memory. */
export type GraphDelta = {
  symbols: KgSymbol[];
  addedTriples: Triple[];
  updatedTriples: Triple[];
};

/** Where a term stands in a triple: a predicate becomes a relation symbol, anything else an entity. */
export type TermRole = 'subject' | 'predicate' | 'object';

/**
 * The knowledge graph of one session, held in memory with indexes by subject, predicate and
 * object. Changes go through a {@link GraphBatch} so that nothing is visible until it is stored.
 */
export class KnowledgeGraph {
  readonly #symbolsById = new Map<number, KgSymbol>();
  readonly #symbolsByKey = new Map<string, KgSymbol>();
  readonly #symbolsByIri = new Map<string, KgSymbol>();
  readonly #triplesByKey = new Map<string, Triple>();
  readonly #bySubject = new Map<number, Triple[]>();
  readonly #byPredicate = new Map<number, Triple[]>();
  readonly #byObject = new Map<number, Triple[]>();
  #nextSymbolId = 1;

  /** Builds a graph from stored records. */
  static from(symbols: Iterable<KgSymbol>, triples: Iterable<Triple>): KnowledgeGraph {
    const graph = new KnowledgeGraph();
    graph.apply({ symbols: [...symbols], addedTriples: [...triples], updatedTriples: [] });
    return graph;
  }

  get symbolCount(): number {
    return this.#symbolsById.size;
  }

  get tripleCount(): number {
    return this.#triplesByKey.size;
  }

  /** The id the next new symbol gets. */
  get nextSymbolId(): number {
    return this.#nextSymbolId;
  }

  symbol(id: number): KgSymbol | undefined {
    return this.#symbolsById.get(id);
  }

  /** The entity or relation with this label (case-insensitive). */
  symbolByLabel(label: string): KgSymbol | undefined {
    return this.#symbolsByKey.get(labelKey(label));
  }

  symbolByKey(key: string): KgSymbol | undefined {
    return this.#symbolsByKey.get(key);
  }

  symbolByIri(iri: string): KgSymbol | undefined {
    return this.#symbolsByIri.get(iri);
  }

  symbols(): IterableIterator<KgSymbol> {
    return this.#symbolsById.values();
  }

  triples(): IterableIterator<Triple> {
    return this.#triplesByKey.values();
  }

  triple(subject: number, predicate: number, object: number): Triple | undefined {
    return this.#triplesByKey.get(tripleKey(subject, predicate, object));
  }

  outgoing(symbolId: number): readonly Triple[] {
    return this.#bySubject.get(symbolId) ?? [];
  }

  incoming(symbolId: number): readonly Triple[] {
    return this.#byObject.get(symbolId) ?? [];
  }

  withPredicate(symbolId: number): readonly Triple[] {
    return this.#byPredicate.get(symbolId) ?? [];
  }

  /** Whether a triple is the agent's bookkeeping (an `agent:` predicate) rather than a domain fact. */
  isMetadata(triple: Pick<Triple, 'predicate'>): boolean {
    const predicate = this.#symbolsById.get(triple.predicate);
    return predicate !== undefined && isMetadataRelation(predicate);
  }

  /** Triples matching a pattern; an undefined position matches anything. Uses the narrowest index. */
  match(subject?: number, predicate?: number, object?: number): Triple[] {
    if (subject !== undefined && predicate !== undefined && object !== undefined) {
      const found = this.triple(subject, predicate, object);
      return found ? [found] : [];
    }
    const candidates: (readonly Triple[])[] = [];
    if (subject !== undefined) candidates.push(this.outgoing(subject));
    if (predicate !== undefined) candidates.push(this.withPredicate(predicate));
    if (object !== undefined) candidates.push(this.incoming(object));
    const narrowest = candidates.length === 0 ? [...this.triples()] : candidates.reduce((a, b) => (b.length < a.length ? b : a));
    return narrowest.filter(
      (triple) =>
        (subject === undefined || triple.subject === subject) &&
        (predicate === undefined || triple.predicate === predicate) &&
        (object === undefined || triple.object === object),
    );
  }

  /** Starts a set of changes; they become visible when the stored delta is applied. */
  batch(options: { now: number }): GraphBatch {
    return new GraphBatch(this, options.now);
  }

  /** Applies a stored delta. Updated triples change the live records in place. */
  apply(delta: GraphDelta): void {
    for (const symbol of delta.symbols) {
      this.#symbolsById.set(symbol.id, symbol);
      this.#symbolsByKey.set(symbolKey(symbol), symbol);
      if (symbol.iri !== undefined) this.#symbolsByIri.set(symbol.iri, symbol);
      if (symbol.id >= this.#nextSymbolId) this.#nextSymbolId = symbol.id + 1;
    }
    for (const triple of delta.addedTriples) {
      const live = { ...triple };
      this.#triplesByKey.set(tripleKey(triple.subject, triple.predicate, triple.object), live);
      pushTo(this.#bySubject, triple.subject, live);
      pushTo(this.#byPredicate, triple.predicate, live);
      pushTo(this.#byObject, triple.object, live);
    }
    for (const triple of delta.updatedTriples) {
      const live = this.#triplesByKey.get(tripleKey(triple.subject, triple.predicate, triple.object));
      if (live === undefined) throw new Error(`update of a triple the graph does not hold: ${triple.subject} ${triple.predicate} ${triple.object}`);
      live.confidence = triple.confidence;
      live.provenanceId = triple.provenanceId;
    }
  }
}

/**
 * Staged changes to a graph: new symbols and triples are kept aside, so a failed or cancelled
 * import leaves the graph exactly as it was. Re-asserting a triple keeps the higher confidence.
 * The delta is stored first, then applied with {@link KnowledgeGraph.apply}.
 */
export class GraphBatch {
  readonly #graph: KnowledgeGraph;
  readonly #now: number;
  readonly #newSymbols = new Map<number, KgSymbol>();
  readonly #newByKey = new Map<string, KgSymbol>();
  readonly #newByIri = new Map<string, KgSymbol>();
  readonly #added = new Map<string, Triple>();
  readonly #updated = new Map<string, Triple>();
  #nextId: number;

  constructor(graph: KnowledgeGraph, now: number) {
    this.#graph = graph;
    this.#now = now;
    this.#nextId = graph.nextSymbolId;
  }

  get addedCount(): number {
    return this.#added.size;
  }

  get updatedCount(): number {
    return this.#updated.size;
  }

  get symbolCount(): number {
    return this.#newSymbols.size;
  }

  /** The symbol a term stands for, created (in this batch) when it does not exist yet. */
  resolve(term: Term, role: TermRole): number {
    switch (term.type) {
      case 'iri': {
        if (term.value.startsWith(ANIMA_IRI_BASE)) return this.resolve({ type: 'label', value: localName(term.value) }, role);
        const known = this.#graph.symbolByIri(term.value) ?? this.#newByIri.get(term.value);
        if (known) return known.id;
        return this.#create({ label: this.#uniqueLabel(localName(term.value)), kind: kindFor(role), iri: term.value }).id;
      }
      case 'label': {
        const key = labelKey(term.value);
        const known = this.#graph.symbolByKey(key) ?? this.#newByKey.get(key);
        if (known) return known.id;
        return this.#create({ label: term.value, kind: kindFor(role) }).id;
      }
      case 'literal': {
        const key = literalKey(term.value, term.datatype, term.language);
        const known = this.#graph.symbolByKey(key) ?? this.#newByKey.get(key);
        if (known) return known.id;
        return this.#create({ label: term.value, kind: 'literal', datatype: term.datatype, language: term.language }).id;
      }
    }
  }

  /** Asserts a fact; a re-assertion with a higher confidence raises it (and takes the batch's provenance when stored). */
  assert(subject: number, predicate: number, object: number, confidence: number): void {
    const key = tripleKey(subject, predicate, object);
    const staged = this.#added.get(key) ?? this.#updated.get(key);
    if (staged) {
      staged.confidence = Math.max(staged.confidence, confidence);
      return;
    }
    const existing = this.#graph.triple(subject, predicate, object);
    if (existing) {
      if (confidence > existing.confidence) this.#updated.set(key, { ...existing, confidence });
      return;
    }
    this.#added.set(key, { subject, predicate, object, confidence, createdAt: this.#now });
  }

  get delta(): GraphDelta {
    return { symbols: [...this.#newSymbols.values()], addedTriples: [...this.#added.values()], updatedTriples: [...this.#updated.values()] };
  }

  #create(fields: Omit<KgSymbol, 'id' | 'createdAt'>): KgSymbol {
    const symbol: KgSymbol = { id: this.#nextId++, createdAt: this.#now, ...withoutUndefined(fields) };
    this.#newSymbols.set(symbol.id, symbol);
    this.#newByKey.set(symbolKey(symbol), symbol);
    if (symbol.iri !== undefined) this.#newByIri.set(symbol.iri, symbol);
    return symbol;
  }

  /** A label no other entity or relation has: the local name, or the local name with a suffix (-2, -3, ...). */
  #uniqueLabel(base: string): string {
    const isTaken = (label: string) => this.#graph.symbolByKey(labelKey(label)) !== undefined || this.#newByKey.has(labelKey(label));
    if (!isTaken(base)) return base;
    for (let suffix = 2; ; suffix++) {
      const candidate = `${base}-${suffix}`;
      if (!isTaken(candidate)) return candidate;
    }
  }
}

function kindFor(role: TermRole): SymbolKind {
  return role === 'predicate' ? 'relation' : 'entity';
}

function pushTo(index: Map<number, Triple[]>, id: number, triple: Triple): void {
  const list = index.get(id);
  if (list) list.push(triple);
  else index.set(id, [triple]);
}

/** Drops undefined optional fields so stored records and snapshots stay minimal and stable. */
function withoutUndefined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

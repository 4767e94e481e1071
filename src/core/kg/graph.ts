import { baseName } from './names.ts';
import { type KgSymbol, isMetadataRelation, labelKey, literalKey, localName, symbolKey } from './symbol.ts';
import type { Triple } from './triple.ts';
import {
  allocateColumns,
  NO_PROVENANCE,
  resizeColumns,
  tripleAt,
  type TripleColumns,
  TripleKeyIndex,
} from './triple-columns.ts';
import { GraphBatch } from './graph-batch.ts';
import type { GraphDelta } from './graph-delta.ts';
import { insertSorted, pushTo, removeSorted } from './position-lists.ts';

/**
 * The knowledge graph of one session, held in memory: symbols as records, triples as typed-array
 * columns in the order they were added (see triple-columns.ts), with a hash index for identity
 * and position lists by subject, predicate and object. Changes go through a {@link GraphBatch}
 * so that nothing is visible until it is stored.
 */
export class KnowledgeGraph {
  readonly #symbolsById = new Map<number, KgSymbol>();
  readonly #symbolsByKey = new Map<string, KgSymbol>();
  readonly #symbolsByIri = new Map<string, KgSymbol>();
  /** IRI symbols by the key of their local name and of their name where their label qualifies it (see names.ts baseName). */
  readonly #symbolsByLocalName = new Map<string, number[]>();
  /** Literals with a language or datatype by their text (a plain one is found by its key). */
  readonly #taggedLiterals = new Map<string, number[]>();
  #columns: TripleColumns;
  #count = 0;
  readonly #keys: TripleKeyIndex;
  readonly #bySubject = new Map<number, number[]>();
  readonly #byPredicate = new Map<number, number[]>();
  readonly #byObject = new Map<number, number[]>();
  #nextSymbolId = 1;
  #version = 0;
  #removals = 0;
  /**
   * The prefixes its session's Turtle files declared (ex → http://example.org/): queries,
   * criteria and rules read prefixed names with them, beside the well-known ones. The session
   * record keeps them; the service sets them here when it loads or imports.
   */
  prefixes: Readonly<Record<string, string>> = {};

  constructor(expectedTriples = 1024) {
    this.#columns = allocateColumns(Math.max(16, expectedTriples));
    this.#keys = new TripleKeyIndex(expectedTriples);
  }

  /** Builds a graph from triple records (tests, snapshots). */
  static from(symbols: Iterable<KgSymbol>, triples: Iterable<Triple>): KnowledgeGraph {
    const graph = new KnowledgeGraph();
    graph.apply({ symbols: [...symbols], addedTriples: [...triples], updatedTriples: [], removedTriples: [] });
    return graph;
  }

  /** Builds a graph from stored columns in one pass (the fast path of a reload); takes ownership of the columns. */
  static fromColumns(symbols: Iterable<KgSymbol>, columns: TripleColumns, count: number): KnowledgeGraph {
    const graph = new KnowledgeGraph(count);
    graph.apply({ symbols: [...symbols], addedTriples: [], updatedTriples: [], removedTriples: [] });
    graph.#columns =
      columns.subjects.length >= Math.max(16, count) ? columns : resizeColumns(columns, count, Math.max(16, count));
    for (let position = 0; position < count; position++) graph.#index(position);
    graph.#count = count;
    graph.#version++;
    return graph;
  }

  get symbolCount(): number {
    return this.#symbolsById.size;
  }

  get tripleCount(): number {
    return this.#count;
  }

  /** Grows with every applied change: what is computed from the graph is valid while it stays. */
  get version(): number {
    return this.#version;
  }

  /** How many triples were ever removed: positions before the count kept their triples while it stays. */
  get removalCount(): number {
    return this.#removals;
  }

  /** The id the next new symbol gets. */
  get nextSymbolId(): number {
    return this.#nextSymbolId;
  }

  /** The live columns; positions [0, tripleCount) are valid. Read only: storage copies chunks from them. */
  get columns(): Readonly<TripleColumns> {
    return this.#columns;
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

  /**
   * The entities and relations a name stands for: the one labelled so, and every IRI symbol
   * whose local name or unqualified name it is (e.g. <http://e.org/Mammal>, labelled
   * `Mammal · e.org` because the starter graph has a Mammal). Queries and rules match by name,
   * so the user's data is never hidden.
   */
  symbolsNamed(name: string): KgSymbol[] {
    const key = labelKey(name);
    const named = this.#symbolsByKey.get(key);
    const byLocalName = this.#symbolsByLocalName.get(key);
    // Most names have no IRI symbol of that local name (an import asks once per new symbol).
    if (byLocalName === undefined) return named ? [named] : [];
    return [...new Set([...(named ? [named] : []), ...byLocalName.map((id) => this.#symbolsById.get(id)!)])];
  }

  /** Every literal of this text, whatever its language or datatype ("chat"@fr, "chat"@en, "chat"). */
  literalsValued(text: string): KgSymbol[] {
    const plain = this.#symbolsByKey.get(literalKey(text));
    return [
      ...(plain ? [plain] : []),
      ...(this.#taggedLiterals.get(text) ?? []).map((id) => this.#symbolsById.get(id)!),
    ];
  }

  symbols(): IterableIterator<KgSymbol> {
    return this.#symbolsById.values();
  }

  /** Every triple, in the order they were added. */
  *triples(): IterableIterator<Triple> {
    for (let position = 0; position < this.#count; position++) yield this.tripleAt(position);
  }

  /** The triple at a position (0 = the first ever added). */
  tripleAt(position: number): Triple {
    return tripleAt(this.#columns, position);
  }

  /** The position of a triple, or -1 when the graph does not hold it. */
  positionOf(subject: number, predicate: number, object: number): number {
    return this.#keys.find(this.#columns, subject, predicate, object);
  }

  triple(subject: number, predicate: number, object: number): Triple | undefined {
    const position = this.positionOf(subject, predicate, object);
    return position === -1 ? undefined : this.tripleAt(position);
  }

  /**
   * Positions of a symbol's triples as subject (`from`) or as object (`to`), oldest first. For hot
   * paths over large neighbourhoods: read the columns at these positions instead of making
   * triple objects. Read only.
   */
  positionsFrom(symbolId: number): readonly number[] {
    return this.#bySubject.get(symbolId) ?? [];
  }

  positionsTo(symbolId: number): readonly number[] {
    return this.#byObject.get(symbolId) ?? [];
  }

  /** Positions of the triples with a predicate, oldest first; read only, like {@link positionsFrom}. */
  positionsWith(predicateId: number): readonly number[] {
    return this.#byPredicate.get(predicateId) ?? [];
  }

  outgoing(symbolId: number): Triple[] {
    return this.#at(this.#bySubject.get(symbolId));
  }

  incoming(symbolId: number): Triple[] {
    return this.#at(this.#byObject.get(symbolId));
  }

  withPredicate(symbolId: number): Triple[] {
    return this.#at(this.#byPredicate.get(symbolId));
  }

  /** Whether a triple is the agent's bookkeeping (an `agent:` predicate) rather than a domain fact. */
  isMetadata(triple: Pick<Triple, 'predicate'>): boolean {
    const predicate = this.#symbolsById.get(triple.predicate);
    return predicate !== undefined && isMetadataRelation(predicate);
  }

  /**
   * Positions of the triples matching a pattern (undefined matches anything), from the narrowest
   * index, without making triple objects: the query engine's hot path.
   */
  matchPositions(subject?: number, predicate?: number, object?: number): number[] {
    if (subject !== undefined && predicate !== undefined && object !== undefined) {
      const position = this.positionOf(subject, predicate, object);
      return position === -1 ? [] : [position];
    }
    const narrowest = this.#narrowest(subject, predicate, object);
    if (narrowest === undefined) return Array.from({ length: this.#count }, (_, position) => position);
    const { subjects, predicates, objects } = this.#columns;
    const result: number[] = [];
    for (const position of narrowest)
      if (
        (subject === undefined || subjects[position] === subject) &&
        (predicate === undefined || predicates[position] === predicate) &&
        (object === undefined || objects[position] === object)
      )
        result.push(position);
    return result;
  }

  /** An upper bound of how many triples match a pattern, in constant time (to order a query's patterns). */
  estimateMatches(subject?: number, predicate?: number, object?: number): number {
    if (subject !== undefined && predicate !== undefined && object !== undefined)
      return this.positionOf(subject, predicate, object) === -1 ? 0 : 1;
    return this.#narrowest(subject, predicate, object)?.length ?? this.#count;
  }

  #narrowest(subject?: number, predicate?: number, object?: number): readonly number[] | undefined {
    let narrowest: readonly number[] | undefined;
    for (const [index, key] of [
      [this.#bySubject, subject],
      [this.#byPredicate, predicate],
      [this.#byObject, object],
    ] as const) {
      if (key === undefined) continue;
      const list = index.get(key) ?? [];
      if (narrowest === undefined || list.length < narrowest.length) narrowest = list;
    }
    return narrowest;
  }

  /** Triples matching a pattern; an undefined position matches anything. Uses the narrowest index. */
  match(subject?: number, predicate?: number, object?: number): Triple[] {
    return this.#at(this.matchPositions(subject, predicate, object));
  }

  /** Starts a set of changes; they become visible when the stored delta is applied. `language`: the reader's, whose names are preferred. */
  batch(options: { now: number; language?: string }): GraphBatch {
    return new GraphBatch(this, options.now, options.language);
  }

  /** Applies a stored delta: new symbols, new triples appended in order, raised confidences, removals. */
  apply(delta: GraphDelta): void {
    this.#version++;
    for (const symbol of delta.symbols) {
      this.#symbolsById.set(symbol.id, symbol);
      this.#symbolsByKey.set(symbolKey(symbol), symbol);
      if (symbol.kind === 'literal' && (symbol.language !== undefined || symbol.datatype !== undefined))
        pushTo(this.#taggedLiterals, symbol.label, symbol.id);
      if (symbol.iri !== undefined) {
        this.#symbolsByIri.set(symbol.iri, symbol);
        const byLocalName = labelKey(localName(symbol.iri));
        pushTo(this.#symbolsByLocalName, byLocalName, symbol.id);
        // Found by its name too where a clash qualified it: `bass (fish)` is a bass.
        const byName = labelKey(baseName(symbol.label));
        if (byName !== byLocalName && byName !== labelKey(symbol.label))
          pushTo(this.#symbolsByLocalName, byName, symbol.id);
      }
      if (symbol.id >= this.#nextSymbolId) this.#nextSymbolId = symbol.id + 1;
    }
    const needed = this.#count + delta.addedTriples.length;
    if (needed > this.#columns.subjects.length)
      this.#columns = resizeColumns(this.#columns, this.#count, Math.max(needed, this.#columns.subjects.length * 2));
    for (const triple of delta.addedTriples) {
      // Written past the count first: the key index finds a triple by its columns.
      const position = this.#count;
      this.#write(position, triple);
      if (this.#keys.insertIfAbsent(this.#columns, position) !== -1)
        throw new Error(
          `the graph already holds ${triple.subject} ${triple.predicate} ${triple.object}: a delta must add only new triples`,
        );
      this.#count++;
      this.#indexLists(position);
    }
    for (const triple of delta.updatedTriples) {
      const position = this.positionOf(triple.subject, triple.predicate, triple.object);
      if (position === -1)
        throw new Error(
          `update of a triple the graph does not hold: ${triple.subject} ${triple.predicate} ${triple.object}`,
        );
      this.#columns.confidences[position] = triple.confidence;
      this.#columns.provenanceIds[position] = triple.provenanceId ?? NO_PROVENANCE;
    }
    for (const triple of delta.removedTriples) {
      const position = this.positionOf(triple.subject, triple.predicate, triple.object);
      if (position === -1)
        throw new Error(
          `removal of a triple the graph does not hold: ${triple.subject} ${triple.predicate} ${triple.object}`,
        );
      this.#remove(position);
    }
  }

  /** Removes the triple at a position; the last triple takes its place, so positions stay dense. */
  #remove(position: number): void {
    const columns = this.#columns;
    const last = this.#count - 1;
    this.#keys.remove(columns, position);
    this.#unindex(position);
    if (position !== last) {
      this.#keys.move(columns, last, position);
      this.#unindex(last);
      this.#write(position, this.tripleAt(last));
      insertSorted(this.#bySubject, columns.subjects[position]!, position);
      insertSorted(this.#byPredicate, columns.predicates[position]!, position);
      insertSorted(this.#byObject, columns.objects[position]!, position);
    }
    this.#count--;
    this.#removals++;
  }

  /** Takes a position out of the by-subject, by-predicate and by-object lists of the triple held there. */
  #unindex(position: number): void {
    const columns = this.#columns;
    removeSorted(this.#bySubject, columns.subjects[position]!, position);
    removeSorted(this.#byPredicate, columns.predicates[position]!, position);
    removeSorted(this.#byObject, columns.objects[position]!, position);
  }

  #write(position: number, triple: Triple): void {
    const columns = this.#columns;
    columns.subjects[position] = triple.subject;
    columns.predicates[position] = triple.predicate;
    columns.objects[position] = triple.object;
    columns.confidences[position] = triple.confidence;
    columns.provenanceIds[position] = triple.provenanceId ?? NO_PROVENANCE;
    columns.createdAt[position] = triple.createdAt;
  }

  #index(position: number): void {
    this.#keys.insert(this.#columns, position);
    this.#indexLists(position);
  }

  /** Appends a position to the by-subject, by-predicate and by-object lists of its triple. */
  #indexLists(position: number): void {
    const columns = this.#columns;
    pushTo(this.#bySubject, columns.subjects[position]!, position);
    pushTo(this.#byPredicate, columns.predicates[position]!, position);
    pushTo(this.#byObject, columns.objects[position]!, position);
  }

  #at(positions: readonly number[] | undefined): Triple[] {
    return positions ? positions.map((position) => this.tripleAt(position)) : [];
  }
}

import { baseName, distinctName, isParentRelation, languageRank, nameRank, sourceOf } from './names.ts';
import {
  type KgSymbol,
  type SymbolKind,
  ANIMA_IRI_BASE,
  isMetadataRelation,
  labelKey,
  literalKey,
  localName,
  symbolKey,
} from './symbol.ts';
import { type Triple, tripleKey } from './triple.ts';
import {
  allocateColumns,
  NO_PROVENANCE,
  resizeColumns,
  tripleAt,
  type TripleColumns,
  TripleKeyIndex,
} from './triple-columns.ts';
import type { Term } from './term.ts';

/**
 * What a batch adds to, changes in or removes from the graph; written to storage before it is
 * applied in memory. Applied in this order: added triples are appended, updated ones changed in
 * place, then each removed triple's place is taken by the last triple (see {@link layoutAfter}).
 */
export type GraphDelta = {
  symbols: KgSymbol[];
  addedTriples: Triple[];
  updatedTriples: Triple[];
  removedTriples: Triple[];
};

/** Where a term stands in a triple: a predicate becomes a relation symbol, anything else an entity. */
export type TermRole = 'subject' | 'predicate' | 'object';

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
      if (this.positionOf(triple.subject, triple.predicate, triple.object) !== -1)
        throw new Error(
          `the graph already holds ${triple.subject} ${triple.predicate} ${triple.object}: a delta must add only new triples`,
        );
      const position = this.#count++;
      this.#write(position, triple);
      this.#index(position);
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
    const columns = this.#columns;
    this.#keys.insert(columns, position);
    pushTo(this.#bySubject, columns.subjects[position]!, position);
    pushTo(this.#byPredicate, columns.predicates[position]!, position);
    pushTo(this.#byObject, columns.objects[position]!, position);
  }

  #at(positions: readonly number[] | undefined): Triple[] {
    return positions ? positions.map((position) => this.tripleAt(position)) : [];
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
  /** New symbols by id; IRI and blank-node symbols get their final labels in {@link delta}. */
  readonly #newSymbols = new Map<number, KgSymbol>();
  /** New symbols whose label the input names outright (labels, Anima IRIs, literals), by key. */
  readonly #newByKey = new Map<string, KgSymbol>();
  readonly #newByIri = new Map<string, KgSymbol>();
  /** Blank nodes are local to one import: the same name in another file is another symbol. */
  readonly #newBlank = new Map<string, KgSymbol>();
  /** Symbols labelled from a name that may clash (IRI local names, blank nodes): the name they want. */
  readonly #wantedLabels = new Map<number, string>();
  readonly #added = new Map<string, Triple>();
  readonly #updated = new Map<string, Triple>();
  readonly #removed = new Map<string, Triple>();
  readonly #language: string | undefined;
  /** The prefixes the file being read declares: they say where its symbols come from. */
  readonly #prefixes: Record<string, string> = {};
  #nextId: number;

  constructor(graph: KnowledgeGraph, now: number, language?: string) {
    this.#graph = graph;
    this.#now = now;
    this.#language = language;
    this.#nextId = graph.nextSymbolId;
  }

  /** Notes a prefix the file declares (Turtle's @prefix): two things of one name are told apart by it. */
  declarePrefix(prefix: string, namespace: string): void {
    this.#prefixes[prefix] = namespace;
  }

  /** The prefixes the file declared, by prefix. */
  get prefixes(): Readonly<Record<string, string>> {
    return this.#prefixes;
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

  get removedCount(): number {
    return this.#removed.size;
  }

  /** A symbol this batch created, with the label it asks for: an IRI's local name or a blank node's name (its name, and a qualifier if taken, come in {@link delta}). */
  newSymbol(id: number): KgSymbol | undefined {
    const symbol = this.#newSymbols.get(id);
    const wanted = this.#wantedLabels.get(id);
    return symbol && wanted !== undefined ? { ...symbol, label: wanted } : symbol;
  }

  /** The symbol a term stands for, created (in this batch) when it does not exist yet. */
  resolve(term: Term, role: TermRole): number {
    switch (term.type) {
      case 'iri': {
        if (term.value.startsWith(ANIMA_IRI_BASE) && term.value.length > ANIMA_IRI_BASE.length)
          return this.resolve({ type: 'label', value: localName(term.value) }, role);
        const known = this.#graph.symbolByIri(term.value) ?? this.#newByIri.get(term.value);
        if (known) return known.id;
        const symbol = this.#create({ label: term.value, kind: kindFor(role), iri: term.value });
        this.#newByIri.set(term.value, symbol);
        this.#wantedLabels.set(symbol.id, localName(term.value));
        return symbol.id;
      }
      case 'blank': {
        const known = this.#newBlank.get(term.value);
        if (known) return known.id;
        const symbol = this.#create({ label: `_:${term.value}`, kind: kindFor(role) });
        this.#newBlank.set(term.value, symbol);
        this.#wantedLabels.set(symbol.id, `_:${term.value}`);
        return symbol.id;
      }
      case 'label': {
        const key = labelKey(term.value);
        const known = this.#graph.symbolByKey(key) ?? this.#newByKey.get(key);
        if (known) return known.id;
        return this.#createNamed({ label: term.value, kind: kindFor(role) }).id;
      }
      case 'literal': {
        const key = literalKey(term.value, term.datatype, term.language);
        const known = this.#graph.symbolByKey(key) ?? this.#newByKey.get(key);
        if (known) return known.id;
        return this.#createNamed({
          label: term.value,
          kind: 'literal',
          datatype: term.datatype,
          language: term.language,
        }).id;
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
      // Asserted again after a retraction in this batch: it stays.
      this.#removed.delete(key);
      if (confidence > existing.confidence) this.#updated.set(key, { ...existing, confidence });
      return;
    }
    this.#added.set(key, { subject, predicate, object, confidence, createdAt: this.#now });
  }

  /** Retracts a fact: one staged in this batch is dropped, one the graph holds is removed. Returns whether there was one. */
  retract(subject: number, predicate: number, object: number): boolean {
    const key = tripleKey(subject, predicate, object);
    if (this.#added.delete(key)) return true;
    if (this.#removed.has(key)) return false;
    this.#updated.delete(key);
    const existing = this.#graph.triple(subject, predicate, object);
    if (!existing) return false;
    this.#removed.set(key, existing);
    return true;
  }

  /**
   * The changes. Symbols named from IRIs and blank nodes get their labels here, after every label
   * the input names outright is reserved: the best name the batch gives them (see
   * {@link namesOfNewSymbols}), or their local name. So an exported graph re-imports with the same
   * labels whatever order its lines come in.
   */
  get delta(): GraphDelta {
    const { labels } = this.namesOfNewSymbols();
    const symbols = [...this.#newSymbols.values()].map((symbol) => {
      const label = labels.get(symbol.id);
      return label === undefined ? symbol : { ...symbol, label };
    });
    return {
      symbols,
      addedTriples: [...this.#added.values()],
      updatedTriples: [...this.#updated.values()],
      removedTriples: [...this.#removed.values()],
    };
  }

  /**
   * The labels of the new IRI and blank-node symbols, and those whose name an existing symbol
   * already has (`shared`: what the batch has in common with the graph). A symbol is labelled by
   * its best name in the batch (skos:prefLabel, rdfs:label, schema:name, foaf:name, ... in the
   * reader's language first, see names.ts), else its local name. A name already taken is told
   * apart by the thing's parent (`bass (fish)`), else by where it came from (`dog · wordnet`: the
   * prefix the file declares for it, or its host), else by its IRI: never by a number.
   */
  namesOfNewSymbols(): { labels: Map<number, string>; shared: { symbol: number; existing: number }[] } {
    const labels = new Map<number, string>();
    const shared: { symbol: number; existing: number }[] = [];
    if (this.#wantedLabels.size === 0) return { labels, shared };
    const symbolOf = (id: number) => this.#newSymbols.get(id) ?? this.#graph.symbol(id);
    const roles = new Map<number, { nameRank: number | undefined; isParent: boolean }>();
    const roleOf = (predicate: number) => {
      let role = roles.get(predicate);
      if (!role) {
        const symbol = symbolOf(predicate);
        roles.set(
          predicate,
          (role = {
            nameRank: symbol ? nameRank(symbol) : undefined,
            isParent: symbol !== undefined && isParentRelation(symbol),
          }),
        );
      }
      return role;
    };
    const names = new Map<number, { text: string; languageRank: number; nameRank: number }>();
    const parents = new Map<number, number>();
    for (const triple of this.#added.values()) {
      if (!this.#wantedLabels.has(triple.subject)) continue;
      const role = roleOf(triple.predicate);
      if (role.nameRank !== undefined) {
        const value = symbolOf(triple.object);
        if (value?.kind !== 'literal' || value.label.trim() === '') continue;
        const candidate = {
          text: value.label.trim(),
          languageRank: languageRank(value.language, this.#language),
          nameRank: role.nameRank,
        };
        const best = names.get(triple.subject);
        if (
          !best ||
          candidate.languageRank < best.languageRank ||
          (candidate.languageRank === best.languageRank && candidate.nameRank < best.nameRank)
        )
          names.set(triple.subject, candidate);
      } else if (role.isParent && !parents.has(triple.subject) && triple.object !== triple.subject)
        parents.set(triple.subject, triple.object);
    }
    const nameOf = (id: number): string => {
      const wanted = this.#wantedLabels.get(id);
      return wanted === undefined ? baseName(symbolOf(id)?.label ?? '') : (names.get(id)?.text ?? wanted);
    };
    const assigned = new Set<string>();
    const taken = (label: string) => {
      const key = labelKey(label);
      return this.#graph.symbolByKey(key) !== undefined || this.#newByKey.has(key) || assigned.has(key);
    };
    for (const symbol of this.#newSymbols.values()) {
      if (!this.#wantedLabels.has(symbol.id)) continue;
      const name = nameOf(symbol.id);
      const existing = this.#graph.symbolsNamed(name).find((other) => other.kind === symbol.kind);
      if (existing) shared.push({ symbol: symbol.id, existing: existing.id });
      // A name no one has is its label: the common case needs no qualifier worked out.
      if (!taken(name)) {
        assigned.add(labelKey(name));
        labels.set(symbol.id, name);
        continue;
      }
      const parent = parents.get(symbol.id);
      const parentName = parent !== undefined ? nameOf(parent) : undefined;
      const source = symbol.iri !== undefined ? sourceOf(symbol.iri, this.#prefixes) : undefined;
      const context = {
        ...(parentName !== undefined ? { parentName } : {}),
        ...(source !== undefined ? { source } : {}),
        ...(symbol.iri !== undefined ? { iri: symbol.iri } : {}),
      };
      // A blank node has no IRI to fall back on: its name in this batch's file, told apart by when it came.
      const label = distinctName(name, context, taken) ?? `${name} · ${new Date(this.#now).toISOString()} ${symbol.id}`;
      assigned.add(labelKey(label));
      labels.set(symbol.id, label);
    }
    return { labels, shared };
  }

  #create(fields: Omit<KgSymbol, 'id' | 'createdAt'>): KgSymbol {
    const symbol: KgSymbol = { id: this.#nextId++, createdAt: this.#now, ...withoutUndefined(fields) };
    this.#newSymbols.set(symbol.id, symbol);
    return symbol;
  }

  #createNamed(fields: Omit<KgSymbol, 'id' | 'createdAt'>): KgSymbol {
    const symbol = this.#create(fields);
    this.#newByKey.set(symbolKey(symbol), symbol);
    return symbol;
  }
}

function kindFor(role: TermRole): SymbolKind {
  return role === 'predicate' ? 'relation' : 'entity';
}

/**
 * Where triples will sit once a delta is applied to a graph (which it is not yet): the positions
 * whose content changes, with their new triple, and the new count. Storage rewrites only the
 * chunks of these positions.
 */
export function layoutAfter(graph: KnowledgeGraph, delta: GraphDelta): { writes: Map<number, Triple>; count: number } {
  const writes = new Map<number, Triple>();
  let count = graph.tripleCount;
  for (const triple of delta.addedTriples) writes.set(count++, triple);
  for (const triple of delta.updatedTriples) {
    const position = graph.positionOf(triple.subject, triple.predicate, triple.object);
    if (position === -1)
      throw new Error(
        `update of a triple the graph does not hold: ${triple.subject} ${triple.predicate} ${triple.object}`,
      );
    writes.set(position, triple);
  }
  if (delta.removedTriples.length === 0) return { writes, count };
  // Where a triple sits when the graph's own index no longer says (it was added or moved in this
  // delta); only removals need it, so a pure addition (an import, a pull) skips its keys.
  const moved = new Map<string, number>();
  for (const [position, triple] of writes)
    if (position >= graph.tripleCount) moved.set(tripleKey(triple.subject, triple.predicate, triple.object), position);
  for (const triple of delta.removedTriples) {
    const key = tripleKey(triple.subject, triple.predicate, triple.object);
    const position = moved.get(key) ?? graph.positionOf(triple.subject, triple.predicate, triple.object);
    if (position === -1)
      throw new Error(
        `removal of a triple the graph does not hold: ${triple.subject} ${triple.predicate} ${triple.object}`,
      );
    const last = count - 1;
    if (position !== last) {
      const lastTriple = writes.get(last) ?? graph.tripleAt(last);
      writes.set(position, lastTriple);
      moved.set(tripleKey(lastTriple.subject, lastTriple.predicate, lastTriple.object), position);
    }
    writes.delete(last);
    moved.set(key, -1);
    count--;
  }
  return { writes, count };
}

/** Inserts into an ascending position list. */
function insertSorted<Key>(index: Map<Key, number[]>, key: Key, value: number): void {
  const list = index.get(key);
  if (!list) {
    index.set(key, [value]);
    return;
  }
  list.splice(lowerBound(list, value), 0, value);
}

/** Removes from an ascending position list (the key goes when its list empties). */
function removeSorted<Key>(index: Map<Key, number[]>, key: Key, value: number): void {
  const list = index.get(key);
  if (!list) return;
  const at = lowerBound(list, value);
  if (list[at] !== value) return;
  list.splice(at, 1);
  if (list.length === 0) index.delete(key);
}

function lowerBound(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function pushTo<Key>(index: Map<Key, number[]>, key: Key, value: number): void {
  const list = index.get(key);
  if (list) list.push(value);
  else index.set(key, [value]);
}

/** Drops undefined optional fields so stored records and snapshots stay minimal and stable. */
function withoutUndefined<T extends object>(record: T): T {
  const kept: Record<string, unknown> = {};
  for (const key in record) if (record[key] !== undefined) kept[key] = record[key];
  return kept as T;
}

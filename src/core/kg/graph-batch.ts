import { baseName, distinctName, isParentRelation, languageRank, nameRank, sourceOf } from './names.ts';
import {
  type KgSymbol,
  type SymbolKind,
  ANIMA_IRI_BASE,
  labelKey,
  literalKey,
  localName,
  symbolKey,
} from './symbol.ts';
import { type Triple, tripleKey } from './triple.ts';
import type { Term } from './term.ts';
import type { GraphDelta, GraphLookup, TermRole } from './graph-delta.ts';

/**
 * Staged changes to a graph: new symbols and triples are kept aside, so a failed or cancelled
 * import leaves the graph exactly as it was. Re-asserting a triple keeps the higher confidence.
 * The delta is stored first, then applied with {@link KnowledgeGraph.apply}.
 */
export class GraphBatch {
  readonly #graph: GraphLookup;
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

  constructor(graph: GraphLookup, now: number, language?: string) {
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

/** Drops undefined optional fields so stored records and snapshots stay minimal and stable. */
function withoutUndefined<T extends object>(record: T): T {
  const kept: Record<string, unknown> = {};
  for (const key in record) if (record[key] !== undefined) kept[key] = record[key];
  return kept as T;
}

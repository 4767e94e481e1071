import { z } from 'zod';

/** What a symbol stands for: a thing, a relation (used as predicate), or a literal value. */
export const symbolKindSchema = z.enum(['entity', 'relation', 'literal']);
export type SymbolKind = z.infer<typeof symbolKindSchema>;

/** A node of the knowledge graph. Ids are per session; labels are unique per session (case-insensitive). */
export const symbolSchema = z.object({
  id: z.number().int().nonnegative(),
  /** Never empty, but for the empty literal "". */
  label: z.string(),
  kind: symbolKindSchema,
  iri: z.string().optional(),
  datatype: z.string().optional(),
  language: z.string().optional(),
  createdAt: z.number(),
});
export type KgSymbol = z.infer<typeof symbolSchema>;

/**
 * Symbols minted by Anima itself (no IRI of their own) are written out under this namespace,
 * and read back as plain labels, so an export re-imports to the same graph.
 */
export const ANIMA_IRI_BASE = 'urn:anima:kg#';

/** The key that makes entity and relation labels unique: case-insensitive, Unicode-normalised. */
export function labelKey(label: string): string {
  // ASCII is its own NFKC form: most labels skip the costlier normalisation (a hot path of imports).
  return ASCII.test(label) ? label.toLowerCase() : label.normalize('NFKC').toLowerCase();
}
const ASCII = /^\p{ASCII}*$/u;

/**
 * The identity of a literal: its exact value, datatype and language. Literals live apart from
 * named symbols, so the literal "Dog" (an rdfs:label value, say) never clashes with the entity Dog.
 */
export function literalKey(value: string, datatype?: string, language?: string): string {
  return `"${value}"^^${datatype ?? ''}@${language ?? ''}`;
}

/** The key a stored symbol is found by: its label key, or its literal key. */
export function symbolKey(symbol: Pick<KgSymbol, 'kind' | 'label' | 'datatype' | 'language'>): string {
  return symbol.kind === 'literal'
    ? literalKey(symbol.label, symbol.datatype, symbol.language)
    : labelKey(symbol.label);
}

/** The label an IRI gets: its local name after the last `/` or `#`, percent-decoded. */
export function localName(iri: string): string {
  if (iri.startsWith(ANIMA_IRI_BASE) && iri.length > ANIMA_IRI_BASE.length)
    return safeDecode(iri.slice(ANIMA_IRI_BASE.length));
  const cut = Math.max(iri.lastIndexOf('/'), iri.lastIndexOf('#'));
  const tail = cut >= 0 ? iri.slice(cut + 1) : iri;
  // An IRI ending in `/` or `#` has no local name: fall back to the whole IRI.
  return tail.length > 0 ? safeDecode(tail) : iri;
}

/** The IRI a symbol is exported with: its own, or one minted from its label. */
export function iriOf(symbol: Pick<KgSymbol, 'label' | 'iri'>): string {
  return symbol.iri ?? ANIMA_IRI_BASE + encodeURIComponent(symbol.label);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The agent's own bookkeeping (goal statuses, episode summaries, ...) uses relations labelled
 * `agent:...`. Triples with such a predicate are metadata: kept apart from domain facts, and
 * left out of goal evaluation, synthesis, similarity and inference.
 */
export const METADATA_PREFIX = 'agent:';

export function isMetadataRelation(symbol: Pick<KgSymbol, 'label'>): boolean {
  return symbol.label.toLowerCase().startsWith(METADATA_PREFIX);
}

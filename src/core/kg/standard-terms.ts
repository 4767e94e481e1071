import { z } from 'zod';

/**
 * The standard vocabularies' terms (RDF, RDFS, OWL, SKOS, schema.org, FOAF, Wikidata's direct
 * claims), the usual prefixes, and Anima's own relations (`is-a`, `part-of`, `label`, ...) defined
 * in their terms. Constants only, so that names and the graph can read them without a cycle;
 * what a graph's vocabulary means is GraphVocabulary's (vocabulary.ts).
 */

export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
export const OWL = 'http://www.w3.org/2002/07/owl#';
export const SKOS = 'http://www.w3.org/2004/02/skos/core#';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const FOAF = 'http://xmlns.com/foaf/0.1/';
export const DCTERMS = 'http://purl.org/dc/terms/';
export const WIKIDATA_DIRECT = 'http://www.wikidata.org/prop/direct/';

export const RDF_TYPE = `${RDF}type`;
export const RDFS_LABEL = `${RDFS}label`;
export const RDFS_SUBCLASS_OF = `${RDFS}subClassOf`;
export const RDFS_SUBPROPERTY_OF = `${RDFS}subPropertyOf`;
export const RDFS_DOMAIN = `${RDFS}domain`;
export const RDFS_RANGE = `${RDFS}range`;
export const OWL_SAME_AS = `${OWL}sameAs`;
export const OWL_EQUIVALENT_CLASS = `${OWL}equivalentClass`;
export const OWL_EQUIVALENT_PROPERTY = `${OWL}equivalentProperty`;
export const OWL_INVERSE_OF = `${OWL}inverseOf`;
export const OWL_TRANSITIVE_PROPERTY = `${OWL}TransitiveProperty`;
export const OWL_SYMMETRIC_PROPERTY = `${OWL}SymmetricProperty`;
export const SKOS_BROADER = `${SKOS}broader`;
export const SKOS_NARROWER = `${SKOS}narrower`;
export const SKOS_EXACT_MATCH = `${SKOS}exactMatch`;
export const SKOS_PREF_LABEL = `${SKOS}prefLabel`;
export const SKOS_ALT_LABEL = `${SKOS}altLabel`;
export const XSD_STRING = `${XSD}string`;

/** The prefixes every query and criteria may use without declaring them (as in most RDF tools). */
export const WELL_KNOWN_PREFIXES: Readonly<Record<string, string>> = {
  rdf: RDF,
  rdfs: RDFS,
  owl: OWL,
  skos: SKOS,
  xsd: XSD,
  schema: 'http://schema.org/',
  foaf: FOAF,
  dcterms: DCTERMS,
  dc: 'http://purl.org/dc/elements/1.1/',
  wd: 'http://www.wikidata.org/entity/',
  wdt: WIKIDATA_DIRECT,
  dbo: 'http://dbpedia.org/ontology/',
  dbr: 'http://dbpedia.org/resource/',
};

/** The most prefixes a session keeps, and their lengths: a file declaring more is read, its extra prefixes left out. */
export const MAX_PREFIXES = 500;
const PREFIX_NAME = /^(?:[A-Za-z][\w.-]*)?$/u;

/** Prefixes by name, as a session keeps them (the same limits on write as on read). */
export const prefixesSchema = z
  .record(z.string().max(100).regex(PREFIX_NAME), z.string().min(1).max(2000))
  .refine((prefixes) => Object.keys(prefixes).length <= MAX_PREFIXES, `at most ${MAX_PREFIXES} prefixes`);

/** The prefixes of a file that a session can keep and a query can use: names queries can write, within the limits. */
export function usablePrefixes(declared: Readonly<Record<string, string>>): Record<string, string> {
  const usable = Object.entries(declared).filter(
    ([prefix, namespace]) =>
      prefix.length <= 100 && PREFIX_NAME.test(prefix) && namespace.length > 0 && namespace.length <= 2000,
  );
  return Object.fromEntries(usable.slice(0, MAX_PREFIXES));
}

/**
 * An IRI as a prefixed name (`skos:narrower`) with the longest of these prefixes whose namespace
 * starts it and leaves a plain local name; the IRI itself when none does.
 */
export function prefixedName(iri: string, prefixes: Readonly<Record<string, string>>): string {
  let best: [string, string] | undefined;
  for (const [prefix, namespace] of Object.entries(prefixes))
    if (
      iri.startsWith(namespace) &&
      /^[\p{L}_][\p{L}\p{N}_-]*$/u.test(iri.slice(namespace.length)) &&
      (!best || namespace.length > best[1].length)
    )
      best = [prefix, namespace];
  return best ? `${best[0]}:${iri.slice(best[1].length)}` : iri;
}

/** The IRI a prefixed name (`rdfs:subClassOf`) stands for with these prefixes, if its prefix is one of them. */
export function expandPrefixedName(name: string, prefixes: Readonly<Record<string, string>>): string | undefined {
  const match = /^([A-Za-z][\w.-]*)?:([^\s<>"]*)$/u.exec(name);
  if (!match) return undefined;
  const namespace = Object.hasOwn(prefixes, match[1] ?? '') ? prefixes[match[1] ?? ''] : undefined;
  return namespace === undefined ? undefined : namespace + match[2]!;
}

/** schema.org is published under both schemes; data uses either. */
const schema = (name: string) => [`http://schema.org/${name}`, `https://schema.org/${name}`];

/** Relations that name a thing rather than say something about it (rdfs:label and its kin). */
export const NAME_IRIS: readonly string[] = [
  RDFS_LABEL,
  SKOS_PREF_LABEL,
  SKOS_ALT_LABEL,
  `${SKOS}hiddenLabel`,
  ...schema('name'),
  ...schema('alternateName'),
  `${FOAF}name`,
  `${FOAF}nick`,
];

/**
 * Anima's relations in standard terms: each stands for the standard properties listed (and any
 * property a graph declares a sub-property or equivalent of one), and reads `inverse`'s facts
 * backwards. `is-a` is both membership and subclassing, as Anima always used it.
 */
type AnimaRelation = { standard: readonly string[]; inverse?: string };
export const ANIMA_RELATIONS: Readonly<Record<string, AnimaRelation>> = {
  'is-a': {
    standard: [
      RDF_TYPE,
      RDFS_SUBCLASS_OF,
      SKOS_BROADER,
      `${SKOS}broaderTransitive`,
      `${WIKIDATA_DIRECT}P31`,
      `${WIKIDATA_DIRECT}P279`,
    ],
    inverse: 'has-instance',
  },
  'has-instance': { standard: [SKOS_NARROWER, `${SKOS}narrowerTransitive`] },
  'part-of': {
    standard: [
      ...schema('isPartOf'),
      `${DCTERMS}isPartOf`,
      'http://purl.obolibrary.org/obo/BFO_0000050',
      `${WIKIDATA_DIRECT}P361`,
    ],
    inverse: 'has-part',
  },
  'has-part': {
    standard: [
      ...schema('hasPart'),
      `${DCTERMS}hasPart`,
      'http://purl.obolibrary.org/obo/BFO_0000051',
      `${WIKIDATA_DIRECT}P527`,
    ],
  },
  label: { standard: NAME_IRIS },
  'same-as': { standard: [OWL_SAME_AS, SKOS_EXACT_MATCH] },
};

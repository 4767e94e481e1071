import type { KgSymbol } from './symbol.ts';
import { labelKey, localName } from './symbol.ts';
import { ANIMA_RELATIONS, FOAF, NAME_IRIS, RDFS_LABEL, SKOS_ALT_LABEL, SKOS_PREF_LABEL } from './standard-terms.ts';

const NAME_IRI_SET = new Set(NAME_IRIS);
const PARENT_IRI_SET = new Set(ANIMA_RELATIONS['is-a']!.standard);

/**
 * How well a relation names its subject, best first: skos:prefLabel, rdfs:label (or Anima's
 * `label`), schema:name, foaf:name, then the other names (skos:altLabel, ...); undefined for a
 * relation that names nothing.
 */
export function nameRank(relation: Pick<KgSymbol, 'label' | 'iri'>): number | undefined {
  if (relation.iri === undefined) return labelKey(relation.label) === 'label' ? 1 : undefined;
  if (!NAME_IRI_SET.has(relation.iri)) return undefined;
  if (relation.iri === SKOS_PREF_LABEL) return 0;
  if (relation.iri === RDFS_LABEL) return 1;
  if (relation.iri.endsWith('schema.org/name')) return 2;
  if (relation.iri === `${FOAF}name`) return 3;
  return relation.iri === SKOS_ALT_LABEL ? 4 : 5;
}

/** How well a name's language suits the reader, best first: theirs (en-GB for en-GB), its family (en), none, English, any other. */
export function languageRank(language: string | undefined, readerLanguage: string | undefined): number {
  if (language === undefined) return 2;
  const [tag, reader] = [language.toLowerCase(), readerLanguage?.toLowerCase()];
  if (reader !== undefined && tag === reader) return 0;
  if (reader !== undefined && tag.split('-')[0] === reader.split('-')[0]) return 1;
  return tag === 'en' || tag.startsWith('en-') ? 3 : 4;
}

/** Whether a relation places its subject under a broader thing (is-a, rdf:type, rdfs:subClassOf, skos:broader): what tells two names apart. */
export function isParentRelation(relation: Pick<KgSymbol, 'label' | 'iri'>): boolean {
  return relation.iri !== undefined ? PARENT_IRI_SET.has(relation.iri) : labelKey(relation.label) === 'is-a';
}

/** A display name as said, without what tells it apart from another's: `bass (fish)` and `dog · wordnet` give bass and dog. */
export function baseName(label: string): string {
  const base = label.replace(/ (?:\([^()]+\)|· .+)$/u, '');
  return base.length > 0 ? base : label;
}

/**
 * Where an IRI comes from, to tell two things of one name apart: the prefix its file declares
 * for its namespace (the longest that fits), else its host without www. (`wordnet-rdf.princeton.edu`).
 */
export function sourceOf(iri: string, prefixes: Readonly<Record<string, string>>): string | undefined {
  let best: [string, string] | undefined;
  for (const [prefix, namespace] of Object.entries(prefixes))
    if (prefix !== '' && iri.startsWith(namespace) && (!best || namespace.length > best[1].length))
      best = [prefix, namespace];
  if (best) return best[0];
  const host = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/:?#]+)/iu.exec(iri)?.[1];
  return host?.replace(/^www\./u, '');
}

/** The words of a relation's name, lower case: `alpha-2` → alpha 2, `countryCode` → country code. */
export function relationWords(relation: Pick<KgSymbol, 'label' | 'iri'>): string[] {
  const name = relation.iri !== undefined ? localName(relation.iri) : relation.label;
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/**
 * Whether a relation names its subject (rdfs:label, skos:prefLabel, schema:name, foaf:name, or a
 * relation called label, name, nick or alias, or ending so: common-name): names are not meaning,
 * so similarity leaves them out and analogy never copies them.
 */
export function isNameRelation(relation: Pick<KgSymbol, 'label' | 'iri'>): boolean {
  if (relation.iri !== undefined && NAME_IRI_SET.has(relation.iri)) return true;
  const words = relationWords(relation);
  const last = words.at(-1);
  return (
    last === 'label' ||
    last === 'name' ||
    last === 'nick' ||
    last === 'nickname' ||
    last === 'alias' ||
    words.join('') === 'preflabel' ||
    words.join('') === 'altlabel'
  );
}

/**
 * The label a named thing gets when its name may be taken: the name, else the name with its
 * parent (`bass (fish)`), else with where it came from (`dog · wordnet`), else its IRI. Never a
 * number. Undefined when all are taken (a blank node has no IRI to fall back on).
 */
export function distinctName(
  name: string,
  context: { parentName?: string; source?: string; iri?: string },
  isTaken: (label: string) => boolean,
): string | undefined {
  const { parentName, source, iri } = context;
  const candidates = [
    name,
    parentName !== undefined && labelKey(parentName) !== labelKey(name) ? `${name} (${parentName})` : undefined,
    source !== undefined ? `${name} · ${source}` : undefined,
    iri,
  ];
  return candidates.find((candidate): candidate is string => candidate !== undefined && !isTaken(candidate));
}

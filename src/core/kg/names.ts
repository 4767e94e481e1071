import type { KgSymbol } from './symbol.ts';
import { localName } from './symbol.ts';
import { NAME_IRIS } from './vocabulary.ts';

const NAME_IRI_SET = new Set(NAME_IRIS);

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
  return last === 'label' || last === 'name' || last === 'nick' || last === 'nickname' || last === 'alias' || words.join('') === 'preflabel' || words.join('') === 'altlabel';
}

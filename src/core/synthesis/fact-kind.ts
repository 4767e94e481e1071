import { baseName } from '#core/kg/names.ts';

/**
 * What a fact says, which picks its template: `classification` (Dog is-a Mammal), `part` (the
 * object is a part of the subject: Dog has-part Tail), `part_of` (the subject is a part of the
 * object: Tail part-of Dog) or `other`. The two part kinds are apart because they read in
 * opposite directions ("Dog has Tail", "Tail is part of Dog"). Snake case as in grammar files.
 */
export type FactKind = 'classification' | 'part' | 'part_of' | 'other';

/** Every fact kind, in the order grammars list their templates. */
export const FACT_KINDS = ['classification', 'part', 'part_of', 'other'] as const satisfies readonly FactKind[];

// Predicates compared without case, hyphens or underscores and without an IRI or prefix, so
// `is-a`, `isA`, `rdf:type`, `rdfs:subClassOf`, `skos:broader` and Wikidata's P31/P279 all count.
const KIND_OF_PREDICATE = new Map<string, FactKind>([
  ['isa', 'classification'],
  ['instanceof', 'classification'],
  ['subclassof', 'classification'],
  ['type', 'classification'],
  ['broader', 'classification'],
  ['broadertransitive', 'classification'],
  ['p31', 'classification'],
  ['p279', 'classification'],
  ['haspart', 'part'],
  ['hasa', 'part'],
  ['contains', 'part'],
  ['partof', 'part_of'],
  ['ispartof', 'part_of'],
  ['p361', 'part_of'],
  ['p527', 'part'],
]);

/** The kind of a fact, from its predicate's label. */
export function factKindOf(predicate: string): FactKind {
  // A relation named as another's is told apart by its source (`is-a · other.example`): the name is what counts.
  const name = baseName(predicate);
  const localName = name.slice(Math.max(name.lastIndexOf('#'), name.lastIndexOf('/'), name.lastIndexOf(':')) + 1);
  return KIND_OF_PREDICATE.get(localName.toLowerCase().replace(/[-_\s]/g, '')) ?? 'other';
}

/**
 * A term as an importer or a query reads it, before it is resolved to a symbol:
 * an IRI, a bare label (CSV, queries), or a literal value.
 */
export type Term =
  | { type: 'iri'; value: string }
  | { type: 'label'; value: string }
  /** A blank node, named as its file names it; local to one import. */
  | { type: 'blank'; value: string }
  | { type: 'literal'; value: string; datatype?: string; language?: string };

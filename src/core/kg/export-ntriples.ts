import type { KnowledgeGraph } from './graph.ts';
import { iriOf, type KgSymbol } from './symbol.ts';

/**
 * Writes the graph as N-Triples, one line per triple, in a stable order (by subject, predicate,
 * object id) so that exporting an unchanged graph twice gives identical text. Symbols without
 * an IRI are written under Anima's namespace and read back as the same labels.
 */
export function exportNTriples(graph: KnowledgeGraph): string {
  const triples = [...graph.triples()].sort(
    (a, b) => a.subject - b.subject || a.predicate - b.predicate || a.object - b.object,
  );
  const lines: string[] = [];
  for (const triple of triples) {
    const subject = graph.symbol(triple.subject);
    const predicate = graph.symbol(triple.predicate);
    const object = graph.symbol(triple.object);
    if (!subject || !predicate || !object)
      throw new Error(`triple ${triple.subject} ${triple.predicate} ${triple.object} names a missing symbol`);
    lines.push(`${termText(subject)} ${termText(predicate)} ${termText(object)} .\n`);
  }
  return lines.join('');
}

/** A term as an export writes it: a symbol, or a symbol as the contract shows it (no language or datatype: a plain literal). */
type ExportedTerm = Pick<KgSymbol, 'kind' | 'label' | 'iri'> & Partial<Pick<KgSymbol, 'language' | 'datatype'>>;

/** Facts (a goal's findings, say) as N-Triples, in the order given. */
export function factsAsNTriples(
  facts: readonly { subject: ExportedTerm; predicate: ExportedTerm; object: ExportedTerm }[],
): string {
  return facts
    .map(({ subject, predicate, object }) => `${termText(subject)} ${termText(predicate)} ${termText(object)} .\n`)
    .join('');
}

/** Facts as the CSV the graph import reads back (subject,predicate,object,confidence), quoted where a field needs it. */
export function factsAsCsv(
  facts: readonly { subject: ExportedTerm; predicate: ExportedTerm; object: ExportedTerm; confidence: number }[],
): string {
  const field = (text: string) =>
    /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
  return facts
    .map(
      ({ subject, predicate, object, confidence }) =>
        `${field(subject.label)},${field(predicate.label)},${field(object.label)},${confidence}\n`,
    )
    .join('');
}

function termText(symbol: ExportedTerm): string {
  if (symbol.kind !== 'literal') return `<${escapeIri(iriOf(symbol))}>`;
  const quoted = `"${escapeLiteral(symbol.label)}"`;
  if (symbol.language) return `${quoted}@${symbol.language}`;
  if (symbol.datatype) return `${quoted}^^<${escapeIri(symbol.datatype)}>`;
  return quoted;
}

/** N-Triples IRIs may not hold spaces, quotes, angle brackets and a few more: escape them as \\uXXXX. */
function escapeIri(iri: string): string {
  return iri.replace(
    // eslint-disable-next-line no-control-regex -- control characters are what this escapes
    /[\u0000-\u0020<>"{}|^`\\]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

function escapeLiteral(text: string): string {
  return text.replace(
    /[\\"\n\r]/g,
    (character) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r' })[character]!,
  );
}

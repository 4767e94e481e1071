import { Parser, type Quad, type Term as RdfTerm } from 'n3';
import { quoteInput } from '#core/quote-input.ts';
import type { Problem } from '#core/result.ts';
import type { Term } from '../term.ts';
import { XSD_STRING } from '../standard-terms.ts';
import type { ParsedStatement, StatementParser } from './statement.ts';

type StreamListener = (data?: string) => void;

/**
 * Parses N-Triples or Turtle incrementally with n3: chunks go in as they are read, triples come
 * out as soon as they are complete. n3 accepts any object with `on('data' | 'end')` as a stream.
 * It is fed a line at a time, so a statement Anima refuses (n3 tells no line for those) is
 * located at the line it ends on.
 */
export function createRdfParser(
  format: 'n-triples' | 'turtle',
  sink: (statement: ParsedStatement) => void,
  options: { baseIri?: string; onPrefix?: (prefix: string, namespace: string) => void } = {},
): StatementParser {
  const listeners = new Map<string, StreamListener[]>();
  const stream = {
    on(event: string, listener: StreamListener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return stream;
    },
  };
  let problem: Problem | undefined;
  const emit = (event: string, data?: string) => {
    try {
      for (const listener of listeners.get(event) ?? []) listener(data);
    } catch (error) {
      // n3 2.13 can stumble after reporting a problem (an invalid IRI in a prefix declaration is
      // then read as an entity that is not there): the problem it reported is the file's. A
      // stumble of its own, unknown so far, still reaches the user as a sentence.
      problem ??= { message: `n3 could not read the file (${error instanceof Error ? error.message : String(error)})` };
    }
  };
  /** The line being fed to n3. */
  let line = 1;
  const parser = new Parser({
    format: format === 'n-triples' ? 'N-Triples' : 'Turtle',
    ...(options.baseIri !== undefined ? { baseIRI: options.baseIri } : {}),
  });
  parser.parse(
    stream as never,
    (error: (Error & { context?: { line?: number } }) | null, quad: Quad | null) => {
      if (problem) return;
      if (error) {
        problem = problemFromN3(error);
        return;
      }
      if (!quad) return;
      const statement = statementFromQuad(quad);
      if ('message' in statement) problem = { line, message: statement.message };
      else sink(statement);
    },
    (prefix: string, namespace: { value: string }) => options.onPrefix?.(prefix, namespace.value),
  );
  return {
    push(chunk) {
      let start = 0;
      while (start < chunk.length && !problem) {
        const end = chunk.indexOf('\n', start);
        // A piece without its line end goes on in the next chunk, on the same line.
        const pieceEnd = end === -1 ? chunk.length : end + 1;
        emit('data', chunk.slice(start, pieceEnd));
        if (end !== -1) line++;
        start = pieceEnd;
      }
      return problem;
    },
    end() {
      if (!problem) emit('end');
      return problem;
    },
  };
}

function statementFromQuad(quad: Quad): ParsedStatement | { message: string } {
  const subject = termFromRdf(quad.subject);
  const predicate = termFromRdf(quad.predicate);
  const object = termFromRdf(quad.object);
  if (!subject || !predicate || !object)
    return { message: 'unsupported term (quoted triples and variables are not supported)' };
  // n3 keeps a relative IRI as it is when neither the file (@base) nor the reader (a fetched
  // document's address) gives a base (and makes "undefined/x" of "/x"): stored, it could never be
  // exported as N-Triples, which wants every IRI whole.
  const relative = [subject, predicate, object]
    .flatMap((term) => [
      term.type === 'iri' ? term.value : undefined,
      term.type === 'literal' ? term.datatype : undefined,
    ])
    .find((iri) => iri !== undefined && !ABSOLUTE_IRI.test(iri));
  if (relative !== undefined)
    return {
      message: `the IRI ${quoteInput(relative)} is not absolute (it names no scheme, such as http:): write it in full, or declare @base before it`,
    };
  return { subject, predicate, object };
}

/** An IRI that begins with a scheme (RFC 3987). */
const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function termFromRdf(term: RdfTerm): Term | undefined {
  switch (term.termType) {
    case 'NamedNode':
      return { type: 'iri', value: term.value };
    case 'BlankNode':
      // n3 prefixes blank node names with a per-process counter (b0_x); the file's own name reads better.
      return { type: 'blank', value: term.value.replace(/^b\d+_/, '') };
    case 'Literal': {
      const datatype = term.datatype.value;
      return {
        type: 'literal',
        value: term.value,
        ...(term.language ? { language: term.language } : {}),
        ...(datatype && datatype !== XSD_STRING && !term.language ? { datatype } : {}),
      };
    }
    default:
      return undefined;
  }
}

function problemFromN3(error: Error & { context?: { line?: number } }): Problem {
  const said = error.message.replace(/ on line \d+\.$/, '').replace(/\.$/, '');
  // n3 puts the text it could not read between the first and the last double quote, whole (a
  // 10 MB line would be echoed entire): it is shown quoted and cut, as all echoed input is.
  const quoted = /^([^"]*)"([\s\S]*)"([^"]*)$/.exec(said);
  const message = quoted ? `${quoted[1]}${quoteInput(quoted[2]!)}${quoted[3]}` : said;
  return error.context?.line !== undefined ? { line: error.context.line, message } : { message };
}

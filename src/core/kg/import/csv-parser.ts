import { parseDecimal } from '#core/decimal-text.ts';
import { quoteInput } from '#core/quote-input.ts';
import type { Problem } from '#core/result.ts';
import type { ParsedStatement, StatementParser } from './statement.ts';

/**
 * Parses `subject,predicate,object[,confidence]` CSV incrementally (RFC 4180 quoting; a quoted
 * field may span lines). An optional header row `subject,predicate,object[,confidence]` is
 * skipped; blank lines and lines starting with `#` are ignored. Every field is a symbol label,
 * but the confidence: a plain decimal from 0 to 1 (parseDecimal), spaces around it aside.
 */
export function createCsvParser(sink: (statement: ParsedStatement) => void): StatementParser {
  let pending = '';
  let line = 1;
  let problem: Problem | undefined;
  let isFirstRecord = true;

  const handleRecord = (fields: string[], recordLine: number): Problem | undefined => {
    const wasFirst = isFirstRecord;
    isFirstRecord = false;
    if (wasFirst && isHeader(fields)) return undefined;
    if (fields.length < 3 || fields.length > 4)
      return {
        line: recordLine,
        message: `expected 3 or 4 fields (subject,predicate,object[,confidence]), found ${fields.length}`,
      };
    const [subject, predicate, object, confidenceText] = fields.map((field) => field.trim()) as [
      string,
      string,
      string,
      string?,
    ];
    const names = ['subject', 'predicate', 'object'] as const;
    for (const [index, value] of [subject, predicate, object].entries()) {
      if (value === '') return { line: recordLine, message: `the ${names[index]} (column ${index + 1}) is empty` };
    }
    let confidence: number | undefined;
    if (confidenceText !== undefined && confidenceText !== '') {
      confidence = parseDecimal(confidenceText);
      if (confidence === undefined || confidence < 0 || confidence > 1)
        return {
          line: recordLine,
          message: `the confidence (column 4) ${quoteInput(confidenceText)} is not a plain decimal from 0 to 1, such as 0.75`,
        };
    }
    sink({
      subject: { type: 'label', value: subject },
      predicate: { type: 'label', value: predicate },
      object: { type: 'label', value: object },
      ...(confidence !== undefined ? { confidence } : {}),
    });
    return undefined;
  };

  /** Reads whole records out of `pending`; keeps an unfinished one for the next chunk. */
  const drain = (isFinal: boolean): Problem | undefined => {
    let position = 0;
    while (position < pending.length) {
      // Blank and comment lines are told from their raw text, before any quote or comma means anything.
      const lineEnd = pending.indexOf('\n', position);
      if (lineEnd === -1 && !isFinal) break;
      const rawLine = pending.slice(position, lineEnd === -1 ? pending.length : lineEnd);
      if (rawLine.trim() === '' || rawLine.trimStart().startsWith('#')) {
        line++;
        position = lineEnd === -1 ? pending.length : lineEnd + 1;
        continue;
      }
      const record = readRecord(pending, position, isFinal);
      if (record === 'incomplete') break;
      if ('message' in record) return { line: line + record.lineOffset, message: record.message };
      const recordProblem = handleRecord(record.fields, line);
      if (recordProblem) return recordProblem;
      line += record.lines;
      position = record.end;
    }
    pending = pending.slice(position);
    return undefined;
  };

  return {
    push(chunk) {
      if (problem) return problem;
      pending += chunk;
      problem = drain(false);
      return problem;
    },
    end() {
      if (problem) return problem;
      problem = drain(true);
      return problem;
    },
  };
}

type CsvRecord = { fields: string[]; end: number; lines: number };
type CsvProblem = { message: string; lineOffset: number };

/** Reads one record starting at `start`. Returns 'incomplete' when the chunk ends inside it. */
function readRecord(text: string, start: number, isFinal: boolean): CsvRecord | CsvProblem | 'incomplete' {
  const fields: string[] = [];
  let field = '';
  let position = start;
  let lines = 0;
  let isQuoted = false;
  let wasQuoted = false;
  while (position < text.length) {
    const character = text[position]!;
    if (isQuoted) {
      if (character === '"') {
        if (text[position + 1] === '"') {
          field += '"';
          position += 2;
          continue;
        }
        if (position + 1 >= text.length && !isFinal) return 'incomplete';
        isQuoted = false;
        position++;
        continue;
      }
      if (character === '\n') lines++;
      field += character;
      position++;
      continue;
    }
    if (character === '"') {
      if (field.trim() !== '' || wasQuoted)
        return {
          message: 'a quote inside an unquoted field (quote the whole field and double inner quotes)',
          lineOffset: lines,
        };
      field = '';
      isQuoted = true;
      wasQuoted = true;
      position++;
      continue;
    }
    if (character === ',') {
      fields.push(field);
      field = '';
      wasQuoted = false;
      position++;
      continue;
    }
    if (character === '\n' || character === '\r') {
      fields.push(field);
      const end = character === '\r' && text[position + 1] === '\n' ? position + 2 : position + 1;
      if (character === '\r' && position + 1 >= text.length && !isFinal) return 'incomplete';
      return { fields, end, lines: lines + 1 };
    }
    if (wasQuoted && character.trim() !== '') return { message: 'text after a closing quote', lineOffset: lines };
    field += character;
    position++;
  }
  if (!isFinal) return 'incomplete';
  if (isQuoted) return { message: 'a quoted field is not closed', lineOffset: 0 };
  fields.push(field);
  return { fields, end: position, lines: 1 };
}

function isHeader(fields: string[]): boolean {
  const names = fields.map((field) => field.trim().toLowerCase());
  return (
    names[0] === 'subject' &&
    names[1] === 'predicate' &&
    names[2] === 'object' &&
    (names.length === 3 || names[3] === 'confidence')
  );
}

/**
 * Where each table and key of a TOML text is written, which smol-toml does not report: problems
 * about a value can then name its line. Paths join keys with '.' and number the tables of an
 * array of tables from 0 (`shadow.veto_patterns.1.severity`). Meant for text that parsed; on
 * anything else it returns what it could find, and it never throws.
 */
export function locateTomlKeys(text: string): Map<string, number> {
  const located = new Map<string, number>();
  const arrayTableCounts = new Map<string, number>();
  const scan: ScanState = { depth: 0, openString: undefined };
  let table: string[] = [];

  const record = (path: readonly string[], line: number, from: number) => {
    for (let length = from; length <= path.length; length++) {
      const joined = path.slice(0, length).join('.');
      if (!located.has(joined)) located.set(joined, line);
    }
  };

  text.split(/\r?\n/).forEach((content, index) => {
    const line = index + 1;
    let position = 0;
    if (scan.openString !== undefined) {
      position = closeMultilineString(content, 0, scan);
      if (scan.openString !== undefined) return;
    } else if (scan.depth === 0) {
      const start = skipSpaces(content, 0);
      const first = content[start];
      if (first === undefined || first === '#') return;
      if (first === '[') {
        const isArrayTable = content[start + 1] === '[';
        const header = readKey(content, start + (isArrayTable ? 2 : 1));
        if (header === undefined) return;
        table = resolveHeader(header.segments, isArrayTable, arrayTableCounts);
        record(table, line, 1);
        return;
      }
      const key = readKey(content, start);
      if (key === undefined || content[key.end] !== '=') return;
      record([...table, ...key.segments], line, table.length + 1);
      position = key.end + 1;
    }
    scanValue(content, position, scan);
  });
  return located;
}

/** The line of `path`, or of its nearest located parent (a missing key falls back to its table's header). */
export function nearestLine(located: ReadonlyMap<string, number>, path: string): number | undefined {
  let current = path;
  for (;;) {
    const line = located.get(current);
    if (line !== undefined) return line;
    const dot = current.lastIndexOf('.');
    if (dot < 0) return undefined;
    current = current.slice(0, dot);
  }
}

/** Carried from line to line: open brackets of a multi-line value, an unclosed multi-line string. */
type ScanState = { depth: number; openString: '"""' | "'''" | undefined };

function skipSpaces(content: string, from: number): number {
  let position = from;
  while (content[position] === ' ' || content[position] === '\t') position++;
  return position;
}

/** A header's path with the current index of every array of tables it passes through. */
function resolveHeader(segments: readonly string[], isArrayTable: boolean, counts: Map<string, number>): string[] {
  const path: string[] = [];
  segments.forEach((segment, index) => {
    path.push(segment);
    const joined = path.join('.');
    const count = counts.get(joined);
    if (isArrayTable && index === segments.length - 1) {
      counts.set(joined, (count ?? 0) + 1);
      path.push(String(count ?? 0));
    } else if (count !== undefined) {
      path.push(String(count - 1));
    }
  });
  return path;
}

/** A dotted key (bare, "basic" or 'literal' parts) and the position after it and its trailing spaces. */
function readKey(content: string, from: number): { segments: string[]; end: number } | undefined {
  const segments: string[] = [];
  let position = from;
  for (;;) {
    position = skipSpaces(content, position);
    const quote = content[position];
    if (quote === '"' || quote === "'") {
      const end = endOfString(content, position + 1, quote);
      const raw = content.slice(position + 1, end - 1);
      segments.push(quote === '"' ? decodeEscapes(raw) : raw);
      position = end;
    } else {
      const bare = /^[A-Za-z0-9_-]+/.exec(content.slice(position));
      if (bare === null) return undefined;
      segments.push(bare[0]);
      position += bare[0].length;
    }
    position = skipSpaces(content, position);
    if (content[position] !== '.') return { segments, end: position };
    position++;
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  e: '\u001b',
  '"': '"',
  '\\': '\\',
};

function decodeEscapes(raw: string): string {
  return raw.replace(
    /\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|x([0-9a-fA-F]{2})|(.))/g,
    (escape, short?: string, long?: string, byte?: string, simple?: string) => {
      const hex = short ?? long ?? byte;
      if (hex !== undefined) {
        const code = Number.parseInt(hex, 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : escape;
      }
      return SIMPLE_ESCAPES[simple ?? ''] ?? escape;
    },
  );
}

/** The position after a one-line string's closing quote (or the line's end). */
function endOfString(content: string, from: number, quote: '"' | "'"): number {
  for (let position = from; position < content.length; position++) {
    if (quote === '"' && content[position] === '\\') position++;
    else if (content[position] === quote) return position + 1;
  }
  return content.length;
}

/** The position after the open multi-line string's closing delimiter, or the line's end if it stays open. */
function closeMultilineString(content: string, from: number, scan: ScanState): number {
  const delimiter = scan.openString;
  if (delimiter === undefined) return from;
  for (let position = from; position < content.length; position++) {
    if (delimiter === '"""' && content[position] === '\\') position++;
    else if (content.startsWith(delimiter, position)) {
      let end = position + 3;
      // Up to two quotes may stand just inside the closing delimiter.
      while (end < position + 5 && content[end] === delimiter[0]) end++;
      scan.openString = undefined;
      return end;
    }
  }
  return content.length;
}

/** Follows a value to the line's end: strings, comments and the brackets that keep it going. */
function scanValue(content: string, from: number, scan: ScanState): void {
  for (let position = from; position < content.length; position++) {
    const character = content[position];
    if (character === '#') return;
    if (character === '"' || character === "'") {
      const triple = character === '"' ? '"""' : "'''";
      if (content.startsWith(triple, position)) {
        scan.openString = triple;
        position = closeMultilineString(content, position + 3, scan) - 1;
        if (scan.openString !== undefined) return;
      } else {
        position = endOfString(content, position + 1, character) - 1;
      }
    } else if (character === '[' || character === '{') {
      scan.depth++;
    } else if (character === ']' || character === '}') {
      scan.depth = Math.max(0, scan.depth - 1);
    }
  }
}

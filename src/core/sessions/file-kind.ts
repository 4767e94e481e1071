import { formatFromFileName, type KgImportFormat } from '#core/kg/import/statement.ts';
import { BUNDLE_FORMAT } from '#core/personas/persona-bundle.ts';
import { SNAPSHOT_FORMAT } from './snapshot-format.ts';

/** What a file given to Anima is, read by its content: each kind has its own import and preview. */
export type FileKind =
  { kind: 'graph'; format: KgImportFormat } | { kind: 'psyche' } | { kind: 'persona' } | { kind: 'snapshot' };

/** What each kind is, in words ("<file> is ..."). */
export const FILE_KIND_TEXT: Readonly<Record<FileKind['kind'], string>> = {
  graph: 'a knowledge graph',
  psyche: 'a psyche',
  persona: 'a persona',
  snapshot: 'a session snapshot',
};

/** How much of a file is read to tell its kind: the keys and prefixes that tell it come first. */
const HEAD_BYTES = 64 * 1024;

/** The sections only a psyche.toml has (psyche/psyche-toml.ts reads them). */
const PSYCHE_SECTION = /^\s*\[\[?(persona|shadow|archetypes|self_integration|grammar)[\].]/m;

/**
 * What a file is, by its first bytes, whatever its name: a gzip or an `anima-snapshot` JSON is a
 * session snapshot; a PNG, an `anima-persona` bundle or a character card's JSON is a persona; a
 * TOML file with a psyche's sections is a psyche; Turtle, N-Triples or CSV is a graph. The name's
 * ending settles only a graph's format when its text does not. Undefined when it is none of them.
 */
export function fileKindOf(fileName: string, bytes: Uint8Array): FileKind | undefined {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return { kind: 'snapshot' };
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return { kind: 'persona' };
  const head = new TextDecoder().decode(bytes.subarray(0, HEAD_BYTES)).replace(/^\uFEFF/, '');
  const text = head.trimStart();
  if (text.startsWith('{')) {
    if (new RegExp(`"format"\\s*:\\s*"${SNAPSHOT_FORMAT}"`).test(text)) return { kind: 'snapshot' };
    const isCard = /"spec"\s*:\s*"chara_card_v[23]"|"first_mes"\s*:/.test(text);
    if (isCard || new RegExp(`"format"\\s*:\\s*"${BUNDLE_FORMAT}"`).test(text)) return { kind: 'persona' };
    return undefined;
  }
  if (PSYCHE_SECTION.test(text)) return { kind: 'psyche' };
  const format = graphFormatOf(text) ?? formatFromFileName(fileName);
  return format ? { kind: 'graph', format } : undefined;
}

/** The graph format a text's first lines are written in, if they tell. */
function graphFormatOf(text: string): KgImportFormat | undefined {
  const lines = text
    .split(/\r?\n/)
    .slice(0, 50)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (lines.length === 0) return undefined;
  if (/^(@prefix|@base|prefix\s|base\s)/i.test(lines[0]!)) return 'turtle';
  const isNTriples = (line: string) => /^(<[^>]*>|_:\S+)\s+<[^>]*>\s+.+\.$/.test(line);
  // The last line of the head may be cut short.
  const whole = lines.length > 1 ? lines.slice(0, -1) : lines;
  if (whole.every(isNTriples)) return 'n-triples';
  if (/^(<[^>]*>|[\w-]*:[\w-]*)\s/.test(lines[0]!) && /[.;,]$/.test(lines[0]!)) return 'turtle';
  return undefined;
}

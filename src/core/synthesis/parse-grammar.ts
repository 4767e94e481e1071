import { parse, TomlError } from 'smol-toml';
import type { z } from 'zod';
import type { Problem, Result } from '#core/result.ts';
import { type Grammar, grammarSchema } from './grammar.ts';
import { locateTomlKeys, nearestLine } from '#core/toml/key-lines.ts';

/** Grammar files larger than this are refused before parsing (a grammar is a page of phrases). */
export const MAX_GRAMMAR_BYTES = 200 * 1024;

/**
 * Reads a custom grammar file (TOML) into a grammar. Problems say where: syntax errors by line
 * (and column), wrong or missing values and unknown placeholders by key path and line, unknown
 * keys as errors (see `grammarSchema`). Never throws.
 */
export function parseGrammar(tomlText: string): Result<Grammar> {
  const bytes = new TextEncoder().encode(tomlText).length;
  if (bytes > MAX_GRAMMAR_BYTES) {
    return {
      ok: false,
      error: [
        {
          message: `the grammar file is ${Math.ceil(bytes / 1024)} KB; at most ${MAX_GRAMMAR_BYTES / 1024} KB is read`,
        },
      ],
    };
  }
  let data: unknown;
  try {
    data = parse(tomlText);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // The first line of the message is the reason; the rest is a code frame we locate by line.
    const reason = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
    return { ok: false, error: [{ line: error.line, message: `${reason} (column ${error.column})` }] };
  }
  const parsed = grammarSchema.safeParse(data, { error: describeMissing });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: parsed.error.issues.flatMap((issue) => locatedProblems(issue, tomlText)) };
}

/** "missing" reads better than zod's "expected string, received undefined" for a key not written. */
function describeMissing(issue: z.core.$ZodRawIssue): string | undefined {
  return issue.code === 'invalid_type' && issue.input === undefined
    ? `missing (expected ${issue.expected})`
    : undefined;
}

function locatedProblems(issue: z.core.$ZodIssue, source: string): Problem[] {
  // One problem for each unknown key, at the key's own path and line.
  const paths = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
  const located = locateTomlKeys(source);
  return paths.map((path) => {
    const line = nearestLine(located, path.map(String).join('.'));
    return {
      ...(line !== undefined ? { line } : {}),
      ...(path.length > 0 ? { path: path.map(String).join('.') } : {}),
      message:
        issue.code === 'unrecognized_keys'
          ? 'unknown key (not part of the grammar format; a misspelling?)'
          : issue.message,
    };
  });
}

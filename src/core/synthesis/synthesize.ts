import type { Result } from '#core/result.ts';
import { BUILT_IN_GRAMMARS, type BuiltInGrammarName } from './built-in-grammars.ts';
import type { Grammar } from './grammar.ts';
import { outlineFindings } from './outline.ts';
import { parseGrammar } from './parse-grammar.ts';
import { renderFindings } from './render-findings.ts';
import type { SynthesisInput } from './synthesis-input.ts';

/** The findings of a goal as text in a grammar, written as the input's persona. */
export function synthesize(input: SynthesisInput, grammar: Grammar): string {
  return renderFindings(outlineFindings(input), grammar, input.persona);
}

/** A custom grammar a persona may name: its name and, once loaded, its TOML text. */
export type CustomGrammarSource = { name: string; source?: string };

/**
 * The grammar a persona's `grammar_preference` names: a built-in (narrative, formal, terse; case
 * and surrounding spaces ignored), else the custom grammar of that exact name, parsed from its
 * source. Built-in names win, so "narrative" always means the built-in. An error when nothing
 * matches, when the custom grammar has no source, or when its source does not parse.
 */
export function grammarNamed(preference: string, custom?: CustomGrammarSource): Result<Grammar> {
  const wanted = preference.trim();
  const builtInName = wanted.toLowerCase();
  if (isBuiltInName(builtInName)) return { ok: true, value: BUILT_IN_GRAMMARS[builtInName] };
  if (custom && custom.name.trim() === wanted) {
    if (custom.source === undefined || custom.source.trim() === '') {
      return { ok: false, error: [{ message: `the custom grammar "${wanted}" has no source (load its TOML file)` }] };
    }
    return parseGrammar(custom.source);
  }
  const known = [...Object.keys(BUILT_IN_GRAMMARS), ...(custom ? [custom.name] : [])]
    .map((name) => `"${name}"`)
    .join(', ');
  return { ok: false, error: [{ message: `no grammar is named "${wanted}" (known: ${known})` }] };
}

function isBuiltInName(name: string): name is BuiltInGrammarName {
  return Object.hasOwn(BUILT_IN_GRAMMARS, name);
}

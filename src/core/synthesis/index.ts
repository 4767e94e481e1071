// Synthesis: the findings of a goal written as text by a grammar (see README.md).
export { BUILT_IN_GRAMMARS, type BuiltInGrammarName } from './built-in-grammars.ts';
export { type FactKind, factKindOf } from './fact-kind.ts';
export { type Grammar, grammarSchema } from './grammar.ts';
export {
  type Outline,
  type OutlineItem,
  type OutlineOverview,
  type OutlineSection,
  outlineFindings,
  type SectionKind,
} from './outline.ts';
export { MAX_GRAMMAR_BYTES, parseGrammar } from './parse-grammar.ts';
export { renderFindings } from './render-findings.ts';
export type { FindingOrigin, SynthesisFinding, SynthesisInput, SynthesisPersona } from './synthesis-input.ts';
export { type CustomGrammarSource, grammarNamed, synthesize } from './synthesize.ts';

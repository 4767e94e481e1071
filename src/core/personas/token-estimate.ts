/**
 * Roughly how many tokens a text costs a language model: one per four characters, the usual
 * rule for English with BPE vocabularies. Budgets are planned with it before any model is bound,
 * so it is the same for every provider; it errs long on short words and short on long ones.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

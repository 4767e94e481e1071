/** A symbol the user chose for words of a goal's question, by id (the core checks it). */
export type ChosenSymbol = { words: string; symbol: number };

/**
 * The choices whose words the question still has (a choice for words typed away is dropped), as
 * plain objects: state proxies cannot be posted to the worker.
 */
export function choicesIn(question: string, chosen: readonly ChosenSymbol[]): ChosenSymbol[] {
  const text = question.toLowerCase();
  return chosen
    .filter((choice) => text.includes(choice.words.toLowerCase()))
    .map(({ words, symbol }) => ({ words, symbol }));
}

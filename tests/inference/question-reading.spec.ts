import { expect, test, tinyModel } from './fixtures.ts';

/**
 * A question read by a model on a real llama.cpp (the tiny random model, under the typed query's
 * JSON schema): whatever it says, the graph decides. Its query is either accepted, every symbol
 * in it the graph's and the answer the graph's own run of it, or refused and the words' reading
 * used, saying so. The model's text is never the answer.
 */
test('a model reads a question on the CPU engine, and the graph checks and answers it', async ({ inference }) => {
  // The prompt (the candidates and the relations, about 900 of the tiny vocabulary's tokens) needs more than 256.
  await inference.call.load(tinyModel(1, { contextLength: 4096 }), 4096);
  const question = 'Which countries use the euro?';
  const { reading, answer, problems, wordsAnswer, symbols } = await inference.call.readQuestion(question);
  const labels = new Map(symbols.map((symbol) => [symbol.id, symbol.label]));
  // Every answer is a symbol of the graph under its own label: nothing the model wrote.
  for (const entity of answer.entities) expect(labels.get(entity.symbol)).toBe(entity.label);
  if (reading.readBy === 'model') {
    expect(problems).toEqual([]);
    expect(reading.fallback).toBeUndefined();
    expect(reading.query).toBeDefined();
  } else {
    // It answered (twice: one retry), under the schema; the graph refused what it named.
    expect(reading.fallback).toMatch(
      /^the model's reading was refused \(2 answers, none valid; the last: .+\); read from the words instead$/,
    );
    expect(reading.text).toBe('every ?x with ?x is-a Country . ?x has-currency Euro (following is-a chains)');
    expect(answer).toEqual(wordsAnswer);
    expect(answer.entities.map((entity) => entity.label).sort()).toEqual(['DE', 'FR']);
  }
  test.info().annotations.push({
    type: 'reading',
    description: `${reading.readBy}: ${reading.text}${reading.fallback ? ` (${reading.fallback})` : ''}`,
  });
});

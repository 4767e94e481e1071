import { expect, test, userAsks } from './fixtures.ts';

/**
 * Constrained decoding on a real llama.cpp: a random model can only say what the grammar or the
 * schema lets it, so its output parses and has the shape, whatever the weights.
 */

test('a GBNF grammar holds a raw completion to its language', async ({ inference }) => {
  const object = await inference.call.complete({
    prompt: 'Answer:',
    maxTokens: 24,
    grammar: 'root ::= "{\\"n\\":" [0-9] [0-9]? "}"',
  });
  expect(object.text).toMatch(/^\{"n":\d{1,2}\}$/);
  expect(object.finishReason).toBe('stop');

  const word = await inference.call.complete({
    prompt: 'Pick one:',
    maxTokens: 24,
    grammar: 'root ::= ("yes" | "no" | "maybe") "."',
  });
  expect(word.text).toMatch(/^(yes|no|maybe)\.$/);
});

test('a JSON schema holds a chat answer to its shape', async ({ inference }) => {
  const schema = {
    type: 'object',
    properties: {
      color: { type: 'string', enum: ['red', 'green', 'blue'] },
      count: { type: 'integer', minimum: 0, maximum: 99 },
    },
    required: ['color', 'count'],
    additionalProperties: false,
  };
  const completion = await inference.call.chat(
    userAsks('Pick a color and a count', {
      max_tokens: 64,
      response_format: { type: 'json_object', schema: JSON.stringify(schema) },
    }),
  );
  expect(completion.choices[0]?.finish_reason).toBe('stop');
  const answer = JSON.parse(completion.choices[0]?.message.content ?? '') as Record<string, unknown>;
  expect(Object.keys(answer).sort()).toEqual(['color', 'count']);
  expect(['red', 'green', 'blue']).toContain(answer['color']);
  expect(Number.isInteger(answer['count'])).toBe(true);
  expect(answer['count']).toBeGreaterThanOrEqual(0);
  expect(answer['count']).toBeLessThanOrEqual(99);
});

test('structuredCall through engineProvider returns a typed value at the first attempt', async ({ inference }) => {
  const outcome = await inference.call.structured('mood', { prompt: 'How do you feel?', retries: 2, maxTokens: 64 });
  if (!outcome.ok) throw new Error(`expected a value, got ${JSON.stringify(outcome.bottleneck)}`);
  const value = outcome.value as { mood: string; isSure: boolean; level: number };
  expect(['calm', 'curious', 'wary']).toContain(value.mood);
  expect(typeof value.isSure).toBe('boolean');
  expect(Number.isInteger(value.level) && value.level >= 0 && value.level <= 9).toBe(true);
  expect(outcome.attempts).toHaveLength(1);
  expect(outcome.usage.promptTokens).toBeGreaterThan(0);
  expect(outcome.usage.completionTokens).toBeGreaterThan(0);
});

// A re-ask carries the answers and their problems, so the prompt grows by about 150 tokens an
// attempt: within the tiny model's 256-token context, two attempts fit and three do not.
for (const retries of [0, 1]) {
  test(`an answer the schema allows but the refinement refuses ends in invalid_output after ${retries + 1} attempt(s) (retries ${retries})`, async ({
    inference,
  }) => {
    const outcome = await inference.call.structured('impossible', { prompt: 'What is it?', retries, maxTokens: 32 });
    if (outcome.ok) throw new Error(`expected a bottleneck, got ${JSON.stringify(outcome.value)}`);
    expect(outcome.bottleneck.kind).toBe('invalid_output');
    expect(outcome.attempts).toHaveLength(retries + 1);
    for (const attempt of outcome.attempts) {
      // Constrained decoding kept it valid JSON in range: only the refinement refused it.
      expect(attempt.problems).toEqual(['at answer: must be 7']);
      expect(JSON.parse(attempt.text)).toEqual({ answer: expect.any(Number) });
    }
    expect(outcome.bottleneck.detail).toContain(`${retries + 1} answers, none valid`);
  });
}

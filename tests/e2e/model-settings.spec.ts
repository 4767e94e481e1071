import { startOpenAiServer } from '#core/testing/openai-server.ts';
import { expect, test } from './fixtures.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';

/** The model's answer to the reason tool: a final answer and the fact it stands on. */
const ZORBLAX_ANSWER = JSON.stringify({
  kind: 'final',
  answer: 'Zorblax is a moon of Kepler.',
  triples: [{ subject: 'Zorblax', predicate: 'is-a', object: 'Moon', confidence: 0.9 }],
});

test("the session's model settings: a refused one is named, what the endpoint may ignore is said, they are kept across a reload and sent with a run's requests", async ({
  page,
  shell,
  settings,
  goals,
}) => {
  const server = await startOpenAiServer([{ text: ZORBLAX_ANSWER }, { text: ZORBLAX_ANSWER }]);
  try {
    await settings.open();
    await settings.languageModel.saveEndpoint({ baseUrl: server.baseUrl, model: 'tiny-test' });
    await expect(settings.languageModel.saveStatus).toHaveText(/^Saved: runs bind tiny-test/);

    const region = page.getByRole('region', { name: 'Model sampling', exact: true });
    const field = (name: string) => region.getByRole('spinbutton', { name, exact: true });
    await field('Temperature').fill('3');
    await field('Top-p').fill('0.9');
    await field('Max tokens').fill('300');
    await field('Seed').fill('42');
    await region.getByRole('button', { name: 'Save model settings' }).click();
    await expect(region.getByRole('alert')).toContainText('Temperature: temperature is at most 2');
    await expect(field('Temperature')).toHaveAttribute('aria-invalid', 'true');

    await field('Temperature').fill('0.3');
    await region.getByRole('button', { name: 'Save model settings' }).click();
    await expect(region.getByRole('status')).toHaveText(
      "Saved: temperature 0.3, top-p 0.9, max tokens 300, seed 42; the rest are the engine's defaults.",
    );
    await expect(region.getByRole('list', { name: 'What the chosen model cannot promise' })).toContainText(
      'The seed is sent to the endpoint, but many servers ignore it',
    );

    await page.reload();
    await expect(field('Temperature')).toHaveValue('0.3', { timeout: 45_000 });
    await expect(field('Top-p')).toHaveValue('0.9');
    await expect(field('Max tokens')).toHaveValue('300');
    await expect(field('Seed')).toHaveValue('42');

    await shell.goTo('Goals');
    await goals.addGoal({ description: 'What is Zorblax', criteria: 'Zorblax is-a ?x' });
    await goals.run.runUntilDoneButton.click();
    await expect(goals.status('What is Zorblax')).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });
    expect(server.requests[0]?.body).toMatchObject({ temperature: 0.3, top_p: 0.9, max_tokens: 300, seed: 42 });
  } finally {
    await server.close();
  }
});

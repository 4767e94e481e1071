import { startOpenAiServer } from '#core/testing/openai-server.ts';
import { byTopic, recallCycle, sessionWithManyEpisodes } from '#core/testing/deferred-recall.ts';
import { expect, test } from './fixtures.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';
import { SessionsPage } from './page-models/sessions-page.ts';

/**
 * A session whose goal deferred work: memory_recall, with more episodes than a cycle embeds, handed
 * the rest to a background job, and the goal waits for it. Made by the same core in Node (a
 * browser run reaches that many episodes only after hours of cycles) and carried by its snapshot.
 */
async function deferredSessionFile() {
  const made = await sessionWithManyEpisodes();
  try {
    await made.service.sessionRename({ sessionId: made.sessionId, name: 'Canines' });
    const cycle = await recallCycle(made.db, made.sessionId, made.endpoint);
    expect(cycle.act).toMatch(/deferred embedding \d+ more episode summaries to background job #1 -> waiting$/);
    const exported = await made.service.sessionExport({ sessionId: made.sessionId, gzip: false });
    if (!exported.ok) throw new Error(JSON.stringify(exported.problems));
    return { name: 'canines.anima.json', mimeType: 'application/json', buffer: Buffer.from(exported.bytes) };
  } finally {
    await made.close();
  }
}

test('a background job survives a reload: it runs again, finishes, and its goal takes up the result', async ({
  page,
  shell,
  settings,
  goals,
  cycles,
}) => {
  const file = await deferredSessionFile();
  // The browser's embeddings endpoint: it holds every answer until the test lets them go.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = await startOpenAiServer([], {
    embeddings: async (input) => {
      await released;
      return input.map(byTopic);
    },
  });
  const embeddingRequests = () => server.requests.filter((request) => request.url.startsWith('/v1/embeddings')).length;
  try {
    // The endpoint serves the session's embedder; no language model is bound.
    await settings.open();
    await settings.languageModel.saveEndpoint({ baseUrl: server.baseUrl, model: 'topics' });
    await expect(settings.languageModel.saveStatus).toBeVisible();
    await settings.languageModel.provider('None (symbolic engine alone)').check();
    await settings.languageModel.saveButton.click();
    await expect(settings.languageModel.saveStatus).toBeVisible();

    const sessions = new SessionsPage(page);
    await sessions.open();
    await sessions.chooseFile(file);
    await sessions.importButton('Import').click();
    await expect(sessions.importStatus(/^Imported “Canines”/)).toBeVisible();
    // Opening the session starts its job: the endpoint is asked, and holds its answer.
    await sessions.openSession('Canines');
    await expect.poll(embeddingRequests, { timeout: 30_000 }).toBe(1);

    await shell.goTo('Approvals');
    const jobs = page.getByRole('region', { name: 'Background work', exact: true });
    const job = jobs.getByRole('article', { name: /^Job #1: embedding \d+ more episode summaries$/ });
    const value = (label: string) => job.getByRole('group', { name: label, exact: true });
    await expect(value('State')).toContainText('Running', { timeout: 30_000 });
    await expect(value('Goal')).toContainText('“Find canines”');
    await expect(value('Kind')).toContainText('memory_recall, embed-episodes');
    await expect(job).toContainText('Its goal waits for it; a reload starts it again.');

    // A reload mid-job: the new page runs it again (a second attempt), and this time the endpoint answers.
    await page.reload();
    await expect.poll(embeddingRequests, { timeout: 45_000 }).toBe(2);
    release();
    await expect(value('State')).toContainText('Finished', { timeout: 30_000 });
    await expect(value('Started')).toContainText('(attempt 2)');
    await expect(value('Ended')).toBeVisible();
    await expect(job).toContainText("memory_recall takes up its result in the goal's next cycle.");

    await shell.goTo('Goals');
    await expect(goals.status('Find canines')).toContainText('Active');
    await goals.run.runCycles(1);
    await cycles.open();
    await expect(cycles.entries().first()).toContainText(
      /memory_recall: taking up background job #1 \(embedding \d+ more episode summaries\), finished/,
      { timeout: RUN_TIMEOUT_MS },
    );
    await expect(cycles.entries().first()).toContainText('"the wolves were found"');

    await shell.goTo('Approvals');
    await expect(value('State')).toContainText('Taken up');
    await expect(job).toContainText('Its goal took up the result.');
  } finally {
    release();
    await server.close();
  }
});

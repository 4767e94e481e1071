import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startVirtuoso } from '../../scripts/virtuoso.mjs';
import { SYNSET_BASE, wordnetGraph } from '../../scripts/wordnet-graph.mjs';
import { expect, test } from './fixtures.ts';

/**
 * SPARQL endpoints with the browser as the real client: a private Virtuoso (Debian's
 * virtuoso-opensource, its /sparql allowing any origin by CORS) loaded with WordNet's animal
 * nouns, and a server that answers SPARQL results without CORS headers, which the browser must
 * not let the page read. Virtuoso cannot start: the tests fail, saying why.
 */
let virtuoso: Awaited<ReturnType<typeof startVirtuoso>> | undefined;
let startProblem: unknown;
let noCors: Server;
let noCorsUrl = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  noCors = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/sparql-results+json' });
    response.end(JSON.stringify({ head: {}, boolean: true }));
  });
  await new Promise<void>((resolve) => noCors.listen(0, '127.0.0.1', resolve));
  noCorsUrl = `http://127.0.0.1:${(noCors.address() as AddressInfo).port}/sparql`;
  try {
    virtuoso = process.env.ANIMA_SPARQL_ENDPOINT
      ? { url: process.env.ANIMA_SPARQL_ENDPOINT, httpPort: 0, stop: async () => {} }
      : await startVirtuoso({ ntriples: wordnetGraph().text });
  } catch (error) {
    startProblem = error;
  }
});

test.afterAll(async () => {
  await virtuoso?.stop();
  await new Promise((resolve) => noCors.close(resolve));
});

function endpointUrl(): string {
  if (!virtuoso)
    throw new Error(
      `Virtuoso did not start: ${startProblem instanceof Error ? startProblem.message : String(startProblem)}`,
    );
  return virtuoso.url;
}

test.describe('SPARQL endpoints in the browser', () => {
  test.beforeEach(async ({ knowledge }) => {
    await knowledge.open();
  });

  test('an endpoint that allows the page by CORS answers a check; one that does not is refused in words', async ({
    page,
  }) => {
    const panel = page.getByRole('region', { name: 'SPARQL endpoints' });
    const form = panel.getByRole('form', { name: 'Add an endpoint' });
    await form.getByLabel('Name').fill('wordnet');
    await form.getByLabel('Address').fill(endpointUrl());
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await panel.getByRole('button', { name: 'Check wordnet' }).click();
    await expect(panel.getByRole('status')).toHaveText(/^wordnet answered ASK \{\} in \d+ ms\.$/);

    await form.getByLabel('Name').fill('closed');
    await form.getByLabel('Address').fill(noCorsUrl);
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await panel.getByRole('button', { name: 'Check closed' }).click();
    await expect(panel.getByRole('status').filter({ hasText: 'closed' })).toHaveText(
      `the endpoint closed could not be reached at ${noCorsUrl}: it did not answer, or it answered without allowing this page to read it (no CORS header; the endpoint's operator can allow it)`,
    );
  });

  test("a symbol's neighbourhood is counted, then brought in whole", async ({ page, knowledge }) => {
    const panel = page.getByRole('region', { name: 'SPARQL endpoints' });
    const form = panel.getByRole('form', { name: 'Add an endpoint' });
    await form.getByLabel('Name').fill('wordnet');
    await form.getByLabel('Address').fill(endpointUrl());
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(panel.getByRole('button', { name: 'Check wordnet' })).toBeVisible();

    const dog = `${SYNSET_BASE}02084071-n`;
    await knowledge.importFile({
      name: 'dog.nt',
      mimeType: 'application/n-triples',
      buffer: Buffer.from(`<${dog}> <http://www.w3.org/2000/01/rdf-schema#label> "domestic dog"@en .\n`),
    });
    await expect(knowledge.importStatus).toHaveText(/^Imported 1 statement:/);
    const before = await knowledge.countOf('Triples');
    // A thing is named by its label (the starter graph's dog is another thing).
    await knowledge.openSymbol('domestic dog');

    const bringIn = knowledge.symbolDetails.getByRole('region', { name: 'Bring in from an endpoint' });
    await bringIn.getByRole('button', { name: 'Bring in from wordnet…' }).click();
    await expect(bringIn.getByRole('status')).toHaveText(
      /^(\d+) triples lie within 1 step at wordnet \(1 queries\)\.$/,
    );
    const count = Number(/^(\d+)/.exec((await bringIn.getByRole('status').textContent()) ?? '')![1]);
    expect(await knowledge.countOf('Triples')).toBe(before);

    await bringIn.getByRole('button', { name: `Bring in ${count} triples` }).click();
    await expect(bringIn.getByRole('status')).toHaveText(
      `Brought in ${count} triples from wordnet: ${count - 1} new, 0 raised in confidence.`,
    );
    await expect.poll(() => knowledge.countOf('Triples')).toBe(before + count - 1);
  });
});

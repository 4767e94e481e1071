import { type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readCharacterCard, writeCharacterCardPng } from '#core/personas/character-card.ts';
import { bundleText } from '#core/personas/persona-bundle.ts';
import { bundleFromCard } from '#core/personas/persona-card.ts';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../src/security-headers.ts';
import { tinyGguf } from '#core/testing/tiny-gguf.ts';
import { expect, test } from './fixtures.ts';
import { SCREEN_TITLES } from './page-models/app-shell.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';
import { ALL_MARKUP, InjectionWatch, MARKUP } from './page-models/injection-watch.ts';
import { WebAccessSection } from './page-models/web-access-section.ts';

/**
 * The app's Content-Security-Policy (sent by the server, and set by the built index.html for
 * hosts that send none) is in force and allows all the app does; markup in anything a user
 * imports stays text on every screen that shows it.
 */

let watch: InjectionWatch;

test.beforeEach(async ({ page }) => {
  watch = new InjectionWatch(page);
  await watch.install();
});

test('the page runs no inline script, no inline event handler and no eval, and reports each refusal', async ({
  page,
  goals,
}) => {
  await goals.open();
  // In a task of the page's own: what a test evaluates directly may eval whatever the policy says.
  await page.evaluate(() => {
    const state = window as { __xss?: unknown; __attempts?: Record<string, string> };
    const attempt = (run: () => unknown) => {
      try {
        run();
        return 'ran';
      } catch (error) {
        return error instanceof Error ? error.name : String(error);
      }
    };
    setTimeout(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__xss = 1';
      document.body.append(script);
      const handler = document.createElement('div');
      handler.setAttribute('onclick', 'window.__xss = 2');
      document.body.append(handler);
      handler.click();
      handler.remove();
      script.remove();
      state.__attempts = {
        eval: attempt(() => eval('window.__xss = 3')),
        function: attempt(() => new Function('window.__xss = 4')()),
      };
    });
  });
  await expect
    .poll(() => page.evaluate(() => (window as { __attempts?: unknown }).__attempts))
    .toEqual({ eval: 'EvalError', function: 'EvalError' });
  // Each refusal is reported by both policies in force: the server's header and the page's <meta>.
  const refusals = ['script-src', 'script-src', 'script-src-attr', 'script-src-elem'];
  const byPolicy = (policy: string) =>
    watch.violations
      .filter((violation) => violation.policy === policy)
      .map((violation) => violation.directive)
      .sort();
  await expect
    .poll(() => [
      byPolicy(SECURITY_HEADERS['Content-Security-Policy']!),
      byPolicy(CONTENT_SECURITY_POLICY),
      watch.violations.length,
    ])
    .toEqual([refusals, refusals, 2 * refusals.length]);
  expect(await page.evaluate(() => typeof (window as { __xss?: unknown }).__xss)).toBe('undefined');
});

test('every screen, a run of two cycles and the Models screen work within the policy', async ({
  shell,
  goals,
  knowledge,
  psyche,
  models,
}) => {
  await goals.open();
  // Keywords the starter graph never satisfies: the goal stays open for both cycles.
  await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater' });
  await goals.run.runCycles(2);
  await expect(goals.run.status).toContainText(/^Ran 2 cycles/);
  for (const title of SCREEN_TITLES) await shell.goTo(title);
  // The screens' richer parts: a symbol's neighbourhood graph, the psyche's history chart.
  await knowledge.open();
  await knowledge.openSymbol('Dog');
  await expect(knowledge.neighbourhoodGraph('Dog')).toBeVisible();
  await psyche.open();
  await expect(psyche.chart).toBeVisible();
  await models.open();
  await expect(models.gguf.region).toBeVisible();
  await watch.expectNothingRan();
});

test('the server sends the policy, with frame-ancestors, and nosniff and no-referrer, on the page and its files, and no other site can frame the app', async ({
  page,
  baseURL,
}) => {
  const expected = Object.fromEntries(
    Object.entries(SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const served: Record<string, Record<string, string>> = {};
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (response.url().startsWith(baseURL!) && (path === '/' || /\.(js|css|webmanifest)$/.test(path)))
      served[path] = response.headers();
  });
  const document = await page.goto('/');
  expect(document?.headers()).toMatchObject(expected);
  await expect.poll(() => Object.keys(served).filter((path) => path.endsWith('.js')).length).toBeGreaterThan(0);
  for (const [path, headers] of Object.entries(served)) expect(headers, path).toMatchObject(expected);
  // The <meta> copy in the page says the same policy, for hosts that send no headers.
  expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe(
    CONTENT_SECURITY_POLICY,
  );

  const framing = createServer((_request, response) =>
    response.end(`<!doctype html><iframe src="${baseURL}/"></iframe>`),
  );
  await new Promise<void>((resolve) => framing.listen(0, '127.0.0.1', resolve));
  try {
    const framingPage = `http://127.0.0.1:${(framing.address() as AddressInfo).port}/`;
    await page.goto(framingPage);
    // Chromium shows its error page in the frame instead of the app.
    await expect
      .poll(() => page.frames().map((frame) => frame.url()))
      .toEqual([framingPage, 'chrome-error://chromewebdata/']);
  } finally {
    framing.close();
  }
});

/** A custom grammar whose phrases carry markup, which a write-up then shows. */
const HOSTILE_GRAMMAR = `name = "hostile"
empty = '${MARKUP.image}'

[layout]
kind = "sections"
heading = '{heading} ${MARKUP.svg}'

[overview]
text = '${MARKUP.script} {goal}'

[templates]
classification = '{subject} ${MARKUP.image} {object}'
part = "{subject} has {object}"
part_of = "{subject} is part of {object}"
other = "{subject} {relation} {object}"
`;

/** A psyche.toml with markup in its names and texts; its veto holds the agent's questions for approval. */
const HOSTILE_PSYCHE = `[persona]
name = '${MARKUP.image}'
grammar_preference = "hostile"
traits = ['${MARKUP.script}']
tone = ['${MARKUP.link}']

[shadow]
bias_patterns = []

[[shadow.veto_patterns]]
name = '${MARKUP.svg}'
triggers = ["tool=user_interact"]
severity = 0.5
explanation = '${ALL_MARKUP}'
require_approval = true

[grammar]
name = "hostile"
source = '''
${HOSTILE_GRAMMAR}'''
`;

/** Keywords the starter graph never satisfies: the goal gets stuck and asks the user. */
const STUCK_GOAL = { description: `Learn about Mars ${MARKUP.svg}`, criteria: 'volcano crater' };

/** A goal the starter graph completes, with findings to write up. */
const MAMMALS = { description: 'Find mammals', criteria: '?x is-a mammal, at least 5' };

/** A symbol label made of markup (no comma and no quote, so that it fits a fact line as it is). */
const MARKUP_LABEL = '<img src=x onerror=window.__xss=1>';

test.describe('markup in what a user imports stays text', () => {
  test('a psyche.toml: its names, texts, veto pattern and grammar on the Psyche, Approvals, Cycles and Goals screens; an edited input of markup is refused', async ({
    shell,
    psyche,
    goals,
    approvals,
    cycles,
  }) => {
    const fileName = `${MARKUP.image}.toml`;
    await psyche.open();
    await psyche.chooseFile(fileName, HOSTILE_PSYCHE);
    const preview = psyche.filePreview(fileName);
    await expect(preview).toContainText(MARKUP.image);
    // The hostile file replaces the default psyche's vetoes: the preview asks to confirm that first.
    await preview
      .getByRole('checkbox', { name: /^I understand that safeguards? of the current psyche go away/ })
      .check();
    await preview.getByRole('button', { name: `Import ${fileName}` }).click();
    await expect(psyche.value('Persona')).toContainText(MARKUP.image);
    await expect(psyche.value('Traits')).toContainText(MARKUP.script);
    await expect(psyche.value('Tone')).toContainText(MARKUP.link);
    await expect(psyche.value('Grammar')).toContainText('hostile');
    await watch.expectNothingRan();

    await shell.goTo('Goals');
    await goals.addGoal(STUCK_GOAL);
    await goals.run.runUntilDoneButton.click();
    await expect(goals.status(STUCK_GOAL.description)).toContainText('Waiting for you', { timeout: RUN_TIMEOUT_MS });

    await shell.goTo('Approvals');
    const pending = approvals.pending('user_interact', STUCK_GOAL.description);
    await expect(approvals.value(pending, 'Pattern')).toContainText(MARKUP.svg);
    await expect(pending).toContainText(ALL_MARKUP);
    await approvals.approveEdited(pending, ALL_MARKUP);
    await expect(pending).toContainText('The edited input is not JSON');
    await watch.expectNothingRan();

    await shell.goTo('Cycles');
    await expect(cycles.entries().first()).toContainText(MARKUP.svg);
    await watch.expectNothingRan();

    await shell.goTo('Goals');
    await goals.addGoal(MAMMALS);
    await goals.run.runUntilDoneButton.click();
    await expect(goals.status(MAMMALS.description)).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });
    await goals.showFindings(MAMMALS.description);
    await goals.findings(MAMMALS.description).getByRole('button', { name: 'Write up' }).click();
    const writeUp = goals.findings(MAMMALS.description).getByRole('group', { name: 'Write-up', exact: true });
    await expect(writeUp).toContainText(`${MARKUP.script} ${MAMMALS.description}`);
    await expect(writeUp).toContainText(MARKUP.image);
    await expect(writeUp).toContainText(MARKUP.svg);
    for (const title of ['Memory', 'Psyche'] as const) await shell.goTo(title);
    await watch.expectNothingRan();
  });

  test("a goal's text and the answer to its question, on the Goals, Approvals, Knowledge, Memory and Cycles screens", async ({
    shell,
    goals,
    approvals,
    knowledge,
  }) => {
    await goals.open();
    await goals.addGoal(STUCK_GOAL);
    await expect(goals.goal(STUCK_GOAL.description)).toContainText(MARKUP.svg);
    await goals.run.runUntilDoneButton.click();
    await expect(goals.status(STUCK_GOAL.description)).toContainText('Waiting for you', { timeout: RUN_TIMEOUT_MS });

    await shell.goTo('Approvals');
    const question = approvals.question(STUCK_GOAL.description);
    await expect(question).toContainText(STUCK_GOAL.description);
    await approvals.answer(question, { facts: `Mars, has-feature, ${MARKUP_LABEL}`, note: ALL_MARKUP });
    await expect(approvals.status('Answered: 1 fact added to the graph.')).toBeVisible();
    await expect(approvals.question(STUCK_GOAL.description, 'decided')).toContainText(ALL_MARKUP);
    await watch.expectNothingRan();

    await knowledge.open();
    await knowledge.openSymbol(MARKUP_LABEL);
    await expect(knowledge.factRow(knowledge.incomingTable, 'Mars', 'has-feature', MARKUP_LABEL)).toBeVisible();
    await expect(knowledge.neighbourhoodGraph(MARKUP_LABEL)).toBeVisible();
    for (const title of ['Goals', 'Memory', 'Cycles'] as const) await shell.goTo(title);
    await watch.expectNothingRan();
  });

  test('knowledge graph files (N-Triples, Turtle, CSV): labels, IRIs and literals on the Knowledge screen', async ({
    knowledge,
  }) => {
    const encoded = (label: string) => `urn:anima:kg#${encodeURIComponent(label)}`;
    const files = [
      {
        name: 'hostile.nt',
        statements: 2,
        label: MARKUP_LABEL,
        literal: ALL_MARKUP,
        text: `<${encoded(MARKUP_LABEL)}> <urn:anima:kg#says> ${JSON.stringify(ALL_MARKUP)} .\n<${MARKUP.link}> <urn:anima:kg#is-a> <${encoded(MARKUP_LABEL)}> .\n`,
      },
      {
        name: 'hostile.ttl',
        statements: 3,
        label: MARKUP.svg,
        literal: MARKUP.script,
        text: `@prefix kg: <urn:anima:kg#> .\n<${encoded(MARKUP.svg)}> kg:says """${MARKUP.script}""" ; kg:is-a kg:Trap ; kg:has-part kg:Tail .\n`,
      },
      {
        name: 'hostile.csv',
        statements: 1,
        label: MARKUP.script,
        literal: MARKUP.image,
        text: `subject,predicate,object\n"${MARKUP.script}",says,"${MARKUP.image.replaceAll('"', '""')}"\n`,
      },
    ];
    await knowledge.open();
    for (const file of files) {
      await knowledge.importFile({ name: file.name, mimeType: 'text/plain', buffer: Buffer.from(file.text) });
      // Each file has its own number of statements: the report is this file's.
      await expect(knowledge.importStatus).toContainText(`Imported ${file.statements} statement`);
      await knowledge.openSymbol(file.label);
      await expect(knowledge.outgoingTable).toContainText(file.literal);
      await expect(knowledge.neighbourhoodGraph(file.label)).toBeVisible();
      await watch.expectNothingRan();
    }
    // An IRI with the javascript: scheme is shown as text, and is no link.
    await knowledge.openSymbol(MARKUP.link);
    await expect(knowledge.symbolDetails.getByRole('code')).toHaveText(MARKUP.link);
    await knowledge.runQuery('?x says ?y');
    await expect(knowledge.queryResults).toContainText(ALL_MARKUP);
    await watch.expectNothingRan();
  });

  test('a document (Markdown): its name and text in the Documents panel', async ({ documents }) => {
    const name = `${MARKUP.image}.md`;
    const text = `# ${MARKUP.svg}\n\n${MARKUP.script}\n\n[click me](${MARKUP.link})\n`;
    await documents.open();
    await documents.importText(name, text);
    await expect(documents.document(name)).toContainText(MARKUP.script);
    await expect(documents.document(name)).toContainText(`[click me](${MARKUP.link})`);
    await watch.expectNothingRan();
  });

  test('a character card (JSON and PNG) and a persona bundle: names, texts and tags on the Personas screen, and worn', async ({
    shell,
    personas,
  }) => {
    const cardJson = (name: string) =>
      JSON.stringify({
        spec: 'chara_card_v3',
        spec_version: '3.0',
        data: {
          name,
          description: ALL_MARKUP,
          personality: MARKUP.script,
          scenario: MARKUP.svg,
          first_mes: MARKUP.image,
          mes_example: '',
          creator_notes: MARKUP.link,
          tags: [MARKUP.image, MARKUP.link],
          creator: MARKUP.svg,
          extensions: {},
        },
      });
    const read = (name: string) => {
      const card = readCharacterCard({ text: cardJson(name) });
      if (!card.ok) throw new Error(`the test's card is not valid: ${JSON.stringify(card.error)}`);
      return card.value;
    };
    const bundle = bundleFromCard(read(`Bundle ${MARKUP.script}`));
    if (!bundle.ok) throw new Error(`the test's bundle is not valid: ${JSON.stringify(bundle.error)}`);
    const imports = [
      {
        fileName: 'hostile.card.json',
        name: `Card ${MARKUP.image}`,
        data: cardJson(`Card ${MARKUP.image}`),
        mimeType: 'application/json',
      },
      {
        fileName: 'hostile.card.png',
        name: `Png ${MARKUP.svg}`,
        data: Buffer.from(writeCharacterCardPng(read(`Png ${MARKUP.svg}`))),
        mimeType: 'image/png',
      },
      {
        fileName: 'hostile.persona.json',
        name: `Bundle ${MARKUP.script}`,
        data: bundleText(bundle.value),
        mimeType: 'application/json',
      },
    ];
    await personas.open();
    for (const file of imports) {
      await personas.chooseImportFile(file.fileName, file.data, file.mimeType);
      const preview = personas.importPreview(file.fileName);
      await expect(preview).toContainText(file.name);
      await preview.getByRole('button', { name: `Import ${file.fileName}` }).click();
      await expect(personas.persona(file.name)).toBeVisible();
      await expect(personas.editor(file.name)).toBeVisible();
      await expect(personas.promptText).toContainText(ALL_MARKUP);
      await watch.expectNothingRan();
    }
    await expect(personas.tagSelect.getByRole('option', { name: MARKUP.image, exact: true })).toBeAttached();
    await personas.persona(`Card ${MARKUP.image}`).getByRole('button', { name: 'Wear in this session' }).click();
    await expect(personas.worn).toContainText(`Card ${MARKUP.image}`);
    for (const title of ['Goals', 'Psyche', 'Personas'] as const) await shell.goTo(title);
    await watch.expectNothingRan();
  });

  test('a GGUF model file: its name on the Models and Settings screens', async ({ models, settings }) => {
    const fileName = `${MARKUP.image}.gguf`;
    await models.open();
    await models.gguf.addFile(fileName, tinyGguf(7));
    await expect(models.gguf.status).toContainText(`(${fileName})`);
    await expect(models.gguf.model('anima-tiny-7')).toContainText(fileName);
    await models.gguf.action('anima-tiny-7', 'Use this model').click();
    await settings.open();
    await expect(settings.languageModel.ggufModelSelect.getByRole('option', { selected: true })).toContainText(
      fileName,
    );
    await watch.expectNothingRan();
  });
});

// Markup in a session snapshot's texts: tests/e2e/sessions.spec.ts (its hash has to be remade).

/** A local web server whose answers (with CORS allowed, as a Linked Data host sends) the test scripts by path. */
async function webServer(answer: (path: string, response: ServerResponse) => void) {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '/');
    response.setHeader('access-control-allow-origin', '*');
    answer(request.url ?? '/', response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test('http_fetch in the browser follows a redirect within the allowed addresses, and takes nothing from one that leads elsewhere', async ({
  page,
  shell,
  knowledge,
  goals,
  approvals,
  cycles,
}) => {
  const turtle = (response: ServerResponse, text: string) =>
    response.writeHead(200, { 'content-type': 'text/turtle' }).end(text);
  const elsewhere = await webServer((_path, response) =>
    turtle(response, '<urn:anima:kg#Away> <urn:anima:kg#is-a> <urn:anima:kg#Spy> .\n'),
  );
  const allowed = await webServer((path, response) => {
    if (path === '/Hop') response.writeHead(303, { location: '/Dog' }).end();
    else if (path === '/Away') response.writeHead(302, { location: `${elsewhere.base}Dog` }).end();
    else if (path === '/Dog')
      turtle(
        response,
        '<urn:anima:kg#Hop> <urn:anima:kg#has-part> <urn:anima:kg#Zorptail> .\n<urn:anima:kg#Hop> <urn:anima:kg#eats> <urn:anima:kg#Quibblebone> .\n',
      );
    else response.writeHead(404).end();
  });
  try {
    await new WebAccessSection(page).allow([allowed.base]);
    await knowledge.open();
    const graph = ['Hop', 'Away']
      .map((name) => `<${allowed.base}${name}> <urn:anima:kg#is-a> <urn:anima:kg#Animal> .\n`)
      .join('');
    await knowledge.importFile({ name: 'addresses.nt', mimeType: 'text/plain', buffer: Buffer.from(graph) });
    await expect(knowledge.importStatus).toContainText('Imported 2 statements');

    // Words the starter graph does not know: only the fetch can satisfy them. The default psyche
    // holds every fetch for approval; approved, it runs in the goal's next cycle.
    for (const [name, criteria, expected] of [
      ['Hop', 'zorptail quibblebone', `GET ${allowed.base}Hop: 2 facts`],
      [
        'Away',
        'spyglass',
        `GET ${allowed.base}Away: it redirects to ${elsewhere.base}Dog, not an address you allowed (nothing from there was read)`,
      ],
    ] as const) {
      const description = `Learn about ${name}`;
      await shell.goTo('Goals');
      await goals.addGoal({ description, criteria });
      await goals.run.runUntilDoneButton.click();
      await expect(goals.status(description)).toContainText('Waiting for you', { timeout: RUN_TIMEOUT_MS });
      await shell.goTo('Approvals');
      await approvals.approve(approvals.pending('http_fetch', description));
      await shell.goTo('Goals');
      await goals.run.runOneButton.click();
      await goals.run.waitForRunEnd();
      await shell.goTo('Cycles');
      await expect(cycles.entries().first()).toContainText(expected);
    }
    // The browser followed the redirect before the address could be checked: what it said was not read.
    await knowledge.open();
    await knowledge.search('Spy');
    await expect(knowledge.searchSummary).toContainText('No symbols match');
    await watch.expectNothingRan();
  } finally {
    await allowed.close();
    await elsewhere.close();
  }
});

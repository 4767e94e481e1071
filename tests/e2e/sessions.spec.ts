import { gunzipSync } from 'node:zlib';
import { NEVER_ASK, expect, test } from './fixtures.ts';
import { CyclesPage } from './page-models/cycles-page.ts';
import { GoalsPage } from './page-models/goals-page.ts';
import { InjectionWatch, MARKUP } from './page-models/injection-watch.ts';
import { SESSION_OPEN_TIMEOUT_MS, SessionsPage } from './page-models/sessions-page.ts';
import { downloaded, rehashed } from './snapshot-files.ts';

const csv = (text: string) => ({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });

test('a new session opens in place of the old one on every screen, and the old one comes back with its own data', async ({
  page,
  shell,
  knowledge,
  goals,
}) => {
  const sessions = new SessionsPage(page);
  await knowledge.open();
  const starterTriples = await knowledge.countOf('Triples');
  await knowledge.importFile(csv('Zorblax,is-a,Alien\nZorblax,lives-on,Mars\n'));
  await expect.poll(() => knowledge.countOf('Triples')).toBe(starterTriples + 2);
  await shell.goTo('Goals');
  await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater' });

  await shell.goTo('Sessions');
  await sessions.create('Empty notes');
  await expect(sessions.session('Empty notes').getByText('Open now')).toHaveCount(0);
  await sessions.expectDetail('My session', 'Goals', '1 open of 1');
  await sessions.openSession('Empty notes');
  await expect(sessions.openSessionName).toContainText('Empty notes');
  await expect(sessions.session('My session').getByText('Open now')).toHaveCount(0);

  await shell.goTo('Goals');
  await expect(goals.goalList.getByRole('article')).toHaveCount(0);
  await expect(page.getByText('No goals yet.', { exact: false })).toBeVisible();
  await shell.goTo('Knowledge');
  await expect.poll(() => knowledge.countOf('Triples')).toBe(starterTriples);
  await knowledge.search('Zorblax');
  await expect(knowledge.searchSummary).toHaveText('No symbols match “Zorblax”.');

  await shell.goTo('Sessions');
  await sessions.openSession('My session');
  await shell.goTo('Knowledge');
  await expect.poll(() => knowledge.countOf('Triples')).toBe(starterTriples + 2);
  await shell.goTo('Goals');
  await expect(goals.goal('Learn about Mars')).toBeVisible();
});

test('renames, checks and duplicates a session: the copy lists the same goals', async ({ page, shell, goals }) => {
  const sessions = new SessionsPage(page);
  await goals.open();
  await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater' });
  await goals.addGoal({ description: 'Find mammals', criteria: 'volcano crater' });
  await shell.goTo('Sessions');

  await sessions.rename('My session', 'Mars notes');
  await expect(sessions.openSessionName).toContainText('Mars notes');
  await sessions.action('Mars notes', 'Check').click();
  await expect(sessions.cardStatus('Mars notes', 'Whole: no problems found.')).toBeVisible();

  const form = await sessions.startDuplicate('Mars notes');
  await expect(form.getByRole('textbox', { name: 'Name of the copy' })).toHaveValue('Mars notes (copy)');
  await form.getByRole('button', { name: 'Duplicate', exact: true }).click();
  await expect(sessions.session('Mars notes (copy)')).toBeVisible();
  await sessions.expectDetail('Mars notes (copy)', 'Goals', '2 open of 2');
  await sessions.expectDetail('Mars notes', 'Goals', '2 open of 2');
  await expect(sessions.session('Mars notes').getByText('Open now')).toBeVisible();
});

test('exports a session as JSON that a fresh browser imports with its goals and cycles; importing it again offers a copy or a replacement', async ({
  page,
  browser,
  shell,
  psyche,
  goals,
}) => {
  const sessions = new SessionsPage(page);
  // A psyche that never asks: the goal stays active for both cycles.
  await psyche.open();
  await psyche.importToml(NEVER_ASK);
  await shell.goTo('Goals');
  await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater' });
  await goals.run.runCycles(2);
  await shell.goTo('Sessions');
  await sessions.rename('My session', 'Mars notes');
  const file = await downloaded(await sessions.exportFile('Mars notes', 'JSON'));
  expect(file.name).toBe('mars-notes.anima.json');
  const document = JSON.parse(file.buffer.toString('utf8')) as { triples: unknown[] };
  expect(document).toMatchObject({
    format: 'anima-snapshot',
    version: 14,
    sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
  });

  // Another browser profile: an empty IndexedDB.
  const elsewhere = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const there = new SessionsPage(await elsewhere.newPage());
  await there.open();
  await there.chooseFile(file);
  const preview = there.preview(file.name);
  await expect(preview.getByRole('definition')).toHaveText([
    'Mars notes',
    `2 cycles, 1 goal, ${document.triples.length.toLocaleString('en')} triples`,
    'none',
    '14',
  ]);
  await there.importButton('Import').click();
  await expect(there.importStatus('Imported “Mars notes” from mars-notes.anima.json.')).toBeVisible();
  await there.expectDetail('Mars notes', 'Cycles', '2');
  await there.expectDetail('Mars notes', 'Goals', '1 open of 1');
  await there.openSession('Mars notes');
  const thereGoals = new GoalsPage(there.page);
  await there.page.goto('/#/goals');
  await expect(thereGoals.goal('Learn about Mars')).toBeVisible();
  const thereCycles = new CyclesPage(there.page);
  await there.page.goto('/#/cycles');
  await expect(thereCycles.entries()).toHaveCount(2);

  // The same file again: its session is here now.
  await there.open();
  await there.chooseFile(file);
  await expect(there.preview(file.name)).toContainText('This session is on this device already, as “Mars notes”');
  await expect(there.importButton('Import')).toHaveCount(0);
  await there.importRegion.getByRole('textbox', { name: 'Name of the copy' }).fill('Mars notes, second');
  await there.importButton('Import as a copy').click();
  await expect(there.importStatus('Imported “Mars notes, second”')).toBeVisible();
  await there.expectDetail('Mars notes, second', 'Cycles', '2');

  await there.chooseFile(file);
  await there.importButton('Replace the one here').click();
  await expect(there.preview(file.name).getByRole('group')).toContainText(
    'Everything the session here holds now is lost',
  );
  await there.importButton('Replace it').click();
  await expect(there.importStatus('Imported “Mars notes” from mars-notes.anima.json.')).toBeVisible({
    timeout: SESSION_OPEN_TIMEOUT_MS,
  });
  await expect(there.sessionList.getByRole('article')).toHaveCount(3);
  await elsewhere.close();
});

test('refuses a tampered file with the SHA-256 message and changes nothing', async ({ page }) => {
  const sessions = new SessionsPage(page);
  await sessions.open();
  const file = await downloaded(await sessions.exportFile('My session', 'JSON'));
  const text = file.buffer.toString('utf8');
  const at = text.indexOf('"name":"My session"') + '"name":"My s'.length;
  const tampered = {
    ...file,
    name: 'tampered.anima.json',
    buffer: Buffer.from(`${text.slice(0, at)}E${text.slice(at + 1)}`),
  };

  await sessions.chooseFile(tampered);
  await expect(sessions.importAlert).toContainText('tampered.anima.json cannot be imported; nothing changed:');
  await expect(sessions.importAlert).toContainText(
    'at sha256: the content does not match its SHA-256: the file was changed or damaged after it was exported',
  );
  await expect(sessions.preview(tampered.name)).toHaveCount(0);
  await expect(sessions.sessionList.getByRole('article')).toHaveCount(1);
  await page.reload();
  await expect(sessions.sessionList.getByRole('article')).toHaveCount(1, { timeout: SESSION_OPEN_TIMEOUT_MS });
  await expect(sessions.session('My session')).toBeVisible();
});

test('exports gzipped, and the gzipped file imports', async ({ page }) => {
  const sessions = new SessionsPage(page);
  await sessions.open();
  const file = await downloaded(await sessions.exportFile('My session', 'Gzipped'));
  expect(file.name).toBe('my-session.anima.json.gz');
  expect([...file.buffer.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
  expect(JSON.parse(gunzipSync(file.buffer).toString('utf8'))).toMatchObject({
    format: 'anima-snapshot',
    session: { name: 'My session' },
  });

  await sessions.chooseFile(file);
  await sessions.importRegion.getByRole('textbox', { name: 'Name of the copy' }).fill('Unzipped');
  await sessions.importButton('Import as a copy').click();
  await expect(sessions.session('Unzipped')).toBeVisible();
  await sessions.expectDetail('Unzipped', 'Cycles', '0');
});

test('deletes a session after asking; deleting the open one says which opens instead, and opens it', async ({
  page,
}) => {
  const sessions = new SessionsPage(page);
  await sessions.open();
  await sessions.create('Old notes');
  await sessions.action('Old notes', 'Delete').click();
  await expect(sessions.deleteQuestion('Old notes')).toContainText('This cannot be undone');
  await sessions.deleteQuestion('Old notes').getByRole('button', { name: 'Keep it' }).click();
  await expect(sessions.action('Old notes', 'Delete')).toBeFocused();
  await sessions.action('Old notes', 'Delete').click();
  await sessions.deleteQuestion('Old notes').getByRole('button', { name: 'Delete the session' }).click();
  await expect(sessions.listStatus('Deleted “Old notes”.')).toBeVisible();
  await expect(sessions.session('Old notes')).toHaveCount(0);

  await sessions.create('Next notes');
  await sessions.action('My session', 'Delete').click();
  await expect(sessions.deleteQuestion('My session')).toContainText('It is open now: “Next notes” opens instead.');
  await sessions.deleteQuestion('My session').getByRole('button', { name: 'Delete the session' }).click();
  await expect(sessions.listStatus('Deleted “My session”. “Next notes” is open now.')).toBeVisible({
    timeout: SESSION_OPEN_TIMEOUT_MS,
  });
  await expect(sessions.openSessionName).toContainText('Next notes');
  await expect(sessions.session('Next notes').getByText('Open now')).toBeVisible();
  await expect(sessions.sessionList.getByRole('article')).toHaveCount(1);
});

test('a second tab lists the sessions read-only: it can export and check them, but not change them', async ({
  page,
  context,
}) => {
  const sessions = new SessionsPage(page);
  await sessions.open();
  const second = new SessionsPage(await context.newPage());
  await second.open();
  await expect(second.listRegion).toContainText('only that tab can change sessions');
  await expect(second.createButton).toBeDisabled();
  for (const label of ['Rename', 'Duplicate', 'Delete'] as const)
    await expect(second.action('My session', label)).toBeDisabled();
  await second.action('My session', 'Check').click();
  await expect(second.cardStatus('My session', 'Whole: no problems found.')).toBeVisible();
  const file = await downloaded(await second.exportFile('My session', 'JSON'));
  expect(file.name).toBe('my-session.anima.json');
});

test('a session name with markup, from an imported file, stays text everywhere', async ({ page }) => {
  const watch = new InjectionWatch(page);
  await watch.install();
  const sessions = new SessionsPage(page);
  await sessions.open();
  const file = await downloaded(await sessions.exportFile('My session', 'JSON'));
  const hostile = rehashed(file, 'hostile.anima.json', (document) => {
    document.session = { ...(document.session as object), id: 'hostile-session', name: MARKUP.image };
  });

  await sessions.chooseFile(hostile);
  await expect(sessions.preview(hostile.name).getByRole('definition').first()).toHaveText(MARKUP.image);
  await sessions.importButton('Import').click();
  await expect(sessions.session(MARKUP.image)).toBeVisible();
  await sessions.openSession(MARKUP.image);
  await expect(sessions.openSessionName).toContainText(MARKUP.image);
  await sessions.action(MARKUP.image, 'Delete').click();
  await expect(sessions.deleteQuestion(MARKUP.image)).toContainText('It is open now: “My session” opens instead.');
  await watch.expectNothingRan();
});

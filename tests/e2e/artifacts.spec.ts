import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.ts';
import { GoalsPage } from './page-models/goals-page.ts';
import { SessionsPage } from './page-models/sessions-page.ts';
import { downloaded, rehashed } from './snapshot-files.ts';

const GOAL = 'Draw the zoo';
/** A 1x1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** An SVG that would run a script and mark the page if it were ever rendered as a document. */
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" onload="window.svgRan = true"><script>window.svgRan = true</script><rect width="10" height="10"/></svg>`;
const BINARY = Buffer.from([0x00, 0xff, 0x50, 0x4b, 0x03, 0x04, 0x7f]);

test('artifacts of a goal: an image previewed, a binary downloaded, an SVG never rendered', async ({
  page,
  browser,
  goals,
}) => {
  // A session whose snapshot carries three artifacts of its goal (tools of MCP servers give such files).
  await goals.open();
  await goals.addGoal({ description: GOAL, criteria: 'zoo animals' });
  const sessions = new SessionsPage(page);
  await sessions.open();
  await sessions.rename('My session', 'Zoo drawings');
  const exported = await downloaded(await sessions.exportFile('Zoo drawings', 'JSON'));
  const file = rehashed(exported, 'zoo-drawings.anima.json', (document) => {
    const [goal] = document.goals as { id: number }[];
    const artifact = (id: number, name: string, kind: string, mediaType: string, base64: string) => ({
      id,
      goalId: goal!.id,
      tool: 'chart',
      cycle: 0,
      name,
      kind,
      mediaType,
      base64,
      createdAt: id,
      updatedAt: id,
    });
    document.artifacts = [
      artifact(1, 'zoo.png', 'image', 'image/png', PNG),
      artifact(2, 'zoo.svg', 'image', 'image/svg+xml', Buffer.from(SVG).toString('base64')),
      artifact(3, 'zoo.bin', 'binary', 'application/octet-stream', BINARY.toString('base64')),
    ];
  });

  // Another browser profile takes the file in.
  const elsewhere = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const there = new SessionsPage(await elsewhere.newPage());
  await there.open();
  await there.chooseFile(file);
  await there.importButton('Import').click();
  await expect(there.importStatus(/^Imported “Zoo drawings”/)).toBeVisible();
  await there.openSession('Zoo drawings');
  const thereGoals = new GoalsPage(there.page);
  await thereGoals.open();
  await thereGoals.showArtifacts(GOAL);

  // The PNG is shown as an image, from a blob URL.
  const image = thereGoals.artifactPreview(GOAL, 'zoo.png').getByRole('img', { name: 'zoo.png' });
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('src', /^blob:/);
  expect(await image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(1);

  // The SVG is offered only as a download: nothing of it is rendered, and its script never ran.
  const svg = thereGoals.artifact(GOAL, 'zoo.svg');
  await expect(svg).toContainText('Not shown here: only PNG, JPEG, GIF and WebP images are shown');
  await expect(svg.locator('img, svg, object, iframe, embed')).toHaveCount(0);
  const [svgDownload] = await Promise.all([
    there.page.waitForEvent('download'),
    thereGoals.artifactDownloadButton(GOAL, 'zoo.svg').click(),
  ]);
  expect(svgDownload.suggestedFilename()).toBe('zoo.svg');
  expect(await readFile(await svgDownload.path(), 'utf8')).toBe(SVG);
  expect(await there.page.evaluate(() => (window as { svgRan?: boolean }).svgRan)).toBeUndefined();

  // The binary file is downloaded byte for byte.
  const binary = thereGoals.artifact(GOAL, 'zoo.bin');
  await expect(binary).toContainText('Not shown here (application/octet-stream)');
  const [binaryDownload] = await Promise.all([
    there.page.waitForEvent('download'),
    thereGoals.artifactDownloadButton(GOAL, 'zoo.bin').click(),
  ]);
  expect(binaryDownload.suggestedFilename()).toBe('zoo.bin');
  expect(await readFile(await binaryDownload.path())).toEqual(BINARY);
  await elsewhere.close();
});

// Renders public/favicon.svg into the PNG app icons the web manifest names. Run by hand after
// changing the SVG: `node scripts/render-icons.mjs` (needs a Chromium, found as for the e2e tests).
import { readFile } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS, findChromium } from './find-chromium.mjs';

const svg = await readFile(new URL('../public/favicon.svg', import.meta.url), 'utf8');
const browser = await chromium.launch({ executablePath: await findChromium(), args: [...CHROMIUM_FLAGS] });
const page = await browser.newPage();
const icons = [
  { file: 'icon-192.png', size: 192, padding: 0 },
  { file: 'icon-512.png', size: 512, padding: 0 },
  // Maskable icons keep their content inside the central 80% safe zone.
  { file: 'icon-maskable-512.png', size: 512, padding: 0.1 },
];
for (const { file, size, padding } of icons) {
  await page.setViewportSize({ width: size, height: size });
  const inset = Math.round(size * padding);
  await page.setContent(
    `<body style="margin:0;background:#3b3f8f"><div style="width:${size - 2 * inset}px;height:${size - 2 * inset}px;margin:${inset}px">${svg.replace('<svg ', '<svg width="100%" height="100%" ')}</div></body>`,
  );
  await page.screenshot({
    path: new URL(`../public/icons/${file}`, import.meta.url).pathname,
    omitBackground: padding === 0,
  });
}
await browser.close();

// Prints what a first visit downloads (HTML, JS and CSS, gzipped): the files the service worker
// precaches plus the service worker itself. Fails the build when it is over the budget, so a
// heavy dependency (web-llm, say) cannot slip into the first visit unnoticed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

// Raised from 350 KB for the safety work of issue #20 (redaction, the safe JSON reader, name caps,
// strict UTF-8) and the GPU path's engine keeper; issue #21 brings it under 250 KB with lazy screens.
const BUDGET_BYTES = 365 * 1024;
const dist = new URL(`../${process.env.ANIMA_DIST ?? 'dist'}/`, import.meta.url).pathname;
const serviceWorker = readFileSync(join(dist, 'sw.js'), 'utf8');
const precached = [...serviceWorker.matchAll(/url:"([^"]+)"/g)].map((match) => match[1]);
const workboxRuntime = readdirSync(dist).filter((name) => /^workbox-.*\.js$/.test(name));
const files = [...new Set([...precached, 'sw.js', ...workboxRuntime])].filter((file) => /\.(html|js|css)$/.test(file));
const sizes = files.map((file) => ({ file, gzipBytes: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length }));
const total = sizes.reduce((sum, { gzipBytes }) => sum + gzipBytes, 0);
console.log(JSON.stringify({ firstVisitGzipBytes: total, budgetBytes: BUDGET_BYTES, files: sizes.sort((a, b) => b.gzipBytes - a.gzipBytes) }, null, 2));
console.log(`first visit: ${(total / 1024).toFixed(1)} KB gzipped of HTML/JS/CSS (budget ${BUDGET_BYTES / 1024} KB)`);
if (total > BUDGET_BYTES) {
  console.error('first visit is over budget: keep large chunks out of the precache (see STACK.md)');
  process.exit(1);
}

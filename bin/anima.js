#!/usr/bin/env node
// The CLI is built into dist-cli by `npm install` (the prepare script) or `npm run build:cli`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist-cli/anima.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('anima: the CLI is not built yet; run `npm run build:cli` in the Anima folder.\n');
  process.exit(2);
}
// A reader that stops early (`anima kg export ... | head`) is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));

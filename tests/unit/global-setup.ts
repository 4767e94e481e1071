import { build } from 'vite';

/** Builds the CLI once before the unit tests, so the test that runs `bin/anima.js` never runs a stale build. */
export default async function buildCli(): Promise<void> {
  await build({ configFile: 'vite.cli.config.ts', logLevel: 'warn' });
}

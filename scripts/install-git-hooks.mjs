import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Points git at .githooks (the commit-message check) in a working copy; a tarball or CI clone without git is left alone. */
if (existsSync('.git')) {
  const result = spawnSync('git', ['config', 'core.hooksPath', '.githooks'], { stdio: 'inherit' });
  if (result.status !== 0) console.warn('Could not set git core.hooksPath; the commit-message check is not installed.');
}

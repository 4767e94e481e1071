import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * A folder of the real public files in shared/fixtures/public, which the repository may not hold
 * (their README forbids copying them in), for the tests in `*.shared-fixtures.test.ts`. The unit
 * suite takes those files only when ANIMA_SHARED_FIXTURES names that folder (vite.config.ts),
 * as CI does (.ci/run); then a missing folder fails them: they never skip.
 */
export function sharedFixtures(subfolder: string): string {
  const root = process.env.ANIMA_SHARED_FIXTURES;
  if (!root)
    throw new Error('ANIMA_SHARED_FIXTURES is not set: it names the folder of shared/fixtures/public these tests read');
  const folder = path.resolve(root, subfolder);
  if (!existsSync(folder)) throw new Error(`ANIMA_SHARED_FIXTURES is ${root}, which has no ${subfolder}/ folder`);
  return folder;
}

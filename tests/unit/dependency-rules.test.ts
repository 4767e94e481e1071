import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The rules `npm run check` runs (.dependency-cruiser.cjs), on a tiny tree that breaks each once.
const { forbidden } = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as {
  forbidden: IFlattenedRuleSet['forbidden'];
};

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ type: 'module', imports: { '#core/*': './src/core/*' } }),
  'src/core/records/goal.ts': 'export const goal = 1;\n',
  'src/core/service/run.ts': 'export const run = 2;\n',
  // A back-arrow: kg/ sits below service/.
  'src/core/kg/graph.ts': "import { run } from '#core/service/run.ts';\nexport const graph = run;\n",
  // A cycle through type-only imports.
  'src/core/agent/first.ts': "import type { Second } from './second.ts';\nexport type First = { second?: Second };\n",
  'src/core/agent/second.ts': "import type { First } from './first.ts';\nexport type Second = { first?: First };\n",
  // A downward import, allowed by the layers, that climbs out of its area with ../../.
  'src/core/kg/import/reader.ts': "import { goal } from '../../records/goal.ts';\nexport const reader = goal;\n",
  // The same import done right: no rule may fire on it.
  'src/core/kg/clean.ts': "import { goal } from '#core/records/goal.ts';\nexport const clean = goal;\n",
};

let root: string;
let violations: { rule: string; from: string; to: string }[];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'anima-dependency-rules-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const { output } = await cruise(['src'], {
      validate: true,
      ruleSet: { forbidden },
      tsPreCompilationDeps: true,
      outputType: 'json',
    });
    const result = (typeof output === 'string' ? JSON.parse(output) : output) as ICruiseResult;
    violations = result.summary.violations.map((violation) => ({
      rule: violation.rule.name,
      from: violation.from,
      to: violation.to,
    }));
  } finally {
    process.chdir(cwd);
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the dependency rules of npm run check', () => {
  it('refuse an import from a lower area into a higher one', () => {
    expect(violations).toContainEqual({
      rule: 'layer-kg',
      from: 'src/core/kg/graph.ts',
      to: 'src/core/service/run.ts',
    });
  });

  it('refuse a cycle, even through type-only imports', () => {
    // Reported once, at the first module of the circle.
    expect(violations.filter((violation) => violation.rule === 'no-cycles')).toEqual([
      { rule: 'no-cycles', from: 'src/core/agent/first.ts', to: 'src/core/agent/second.ts' },
    ]);
  });

  it('refuse a ../../ import that leaves its area, and only that one', () => {
    expect(violations.filter((violation) => violation.rule === 'no-relative-across-areas')).toEqual([
      { rule: 'no-relative-across-areas', from: 'src/core/kg/import/reader.ts', to: 'src/core/records/goal.ts' },
    ]);
  });

  it('let the same import through when it names the area', () => {
    expect(violations.filter((violation) => violation.from === 'src/core/kg/clean.ts')).toEqual([]);
  });
});

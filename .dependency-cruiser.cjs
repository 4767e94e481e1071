/**
 * The rules that keep the core's layers (docs/architecture.md): each area imports only the areas
 * below it, nothing imports in a circle (type-only imports included), and an import that crosses
 * areas names the area (`#core/<area>/...`) instead of climbing out of its folder with `../`.
 * `npm run check` runs them; tests/unit/dependency-rules.test.ts shows each one can fail.
 */

/** The core's areas, lowest first. `base` is the files directly in src/core (api.ts aside) and toml/. */
const LAYERS = [
  'base',
  'records',
  'kg',
  'store',
  'sparql',
  'mcp',
  'psyche',
  'llm',
  'memory',
  'questions',
  'goals',
  'tools',
  'synthesis',
  'personas',
  'agent',
  'sessions',
  'api',
  'service',
  'testing',
];

/** The path pattern of an area's files. */
function areaPath(area) {
  if (area === 'base') return '^src/core/(?!api\\.ts$)[^/]+\\.ts$|^src/core/toml/';
  if (area === 'api') return '^src/core/api(\\.ts$|/)';
  return `^src/core/${area}/`;
}

/** One rule per area: it may not import any area above it. */
const layerRules = LAYERS.slice(0, -1).map((area, index) => ({
  name: `layer-${area}`,
  comment: `${area} is below ${LAYERS.slice(index + 1).join(', ')}: it may import only ${LAYERS.slice(0, index).join(', ') || 'no other area'} (docs/architecture.md)`,
  severity: 'error',
  from: { path: areaPath(area), pathNot: '\\.test\\.ts$' },
  to: {
    path: LAYERS.slice(index + 1)
      .map(areaPath)
      .join('|'),
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-cycles',
      comment: 'Modules import each other in a circle: move what both need into a lower module.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { circular: true },
    },
    {
      name: 'no-relative-across-areas',
      comment: 'An import that leaves its area names it: #core/<area>/<file>.ts, not ../<area>/<file>.ts.',
      severity: 'error',
      from: { path: '^src/core/([^/]+)/' },
      to: { dependencyTypes: ['local'], dependencyTypesNot: ['aliased'], path: '^src/core/', pathNot: '^src/core/$1/' },
    },
    {
      name: 'no-relative-out-of-base',
      comment: 'A file directly in src/core reaches an area by its name: #core/<area>/<file>.ts.',
      severity: 'error',
      from: { path: '^src/core/[^/]+\\.ts$' },
      to: { dependencyTypes: ['local'], dependencyTypesNot: ['aliased'], path: '^src/core/[^/]+/' },
    },
    {
      name: 'no-relative-into-core',
      comment: 'Code outside the core reaches it as #core/<file>.ts.',
      severity: 'error',
      from: { pathNot: '^src/core/' },
      to: { dependencyTypes: ['local'], dependencyTypesNot: ['aliased'], path: '^src/core/' },
    },
    {
      name: 'core-stays-core',
      comment:
        'The core runs in the worker and in Node: it never imports the UI, the CLI, the client or the workers (its tests may drive the CLI end to end).',
      severity: 'error',
      from: { path: '^src/core/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(ui|cli)/|^src/client\\.ts$|^workers/' },
    },
    {
      name: 'test-helpers-stay-in-tests',
      comment: 'core/testing holds helpers for tests and benches; the app does not ship them.',
      severity: 'error',
      from: { path: '^src/core/', pathNot: '^src/core/testing/|\\.test\\.ts$' },
      to: { path: '^src/core/testing/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    // Type-only imports count: a cycle through types is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.core.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.svelte'],
    },
  },
};

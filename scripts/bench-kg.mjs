/**
 * The knowledge-graph benchmark: `npm run bench:kg -- --triples N`.
 *
 * Builds bench/kg/ (vite.bench.config.ts) into dist-bench/kg/, serves it on a free local port, and
 * drives it in headless Chromium with Playwright. Each engine runs in its own browser with a fresh
 * profile (so heaps and IndexedDB never mix): Anima's core, N3.js Store, oxigraph and quadstore
 * on browser-level, all on the same deterministic graph and queries. Prints progress on stderr,
 * a table with each peer's ratio to Anima on stdout, and as the last line one JSON object:
 * {"triples":N,"results":{"anima":F,"n3":F,"oxigraph":F,"quadstore":F}}.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS, findChromium } from './find-chromium.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const OUT_DIR = join(ROOT, 'dist-bench', 'kg');
const ENGINES = ['anima', 'n3', 'oxigraph', 'quadstore'];
const PERSISTENT = new Set(['anima', 'quadstore']);
const METRICS = ['import_ms', 'reopen_ms', 'query1_ms', 'query2_ms', 'closure_ms', 'heap_bytes'];
const BENCH_CHROMIUM_FLAGS = [
  ...CHROMIUM_FLAGS,
  // Lets the page settle the heap (window.gc) before each import, reopen and query, so engines compare.
  '--js-flags=--expose-gc',
];
const USAGE = `usage: npm run bench:kg -- [options]
  --triples N        triples in the generated graph (default 1000000)
  --runs N           import and reopen runs, the median reported (default 3; quadstore 1 above 250000 triples)
  --query-runs N     timed runs of each query after one warm-up, the median reported (default 5)
  --batch N          triples per stored batch (Anima's storeGraphDelta, quadstore's multiPut; default 100000)
  --seed N           seed of the generated graph (default 42)
  --vocabulary V     how the graph says is-a: is-a (default), or rdfs (rdfs:subClassOf between classes,
                     rdf:type from instances; the closure is then RDFS's, Anima reading is-a through its vocabulary)
  --engines a,b      engines to measure (default anima,n3,oxigraph,quadstore)
  --skip-above E=N   skip engine E above N triples, e.g. quadstore=500000 (repeatable; 'none' lifts the default)
  --no-build         serve dist-bench/kg/ as it is`;

/**
 * Above these sizes an engine is skipped unless --skip-above says otherwise. quadstore on
 * browser-level writes one IndexedDB record per index key (six per triple): about 1 ms a triple
 * on a 2-core machine (100k triples: ~100 s an import run), so 1M would take ~17 min a run.
 */
const DEFAULT_SKIP_ABOVE = { quadstore: 250_000 };
/** Above these sizes an engine imports and reopens once (unless --runs is given): one run already takes minutes. */
const SINGLE_RUN_ABOVE = { quadstore: 250_000 };
const SKIP_REASONS = {
  quadstore:
    'its import runs at about 1 ms a triple here (100k triples: ~100 s), so this size would take many minutes a run',
};

const options = parseArguments(process.argv.slice(2));
const log = (line) => process.stderr.write(`${line}\n`);

const executablePath = await findChromium();
if (!executablePath) {
  log('No Chromium found. On Debian or Ubuntu: sudo apt-get install chromium; or set CHROMIUM_PATH.');
  process.exit(1);
}
if (options.build) {
  log('building bench/kg/ into dist-bench/kg/ ...');
  const built = spawnSync('npx', ['vite', 'build', '--config', 'vite.bench.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const server = await serve(OUT_DIR);
const url = `http://127.0.0.1:${server.address().port}/index.html`;
const results = {};
const notes = [];
let plan;
let browserVersion = '';
try {
  for (const engine of ENGINES) {
    if (!options.engines.includes(engine)) {
      results[engine] = { skipped: 'not in --engines' };
      continue;
    }
    const limit = options.skipAbove[engine] ?? DEFAULT_SKIP_ABOVE[engine] ?? Number.POSITIVE_INFINITY;
    if (options.triples > limit) {
      const reason = SKIP_REASONS[engine] ? `: ${SKIP_REASONS[engine]}` : '';
      results[engine] = {
        skipped: `skipped above ${limit.toLocaleString('en-US')} triples${reason} (run it with --skip-above ${engine}=N or --skip-above none)`,
      };
      log(`${engine}: ${results[engine].skipped}`);
      continue;
    }
    log(`${engine}: measuring ...`);
    const measured = await measureEngine(engine);
    results[engine] = measured;
    plan ??= measured.plan;
    log(`${engine}: done in ${formatSeconds(measured.wallMs)}`);
  }
} finally {
  server.close();
}
const failures = checkAnswers(results);
printReport(results, failures);
if (failures.length > 0) process.exitCode = 1;

/** Measures one engine in its own browser: import runs, reopen runs in fresh pages, queries, heap. */
async function measureEngine(engine) {
  const start = Date.now();
  const runs = runsFor(engine);
  const profile = await mkdtemp(join(tmpdir(), `anima-bench-${engine}-`));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: BENCH_CHROMIUM_FLAGS,
  });
  browserVersion ||= context.browser()?.version() ?? '';
  try {
    let page = await openPage(context, engine);
    const prepared = await page.evaluate((args) => window.kgBench.prepare(args), {
      triples: options.triples,
      seed: options.seed,
      vocabulary: options.vocabulary,
    });
    log(
      `${engine}: generated ${options.triples.toLocaleString('en-US')} triples in ${Math.round(prepared.generateMs)} ms (untimed)`,
    );
    const imported = await page.evaluate((args) => window.kgBench.importRuns(args), {
      engine,
      runs,
      batchSize: options.batch,
      storePrefix: `bench-${engine}`,
    });
    await page.evaluate(() => window.kgBench.releaseGenerated());
    if (!prepared.isCrossOriginIsolated)
      notes.push(`${engine}: the page was not cross-origin isolated, so its clock ticks in 0.1 ms steps.`);
    const measured = { plan: prepared.plan, importRunsMs: imported.runsMs, reopenRunsMs: null, reopenCount: null };
    if (PERSISTENT.has(engine)) {
      // A cold start: the import's page is gone; each reopen gets a new page (a new JavaScript heap).
      await page.close();
      measured.reopenRunsMs = [];
      for (let run = 0; run < runs; run++) {
        page = await openPage(context, engine);
        const reopened = await page.evaluate((args) => window.kgBench.reopen(args), {
          engine,
          storeName: imported.storeName,
          plan: prepared.plan,
        });
        measured.reopenRunsMs.push(reopened.ms);
        measured.reopenCount = reopened.count;
        log(`${engine}: reopen run ${run + 1} of ${runs}: ${Math.round(reopened.ms)} ms`);
        if (run < runs - 1) await page.close();
      }
    } else if (runs > 1) {
      // The same for an in-memory engine: queries and heap in a new page holding one import (untimed),
      // so the earlier runs' garbage and the generator's allocations are not in its heap.
      await page.close();
      log(`${engine}: a new page imports once more (untimed) for the queries and the heap`);
      page = await openPage(context, engine);
      await page.evaluate((args) => window.kgBench.prepare(args), {
        triples: options.triples,
        seed: options.seed,
        vocabulary: options.vocabulary,
      });
      await page.evaluate((args) => window.kgBench.importRuns(args), {
        engine,
        runs: 1,
        batchSize: options.batch,
        storePrefix: `bench-${engine}-held`,
      });
      await page.evaluate(() => window.kgBench.releaseGenerated());
    }
    measured.queries = await page.evaluate((args) => window.kgBench.runQueries(args), {
      engine,
      plan: prepared.plan,
      runs: options.queryRuns,
    });
    for (const [query, timings] of Object.entries(measured.queries)) {
      log(
        timings.error
          ? `${engine}: ${query} FAILED: ${timings.error}`
          : `${engine}: ${query}: ${timings.count} answers, median ${formatMs(median(timings.runsMs))} ms`,
      );
    }
    measured.heap = await measureHeap(context, page, engine);
    // After the heap: these allocate. The last import run's breakdown, then the engine's own checks.
    if (imported.details.length > 0) notes.push(imported.details[imported.details.length - 1]);
    notes.push(...(await page.evaluate((args) => window.kgBench.diagnose(args), { engine, plan: prepared.plan })));
    if (PERSISTENT.has(engine))
      await page.evaluate((args) => window.kgBench.deleteStore(args), { engine, storeName: imported.storeName });
    measured.wallMs = Date.now() - start;
    return measured;
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/** A new page on the benchmark, with its console and errors passed on (prefixed with the engine). */
async function openPage(context, engine) {
  const page = await context.newPage();
  page.on('console', (message) => log(`  [${engine} page] ${message.text()}`));
  page.on('pageerror', (error) => log(`  [${engine} page error] ${error.message}`));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset['ready'] === 'true');
  return page;
}

/**
 * The page's heap after a full garbage collection (CDP HeapProfiler.collectGarbage, then
 * Runtime.getHeapUsage): V8's used heap plus the backing stores of ArrayBuffers (typed arrays,
 * which Anima's columns are) when Chromium reports them, plus memory the engine holds outside
 * both (oxigraph's WebAssembly memory, from the module's `memory` export).
 */
async function measureHeap(context, page, engine) {
  const session = await context.newCDPSession(page);
  try {
    for (let round = 0; round < 3; round++) await session.send('HeapProfiler.collectGarbage');
    const usage = await session.send('Runtime.getHeapUsage');
    const outside = await page.evaluate((args) => window.kgBench.outsideHeapBytes(args), { engine });
    const backing = usage.backingStorageSize ?? 0;
    return {
      usedSize: usage.usedSize,
      backingStorageSize: usage.backingStorageSize ?? null,
      outsideBytes: outside,
      total: usage.usedSize + backing + outside,
    };
  } finally {
    await session.detach();
  }
}

/**
 * Every measured engine must answer every query, with the generator's counts. Returns the
 * failures (printed loudly above the JSON, and the run exits 1).
 */
function checkAnswers(measuredResults) {
  const failures = [];
  for (const [engine, measured] of Object.entries(measuredResults)) {
    if (measured.skipped) continue;
    const { expected } = measured.plan;
    for (const query of ['query1', 'query2', 'closure']) {
      const timings = measured.queries[query];
      if (timings.error) failures.push(`${engine} ${query} failed: ${timings.error}`);
      else if (timings.count !== expected[query])
        failures.push(
          `${engine} ${query}: ${timings.count} answers, expected ${expected[query]} (as the generator counts them)`,
        );
    }
    if (measured.reopenCount !== null && measured.reopenCount !== expected.query1)
      failures.push(`${engine} reopen: ${measured.reopenCount} answers to query1, expected ${expected.query1}`);
  }
  return failures;
}

/** The table (with ratios to Anima) and, as the last line, the JSON object. */
function printReport(measuredResults, failures) {
  const json = { triples: options.triples, results: {} };
  for (const engine of ENGINES) {
    const measured = measuredResults[engine];
    if (!measured || measured.skipped) {
      json.results[engine] = Object.fromEntries(METRICS.map((metric) => [metric, null]));
      continue;
    }
    const queryMs = (query) => (measured.queries[query].error ? null : round(median(measured.queries[query].runsMs)));
    json.results[engine] = {
      import_ms: round(median(measured.importRunsMs)),
      reopen_ms: measured.reopenRunsMs ? round(median(measured.reopenRunsMs)) : null,
      query1_ms: queryMs('query1'),
      query2_ms: queryMs('query2'),
      closure_ms: queryMs('closure'),
      heap_bytes: measured.heap.total,
    };
  }

  const lines = [];
  const anyPlan = plan;
  lines.push(
    `Knowledge-graph benchmark: ${options.triples.toLocaleString('en-US')} triples (${options.vocabulary === 'rdfs' ? 'rdfs:subClassOf and rdf:type' : 'is-a'}), seed ${options.seed}, Chromium ${browserVersion}`,
  );
  if (anyPlan) {
    const { shape, expected } = anyPlan;
    lines.push(
      `Graph: ${shape.classes.toLocaleString('en-US')} classes (is-a depth ${shape.depth}, ${shape.leafClasses.toLocaleString('en-US')} leaves), ` +
        `${shape.instances.toLocaleString('en-US')} instances with is-a, has-color, lives-in, weight, likes`,
    );
    lines.push(
      `query1  ?x is-a <${shortName(anyPlan.leafClass)}>                      ${expected.query1.toLocaleString('en-US')} answers`,
    );
    lines.push(
      `query2  ?x is-a ?y . ?y is-a <${shortName(anyPlan.middleClass)}>      ${expected.query2.toLocaleString('en-US')} answers`,
    );
    lines.push(
      `closure ?x is-a+ <${shortName(anyPlan.closureClass)}>                      ${expected.closure.toLocaleString('en-US')} answers`,
    );
    lines.push(
      failures.length === 0
        ? 'Every measured engine gave these counts.'
        : 'NOT every engine gave these counts: see FAILED below.',
    );
  }
  lines.push(
    `Import and reopen: ${describeRuns()}; ` +
      `queries: median of ${options.queryRuns} runs after 1 warm-up; batches of ${options.batch.toLocaleString('en-US')} triples.`,
  );
  lines.push('Ratio = peer / Anima: above 1x Anima is faster (or smaller), below 1x the peer is.');
  lines.push('');

  const columns = ENGINES;
  const header = ['', ...columns.map((engine) => engine)];
  const rows = [header];
  const labels = {
    import_ms: 'import',
    reopen_ms: 'reopen to 1st answer',
    query1_ms: 'query1 (1 pattern)',
    query2_ms: 'query2 (join)',
    closure_ms: 'closure (is-a+)',
    heap_bytes: 'heap',
  };
  for (const metric of METRICS) {
    const anima = json.results.anima[metric];
    rows.push([
      labels[metric],
      ...columns.map((engine) => {
        const measured = measuredResults[engine];
        if (!measured || measured.skipped) return 'skipped';
        const value = json.results[engine][metric];
        const query = { query1_ms: 'query1', query2_ms: 'query2', closure_ms: 'closure' }[metric];
        if (query && measured.queries[query].error) return 'FAILED';
        if (value === null) return 'n/a';
        const text = metric === 'heap_bytes' ? `${(value / 1048576).toFixed(1)} MB` : `${formatMs(value)} ms`;
        if (engine === 'anima' || anima === null || anima === 0) return text;
        return `${text} (${(value / anima).toFixed(2)}x)`;
      }),
    ]);
  }
  const widths = header.map((_, index) => Math.max(...rows.map((row) => row[index].length)));
  for (const row of rows)
    lines.push(
      row.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]) : cell.padStart(widths[index]))).join('   '),
    );
  lines.push('');
  for (const engine of ENGINES) {
    const measured = measuredResults[engine];
    if (!measured) continue;
    if (measured.skipped) {
      lines.push(`${engine}: ${measured.skipped}; its JSON fields are null.`);
      continue;
    }
    const { heap } = measured;
    const parts = [`V8 used heap ${mb(heap.usedSize)}`];
    if (heap.backingStorageSize !== null) parts.push(`ArrayBuffer backing stores ${mb(heap.backingStorageSize)}`);
    if (heap.outsideBytes > 0) parts.push(`WebAssembly memory ${mb(heap.outsideBytes)}`);
    const runs = [`import runs ${measured.importRunsMs.map((ms) => Math.round(ms)).join(', ')} ms`];
    if (measured.reopenRunsMs)
      runs.push(`reopen runs ${measured.reopenRunsMs.map((ms) => Math.round(ms)).join(', ')} ms`);
    lines.push(`${engine}: heap = ${parts.join(' + ')}; ${runs.join('; ')}.`);
  }
  lines.push(...notes);
  lines.push(
    'Heap is measured after a forced GC in the page that ran the queries: for Anima and quadstore the page that reopened the store ' +
      '(what a cold start keeps), for N3 and oxigraph a new page that imported once (untimed) and released the generated input ' +
      '(with --runs 1, the importing page itself).',
  );
  for (const failure of failures) lines.push(`FAILED: ${failure}`);
  process.stdout.write(`${lines.join('\n')}\n${JSON.stringify(json)}\n`);
}

/** A static file server for dist-bench/kg/ on a free port of 127.0.0.1 (the OS picks it; nothing else is ever tested by mistake). */
async function serve(directory) {
  const types = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.wasm': 'application/wasm',
    '.css': 'text/css',
    '.json': 'application/json',
  };
  const httpServer = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(directory, path === '/' ? 'index.html' : path);
    try {
      if (!file.startsWith(directory) || !(await stat(file)).isFile()) throw new Error('not a file');
      response.writeHead(200, {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        // Cross-origin isolation: performance.now() then ticks in microseconds, not 0.1 ms.
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-embedder-policy': 'require-corp',
      });
      createReadStream(file).pipe(response);
    } catch {
      response.writeHead(404);
      response.end('not found');
    }
  });
  await new Promise((resolveListen) => httpServer.listen(0, '127.0.0.1', resolveListen));
  return httpServer;
}

function parseArguments(argv) {
  const parsed = {
    triples: 1_000_000,
    runs: undefined,
    queryRuns: 5,
    batch: 100_000,
    seed: 42,
    vocabulary: 'is-a',
    engines: [...ENGINES],
    skipAbove: {},
    build: true,
  };
  const positiveInteger = (name, text) => {
    const value = Number(String(text).replace(/[_,]/g, ''));
    if (!Number.isInteger(value) || value < 1) fail(`${name} needs a positive whole number, got ${text}`);
    return value;
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    const equals = argument.indexOf('=');
    const flag = equals === -1 ? argument : argument.slice(0, equals);
    const inline = equals === -1 ? undefined : argument.slice(equals + 1);
    const value = () => inline ?? argv[++index] ?? fail(`${flag} needs a value`);
    switch (flag) {
      case '--triples':
        parsed.triples = positiveInteger(flag, value());
        break;
      case '--runs':
        parsed.runs = positiveInteger(flag, value());
        break;
      case '--query-runs':
        parsed.queryRuns = positiveInteger(flag, value());
        break;
      case '--batch':
        parsed.batch = positiveInteger(flag, value());
        break;
      case '--seed':
        parsed.seed = positiveInteger(flag, value());
        break;
      case '--vocabulary':
        parsed.vocabulary = value();
        if (parsed.vocabulary !== 'is-a' && parsed.vocabulary !== 'rdfs') fail('--vocabulary must be is-a or rdfs');
        break;
      case '--engines':
        parsed.engines = value()
          .split(',')
          .map((engine) => engine.trim());
        for (const engine of parsed.engines)
          if (!ENGINES.includes(engine)) fail(`unknown engine ${engine}; known: ${ENGINES.join(', ')}`);
        if (!parsed.engines.includes('anima')) fail('--engines must include anima: every ratio is to Anima');
        break;
      case '--skip-above': {
        const setting = value();
        if (setting === 'none') {
          for (const engine of ENGINES) parsed.skipAbove[engine] = Number.POSITIVE_INFINITY;
          break;
        }
        const [engine, limit] = setting.split('=');
        if (!ENGINES.includes(engine) || limit === undefined) fail(`--skip-above needs ENGINE=N, got ${setting}`);
        parsed.skipAbove[engine] = positiveInteger('--skip-above', limit);
        break;
      }
      case '--no-build':
        parsed.build = false;
        break;
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n`);
        process.exit(0);
        break;
      default:
        fail(`unknown option ${argument}`);
    }
  }
  if (parsed.triples < 200) fail('--triples must be at least 200');
  return parsed;
}

/** How many import and reopen runs an engine gets: --runs, or 3 (1 for an engine too slow at this size). */
function runsFor(engine) {
  if (options.runs !== undefined) return options.runs;
  return options.triples > (SINGLE_RUN_ABOVE[engine] ?? Number.POSITIVE_INFINITY) ? 1 : 3;
}

/** "median of 3 runs", with the engines that ran once named (a single run is no median). */
function describeRuns() {
  const measured = ENGINES.filter((engine) => results[engine] && !results[engine].skipped);
  const single = measured.filter((engine) => runsFor(engine) === 1);
  const several = measured.filter((engine) => runsFor(engine) > 1);
  const parts = [];
  if (several.length > 0)
    parts.push(`median of ${runsFor(several[0])} runs${single.length > 0 ? ` (${several.join(', ')})` : ''}`);
  if (single.length > 0) parts.push(`a single run, not a median (${single.join(', ')})`);
  return parts.join('; ');
}

function fail(message) {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function round(value) {
  return Math.round(value * 100) / 100;
}

function formatMs(value) {
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(2);
}

function formatSeconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function mb(bytes) {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

function shortName(iri) {
  return iri.slice(iri.lastIndexOf('/') + 1);
}

import type { Browser, TestInfo } from '@playwright/test';
import { createRandom } from '../../bench/kg/generate-graph.ts';
import { soakSeed } from '../../scripts/soak-seed.mjs';
import { crashProblems, type KilledOperation, resumeProblems, whatSurvived } from './crash-check.ts';
import { SoakPage } from './fixtures.ts';
import type { Settled } from './harness.ts';

/** How the agent dies: its worker terminated (a crash), or its page reloaded (the tab closing under it). */
export type KillKind = 'terminate' | 'reload';

/** One kill: where it landed, how, and what it broke (the report's rows; scripts/run-soak.mjs counts them). */
export type KillRecord = {
  round: number;
  operation: KilledOperation['kind'];
  kill: KillKind;
  delayMs: number;
  isInFlight: boolean;
  survived: string;
  roundMs: number;
  problems: string[];
};

/** The name of the report attachment each soak test leaves (its seed and kills). */
export const KILL_REPORT = 'soak-kills';

/** The seed of this soak: the same every run, SOAK_SEED=S to replay S (scripts/run-soak.mjs prints it). */
export const SOAK_SEED = soakSeed(process.env.SOAK_SEED);

/** A `sinceCycle` past every cycle: the state without cycle records. */
const WITHOUT_CYCLE_RECORDS = Number.MAX_SAFE_INTEGER;
/** A kill lands within this many times the time the operation took last when it ended first: mostly in flight, sometimes just after. */
const KILL_WINDOW = 1.25;
/** No kill waits longer: a run that never ends on its own would otherwise be let run longer and longer. */
const MAX_KILL_DELAY_MS = 2_000;

/** The triples of the starter graph: a first start in a browser context of its own, with no kill. */
export async function starterTriplesIn(browser: Browser): Promise<number> {
  const context = await browser.newContext();
  try {
    const soak = new SoakPage(await context.newPage());
    await soak.load();
    return (await soak.call.open()).triples;
  } finally {
    await context.close();
  }
}

/**
 * Rounds of: begin an operation, kill the agent at a random moment in it, start a fresh worker,
 * check what survived (crash-check.ts), and run one more cycle. Choices come from the seed.
 */
export class KillRounds {
  readonly records: KillRecord[] = [];
  readonly random: () => number;
  /** About how long each operation takes per unit of its size (a triple, a KB), learnt from the ones that ended before their kill. */
  readonly #msPerUnit: Record<KilledOperation['kind'], number> = {
    open: 400,
    run: 1500,
    reflect: 60,
    'kg-import': 0.05,
    'document-import': 0.5,
    'psyche-import': 40,
  };
  /** Problems already reported: one that stays is told once, at the round that found it. */
  readonly #reported = new Set<string>();

  constructor(
    readonly soak: SoakPage,
    readonly seed: number,
    readonly options: { reflectionInterval: number; stream: number; starterTriples?: number },
  ) {
    // Each test draws from a stream of its own, so that one can be run alone and draw the same.
    this.random = createRandom((seed + options.stream) >>> 0);
  }

  /** A whole number from `minimum` to `maximum`, both included. */
  between(minimum: number, maximum: number): number {
    return minimum + Math.floor(this.random() * (maximum - minimum + 1));
  }

  /** Begins the operation, kills the agent in it, and checks the session a fresh worker opens. */
  async killDuring(kind: KilledOperation['kind']): Promise<void> {
    const round = this.records.length + 1;
    const startedAt = performance.now();
    const tag = `r${round}`;
    const { soak } = this;
    // Only the very first start has no session to compare with.
    const before = kind === 'open' && round === 1 ? undefined : await soak.call.state(WITHOUT_CYCLE_RECORDS, false);
    if (kind === 'open') await soak.call.close();
    const killed = this.#plan(kind, tag);
    await soak.call.begin(kind, {
      tag,
      ...(killed.kind === 'kg-import' ? { triples: killed.triples } : {}),
      ...(killed.kind === 'document-import' ? { kilobytes: killed.kilobytes } : {}),
      ...(killed.kind === 'psyche-import' ? { sage: killed.sage } : {}),
    });
    const size =
      killed.kind === 'kg-import' ? killed.triples : killed.kind === 'document-import' ? killed.kilobytes : 1;
    const kill: KillKind = this.random() < 0.5 ? 'terminate' : 'reload';
    const delayMs = Math.round(this.random() * Math.min(MAX_KILL_DELAY_MS, this.#msPerUnit[kind] * size * KILL_WINDOW));
    const settled =
      kill === 'terminate' ? (await soak.call.terminateAfter(delayMs)).settled : await this.#reloadAfter(delayMs);
    // Half the last measure, half the ones before (sizes and the machine's load vary); one still
    // running may take longer than thought: the next kill may come later, so that kills spread over
    // the whole operation rather than bunch at its start.
    this.#msPerUnit[kind] = settled
      ? (this.#msPerUnit[kind] + settled.afterMs / size) / 2
      : this.#msPerUnit[kind] * 1.2;

    const opened = await soak.call.open();
    const problems = opened.canWrite ? [] : ['the fresh worker did not get the right to write'];
    if (settled?.failure !== undefined)
      problems.push(`the ${kind} failed before the kill, on its own: ${settled.failure}`);
    const after = await soak.call.state(before?.cycle ?? 0, true);
    const lastReportedCycle = await soak.call.lastReportedCycle();
    problems.push(
      ...crashProblems(killed, before, after, {
        lastReportedCycle,
        reflectionInterval: this.options.reflectionInterval,
      }),
    );
    await soak.call.keepBusy(tag);
    problems.push(...resumeProblems(after, await soak.call.runOneCycle()));
    const survived = whatSurvived(killed, before, after, lastReportedCycle);
    const found = problems.filter((problem) => !this.#reported.has(problem));
    for (const problem of found) this.#reported.add(problem);
    this.records.push({
      round,
      operation: kind,
      kill,
      delayMs,
      isInFlight: settled === undefined,
      survived,
      roundMs: Math.round(performance.now() - startedAt),
      problems: found,
    });
  }

  /** Every problem found, each with its round, operation and kill: what to replay. */
  problems(): string[] {
    return this.records.flatMap((record) =>
      record.problems.map(
        (problem) =>
          `round ${record.round} (${record.operation}, ${record.kill} after ${record.delayMs} ms): ${problem}`,
      ),
    );
  }

  /** Leaves the kills in the test's report (and a line in its output). */
  async report(testInfo: TestInfo): Promise<void> {
    await testInfo.attach(KILL_REPORT, {
      contentType: 'application/json',
      body: JSON.stringify({ seed: this.seed, kills: this.records }),
    });
    const count = (predicate: (record: KillRecord) => boolean) => this.records.filter(predicate).length;
    console.log(
      `soak "${testInfo.title}": ${this.records.length} kills (${count((record) => record.kill === 'terminate')} terminated, ${count((record) => record.kill === 'reload')} reloaded; ` +
        `${count((record) => record.isInFlight)} in flight), ${this.problems().length} problems, seed ${this.seed}`,
    );
  }

  #plan(kind: KilledOperation['kind'], tag: string): KilledOperation {
    if (kind === 'open') {
      if (this.options.starterTriples === undefined)
        throw new Error('give starterTriples to kill during a first start');
      return { kind, starterTriples: this.options.starterTriples };
    }
    if (kind === 'kg-import') return { kind, triples: this.between(1_000, 6_000) };
    if (kind === 'document-import') return { kind, kilobytes: this.between(32, 512) };
    // The harness names the file after the round's tag.
    if (kind === 'psyche-import') return { kind, fileName: `${tag}.toml`, sage: this.between(1, 99) / 100 };
    return { kind };
  }

  /** Reloads the page `delayMs` after the operation began: says how it ended if it had by then. */
  async #reloadAfter(delayMs: number): Promise<Settled | undefined> {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const settled = await this.soak.call.settled();
    await this.soak.reload();
    return settled;
  }
}

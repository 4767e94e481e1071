import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The shared harness of the fuzz tests (`*.fuzz.test.ts`): seeded cases, so a failure repeats;
 * a quick count inside `npm test` and the full count in `npm run test:fuzz` (ANIMA_FUZZ_CASES);
 * and a count per file kind written to reports/fuzz/, which scripts/run-fuzz.mjs prints.
 */

export type Random = () => number;

/** mulberry32: a tiny seeded generator, so every run tries the same cases and a failure repeats. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

export const below = (random: Random, count: number): number => Math.floor(random() * count);
export const pick = <T>(random: Random, choices: readonly T[]): T => choices[below(random, choices.length)]!;

/** Cases per file kind: 1,000 inside `npm test`, ANIMA_FUZZ_CASES (10,000 in `npm run test:fuzz`) when set. */
export function fuzzCaseCount(): number {
  const asked = Number(process.env.ANIMA_FUZZ_CASES);
  return Number.isInteger(asked) && asked > 0 ? asked : 1_000;
}

/** Characters that break readers: controls, lone surrogates, zero-width and line separators, BOM, wide text. */
export const ODD_CHARACTERS = [
  '\u0000',
  '\u0001',
  '\u007f',
  '\uFFFD',
  '\uD800',
  '\uDC00',
  '\u200B',
  '\u2028',
  '\uFEFF',
  'é',
  '導',
  '😀',
  '\r',
  '\t',
  '—',
];

/** One random edit of a text: a cut, a deletion, a repeat, an odd character in, a slice swapped. */
export function mutateText(random: Random, text: string, alphabet: readonly string[]): string {
  const at = () => below(random, text.length + 1);
  switch (below(random, 6)) {
    case 0:
      return text.slice(0, at());
    case 1: {
      const start = at();
      return text.slice(0, start) + text.slice(start + 1 + below(random, 20));
    }
    case 2: {
      const start = at();
      const piece = text.slice(start, start + below(random, 40));
      return text.slice(0, start) + piece + piece + text.slice(start + piece.length);
    }
    case 3: {
      const position = at();
      return text.slice(0, position) + pick(random, ODD_CHARACTERS) + text.slice(position);
    }
    case 4: {
      const position = at();
      return text.slice(0, position) + pick(random, alphabet) + text.slice(position + 1);
    }
    default: {
      const [first, second] = [at(), at()].sort((a, b) => a - b) as [number, number];
      return text.slice(0, first) + text.slice(second) + text.slice(first, second);
    }
  }
}

/** One random edit of bytes: a cut, a flipped byte, bytes inserted or removed. */
export function mutateBytes(random: Random, bytes: Uint8Array): Uint8Array {
  const at = () => below(random, bytes.length + 1);
  switch (below(random, 4)) {
    case 0:
      return bytes.slice(0, at());
    case 1: {
      const copy = bytes.slice();
      if (copy.length > 0) copy[below(random, copy.length)] = below(random, 256);
      return copy;
    }
    case 2: {
      const position = at();
      const inserted = Uint8Array.from({ length: 1 + below(random, 8) }, () => below(random, 256));
      const result = new Uint8Array(bytes.length + inserted.length);
      result.set(bytes.subarray(0, position));
      result.set(inserted, position);
      result.set(bytes.subarray(position), position + inserted.length);
      return result;
    }
    default: {
      const start = at();
      const end = Math.min(bytes.length, start + 1 + below(random, 16));
      const result = new Uint8Array(bytes.length - (end - start));
      result.set(bytes.subarray(0, start));
      result.set(bytes.subarray(end), start);
      return result;
    }
  }
}

/** Why a refusal's text is not the one sentence a user should get, or undefined when it is. */
export function refusalProblem(message: unknown): string | undefined {
  if (typeof message !== 'string' || message.trim() === '') return 'a refusal without a message';
  if (/\n\s+at /.test(message) || /\bat .+:\d+:\d+\)?$/m.test(message)) return 'a stack trace in the message';
  if (/^(?:Uncaught )?(?:Type|Range|Syntax|Reference|Internal)?Error\b|unexpected error/i.test(message))
    return 'a raw JavaScript error as the message';
  if (message.length > 1_000) return `a message of ${message.length} characters (input echoed whole?)`;
  return undefined;
}

export interface FuzzOutcome {
  /** What the reader said: accepted the input, or refused it with this message. */
  readonly refused?: string;
}

export interface FuzzKind<Case> {
  /** The file kind, as the report names it: "psyche.toml", "snapshot", "N-Triples"... */
  readonly kind: string;
  readonly seed: number;
  readonly cases?: number;
  readonly generate: (random: Random, index: number) => Case;
  /** Reads one case; throws only on a defect (a crash); returns the refusal's text when refused. */
  readonly read: (input: Case, random: Random) => FuzzOutcome | Promise<FuzzOutcome>;
  /** Extra checks on an accepted case (reads back the same, nothing partial): a problem in words. */
  readonly checkAccepted?: (input: Case, random: Random) => string | undefined | Promise<string | undefined>;
  readonly describe?: (input: Case) => string;
}

export interface FuzzReport {
  readonly kind: string;
  readonly cases: number;
  readonly accepted: number;
  readonly refused: number;
  readonly failures: readonly string[];
}

/**
 * Runs a kind's cases: no case may throw, every refusal must be a sentence (refusalProblem), and
 * accepted cases pass checkAccepted. Stops collecting after five failures, so one defect reports briefly.
 */
export async function runFuzzKind<Case>(spec: FuzzKind<Case>): Promise<FuzzReport> {
  const cases = spec.cases ?? fuzzCaseCount();
  const random = seededRandom(spec.seed);
  const describe =
    spec.describe ?? ((input: Case) => (typeof input === 'string' ? JSON.stringify(input) : String(input)));
  const failures: string[] = [];
  let accepted = 0;
  let refused = 0;
  let ran = 0;
  for (let index = 0; index < cases && failures.length < 5; index++, ran++) {
    const input = spec.generate(random, index);
    const fail = (why: string) =>
      failures.push(`${spec.kind} case ${index} (seed ${spec.seed}): ${why}\n${describe(input).slice(0, 600)}`);
    try {
      const outcome = await spec.read(input, random);
      if (outcome.refused !== undefined) {
        refused++;
        const problem = refusalProblem(outcome.refused);
        if (problem) fail(`${problem}: ${String(outcome.refused).slice(0, 300)}`);
        continue;
      }
      accepted++;
      const problem = await spec.checkAccepted?.(input, random);
      if (problem) fail(problem);
    } catch (error) {
      fail(`threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  const report = { kind: spec.kind, cases: ran, accepted, refused, failures };
  writeFuzzReport(report);
  return report;
}

function writeFuzzReport(report: FuzzReport): void {
  const folder = join(process.cwd(), 'reports', 'fuzz');
  mkdirSync(folder, { recursive: true });
  const file = report.kind.replace(/[^A-Za-z0-9._-]+/g, '_');
  writeFileSync(join(folder, `${file}.json`), JSON.stringify(report));
}

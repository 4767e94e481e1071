import type { AgentApi } from '#core/api.ts';
import { createAgentClient, startAgentWorker } from '../../src/client.ts';
import { describeProblem } from '#core/result.ts';

/**
 * The page the soak tests drive: the app's own agent worker (the real service over this origin's
 * IndexedDB, holding the writer's Web Lock) behind the app's client. A test starts an operation,
 * kills the worker (or reloads this page) at a random moment, starts a fresh worker and reads back
 * what survived. Everything returned is plain data.
 */

/** The operations a kill can land in. */
export type SoakOperation = 'open' | 'run' | 'kg-import' | 'document-import' | 'psyche-import' | 'reflect';

/** The writer's Web Lock (workers/write-access.ts): a new worker writes only once the killed one let go of it. */
const WRITER_LOCK = 'anima-session-writer';
/** Where the last cycle whose progress report reached this page is kept: a reload must not forget it. */
const LAST_REPORTED_KEY = 'soak:last-reported-cycle';
const LOCK_RELEASE_TIMEOUT_MS = 15_000;
/** The most reflections the service lists at once. */
const REFLECTION_LIST_LIMIT = 1000;

/** How an operation ended: after how long, and why it failed if it did (on its own, not by a kill). */
export type Settled = { afterMs: number; failure?: string };

type Pending = { operation: SoakOperation; startedAt: number; settled?: Settled };

let worker: Worker | undefined;
let client: AgentApi | undefined;
let sessionId: string | undefined;
let pending: Pending | undefined;
let operationCount = 0;

function agent(): AgentApi {
  if (!client) throw new Error('no agent worker: call soak.open first');
  return client;
}

function openSession(): string {
  if (!sessionId) throw new Error('no session open: call soak.open first');
  return sessionId;
}

const delay = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** Waits until no worker (of this page or of the page before a reload) holds the writer's lock. */
async function writerLockReleased(): Promise<void> {
  const deadline = performance.now() + LOCK_RELEASE_TIMEOUT_MS;
  for (;;) {
    const { held = [] } = await navigator.locks.query();
    if (!held.some((lock) => lock.name === WRITER_LOCK)) return;
    if (performance.now() > deadline)
      throw new Error(`the writer's lock was still held ${LOCK_RELEASE_TIMEOUT_MS} ms after its worker was killed`);
    await delay(20);
  }
}

function reportCycle(cycle: number): void {
  localStorage.setItem(LAST_REPORTED_KEY, String(cycle));
}

/** Why an operation's result says it failed: `ok: false` with its problems, or an open that cannot write. */
function failureOf(outcome: unknown): string | undefined {
  if (typeof outcome !== 'object' || outcome === null) return undefined;
  if ('ok' in outcome && outcome.ok === false)
    return 'problems' in outcome ? JSON.stringify(outcome.problems) : 'not ok';
  if ('canWrite' in outcome && outcome.canWrite === false) return 'opened without the right to write';
  return undefined;
}

/** Runs an operation without waiting for it: a kill cuts it short, or it settles first. */
function track(operation: SoakOperation, work: () => Promise<unknown>): void {
  const started: Pending = { operation, startedAt: performance.now() };
  const settle = (failure: string | undefined) => {
    started.settled = { afterMs: performance.now() - started.startedAt, ...(failure !== undefined ? { failure } : {}) };
  };
  void work().then(
    (outcome) => settle(failureOf(outcome)),
    (error: unknown) => settle(error instanceof Error ? error.message : String(error)),
  );
  pending = started;
}

async function startAndOpen() {
  await writerLockReleased();
  worker = startAgentWorker();
  client = createAgentClient(worker);
  const opened = await client.open({});
  sessionId = opened.session.id;
  return { canWrite: opened.canWrite, triples: opened.stats.triples };
}

/** An N-Triples file of `count` triples, every one new: subjects carry the tag, objects link back into the file. */
function nTriples(tag: string, count: number): string {
  const lines: string[] = [];
  for (let index = 0; index < count; index++)
    lines.push(
      `<http://soak.test/${tag}/e${index}> <http://soak.test/rel${index % 5}> <http://soak.test/${tag}/e${(index * 7919) % count}> .`,
    );
  return `${lines.join('\n')}\n`;
}

/** A plain-text document of about `kilobytes` KB, of sentences a cycle can read facts from. */
function documentText(tag: string, kilobytes: number): string {
  const sentences: string[] = [];
  let size = 0;
  for (let index = 0; size < kilobytes * 1024; index++) {
    const sentence = `Soak${tag}x${index} is a planet. Soak${tag}x${index} orbits Soak${tag}star.`;
    sentences.push(sentence);
    size += sentence.length + 1;
  }
  return sentences.join('\n');
}

const soak = {
  /** Starts a fresh agent worker (once the killed one's lock is gone) and opens the active session. */
  open: startAndOpen,

  /** Stops the agent worker between operations (none in flight), so that the next `open` starts afresh. */
  close(): void {
    if (pending && !pending.settled) throw new Error(`a ${pending.operation} is in flight: kill it instead`);
    worker?.terminate();
    worker = undefined;
    client = undefined;
  },

  /** Starts one of the operations a kill lands in, without waiting for it. */
  begin(operation: SoakOperation, options: { tag: string; triples?: number; kilobytes?: number; sage?: number }): void {
    const { tag } = options;
    if (operation === 'open') {
      if (worker) throw new Error('an agent worker is running: close it before opening again');
      return track('open', startAndOpen);
    }
    const session = openSession();
    const api = agent();
    if (operation === 'run')
      return track('run', () =>
        api.agentRun({ sessionId: session, operationId: `run-${tag}`, maxCycles: 100_000 }, (record) =>
          reportCycle(record.cycle),
        ),
      );
    if (operation === 'kg-import')
      return track('kg-import', () =>
        api.kgImport({
          sessionId: session,
          operationId: `import-${tag}`,
          fileName: `${tag}.nt`,
          format: 'n-triples',
          data: nTriples(tag, options.triples ?? 1000),
        }),
      );
    if (operation === 'document-import')
      return track('document-import', () =>
        api.documentImport({
          sessionId: session,
          fileName: `${tag}.txt`,
          text: documentText(tag, options.kilobytes ?? 64),
        }),
      );
    if (operation === 'psyche-import')
      return track('psyche-import', () =>
        api.psycheImport({
          sessionId: session,
          fileName: `${tag}.toml`,
          toml: `[archetypes]\nsage = ${options.sage ?? 0.5}\n`,
        }),
      );
    return track('reflect', () => api.reflect({ sessionId: session }));
  },

  /** How the operation begun last ended, if it has. */
  settled: (): Settled | undefined => pending?.settled,

  /** Kills the agent worker `milliseconds` after the operation began, as a crash would: says how the operation ended if it had by then. */
  async terminateAfter(milliseconds: number): Promise<{ settled?: Settled }> {
    await delay(milliseconds - (performance.now() - (pending?.startedAt ?? performance.now())));
    const settled = pending?.settled;
    worker?.terminate();
    worker = undefined;
    client = undefined;
    // An operation cut off this way never settles: nothing waits for it any more.
    pending = undefined;
    return settled ? { settled } : {};
  },

  /** The last cycle whose progress report reached this page (across reloads). */
  lastReportedCycle: () => Number(localStorage.getItem(LAST_REPORTED_KEY) ?? 0),

  /** Sets how often the agent reflects (and its psyche evolves). */
  async setReflectionInterval(reflectionInterval: number): Promise<void> {
    const session = openSession();
    const settings = await agent().agentSettingsGet({ sessionId: session });
    const changed = await agent().agentSettingsSet({
      sessionId: session,
      settings: { ...settings, reflectionInterval },
    });
    if (!changed.ok) throw new Error(changed.problems.map((problem) => problem.message).join('; '));
  },

  /**
   * Keeps the agent busy: answers the questions it asked (with a fact, so its goal goes on), gives
   * it a document to read when it has read them all (a cycle that stores hundreds of facts), and
   * goals more than the graph and the documents can answer while fewer than two are active.
   */
  async keepBusy(tag: string): Promise<void> {
    const session = openSession();
    const api = agent();
    const { documents } = await api.documentList({ sessionId: session });
    if (documents.every((document) => document.ingestedAt !== undefined)) {
      const imported = await api.documentImport({
        sessionId: session,
        fileName: `${tag}-planets.txt`,
        text: documentText(tag, 16),
      });
      if (!imported.ok) throw new Error(imported.problems.map((problem) => problem.message).join('; '));
    }
    const { questions } = await api.questionList({ sessionId: session });
    for (const question of questions.filter((asked) => asked.status === 'pending')) {
      const answered = await api.questionAnswer({
        sessionId: session,
        questionId: question.id,
        facts: `soak${tag}q${question.id}, is-a, planet`,
      });
      if (!answered.ok) throw new Error(answered.problems.map((problem) => problem.message).join('; '));
    }
    const { goals } = await api.goalList({ sessionId: session, findingsLimit: 0 });
    if (goals.filter((goal) => goal.status === 'active').length >= 2) return;
    const unanswerable = [
      { description: `Find planets (${tag})`, criteria: '?x is-a planet, at least 100000' },
      { description: `Find animals (${tag})`, criteria: '?x is-a Animal, at least 100000' },
      { description: `Learn about volcanoes (${tag})`, criteria: `volcano crater lava soak${tag}` },
    ];
    for (const goal of unanswerable) {
      const added = await api.goalAdd({ sessionId: session, ...goal });
      if (!added.ok) throw new Error(added.problems.map((problem) => problem.message).join('; '));
    }
  },

  /**
   * What a crash must leave whole, read through the service: `sinceCycle` picks the cycle records
   * to return; `isChecked` runs the session check too (it reads the whole session: the slow part).
   */
  async state(sinceCycle: number, isChecked: boolean) {
    const session = openSession();
    const api = agent();
    const [{ sessions }, stats, { documents }, { versions }, current, { reflections }, { problems }] =
      await Promise.all([
        api.sessionList({}),
        api.kgStats({ sessionId: session }),
        api.documentList({ sessionId: session }),
        api.psycheHistory({ sessionId: session }),
        api.psycheGet({ sessionId: session }),
        api.reflectionList({ sessionId: session, limit: REFLECTION_LIST_LIMIT }),
        isChecked ? api.sessionCheck({ sessionId: session }) : { problems: [] },
      ]);
    const cycle = sessions.find((view) => view.id === session)?.cycle ?? -1;
    // The list is the newest reflections: when it is full, the oldest cycle in it may have lost some.
    const reflectionsFrom = reflections.length === REFLECTION_LIST_LIMIT ? reflections.at(-1)!.cycle + 1 : 0;
    const newCycles =
      cycle > sinceCycle
        ? (await api.cycleList({ sessionId: session, limit: Math.min(1000, cycle - sinceCycle) })).cycles
        : [];
    return {
      cycle,
      triples: stats.triples,
      documents: documents.length,
      psycheVersions: versions.map(({ version, cycle: at, reason }) => ({ version, cycle: at, reason })),
      currentPsyche: { version: current.version, sage: current.psyche.archetypes.sage },
      /** Every reflection at this cycle or later is in `reflections`. */
      reflectionsFrom,
      reflections: reflections
        .filter((reflection) => reflection.cycle >= reflectionsFrom)
        .map(({ cycle: at, trigger, psycheVersion }) => ({
          cycle: at,
          trigger,
          ...(psycheVersion !== undefined ? { psycheVersion } : {}),
        })),
      newCycles: newCycles.map(({ cycle: at, tool }) => ({ cycle: at, tool })),
      problems: problems.map(describeProblem),
    };
  },

  /** Runs one more cycle, waiting for it: the number it committed and the one its progress report gave. */
  async runOneCycle() {
    const reported: number[] = [];
    const result = await agent().agentRun(
      { sessionId: openSession(), operationId: `resume-${++operationCount}`, maxCycles: 1 },
      (record) => {
        reported.push(record.cycle);
        reportCycle(record.cycle);
      },
    );
    return { result, reported };
  },
};

/** What the tests call, on `window.soak`. */
export type SoakHarness = typeof soak;

declare global {
  interface Window {
    soak: SoakHarness;
  }
}

window.soak = soak;

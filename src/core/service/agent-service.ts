import type { AgentServiceImplementation } from '#core/api.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import { factOf, goalViewOf, keptFindings, refOf } from './views.ts';
import { selectFindings } from './findings-query.ts';
import { recallEpisodes } from '#core/memory/episodes.ts';
import { DEFAULT_STALL_THRESHOLD, parseCriteria } from '#core/goals/goal.ts';
import { type ChosenSymbol, type Goal, hasGoalEnded } from '#core/records/goal.ts';
import { consolidateMemory } from '#core/agent/cycle-memory.ts';
import { CycleCancelled, runCycle } from '#core/agent/run-cycle.ts';
import { settleCancellation } from '#core/agent/settle-goal.ts';
import { bindRunModel } from './inference-service.ts';
import { bindSessionEmbedder } from './embedder-service.ts';
import { hasUndoneJobs, releaseOrphanedWaits, runBackgroundJobs } from './background-jobs.ts';
import { isQuotaExceeded } from '#core/store/quota.ts';
import type { SpentLimit } from '#core/llm/usage-budget.ts';
import { memoryPressure } from '#core/memory/working-memory.ts';
import { loadQuestionAnswering } from '#core/questions/load-question-answering.ts';
import { settingsOfSession } from '#core/records/agent-settings.ts';
import { yieldToEvents } from '#core/kg/slice.ts';

type AgentMethods =
  | 'goalAdd'
  | 'goalList'
  | 'goalFindings'
  | 'goalUpdate'
  | 'agentRun'
  | 'cycleList'
  | 'memoryConsolidate'
  | 'memoryList'
  | 'memoryRecall';

/** The agent's slice of the AgentService: goals, cycles, memory. */
export function agentService(context: ServiceContext): Pick<AgentServiceImplementation, AgentMethods> {
  const {
    db,
    now,
    graphs,
    graphOf,
    sessionOf,
    exclusively,
    canWrite,
    operations,
    similarityOf,
    invalidateSimilarity,
    documentsOf,
    forgetDocuments,
  } = context;
  return {
    async goalAdd({ sessionId, description: text, criteria, priority, chosenSymbols }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const description = text.trim();
      if (description === '') return { ok: false, problems: [{ path: 'description', message: 'describe the goal' }] };
      const parsed = parseCriteria(criteria, description);
      if (!parsed.ok) return { ok: false, problems: parsed.error };
      const graph = await graphOf(sessionId);
      // A question the graph cannot even read (no words, another script), or a symbol chosen that
      // the graph lacks, is refused before anything is stored.
      let chosen: ChosenSymbol[] = [];
      if (parsed.value.kind === 'question') {
        const questions = await loadQuestionAnswering();
        const checked = questions.chosenSymbolsOf(graph, parsed.value.question, chosenSymbols);
        if (!checked.ok) return { ok: false, problems: checked.error };
        chosen = checked.value;
        const reading = questions.read(graph, parsed.value.question, chosen);
        if (!reading.ok)
          return { ok: false, problems: reading.error.map((problem) => ({ ...problem, path: 'description' })) };
      } else if (chosenSymbols.length > 0)
        return {
          ok: false,
          problems: [
            {
              path: 'chosenSymbols',
              message: 'only a goal that asks a question reads its words as symbols; this one has criteria of its own',
            },
          ],
        };
      const goal: Goal = {
        sessionId,
        description,
        successCriteria: criteria,
        priority,
        status: 'active',
        cyclesWorked: 0,
        lastProgressCycle: 0,
        stallThreshold: DEFAULT_STALL_THRESHOLD,
        findings: [],
        toolsUsed: [],
        ...(chosen.length > 0 ? { chosenSymbols: chosen } : {}),
        createdAt: now(),
      };
      const id = await exclusively(() => db.goals.add(goal));
      return { ok: true, goal: goalViewOf(graph, { ...goal, id: id as number }) };
    },

    async goalList({ sessionId, findingsLimit }) {
      const graph = await graphOf(sessionId);
      const goals = await db.goals.where('sessionId').equals(sessionId).sortBy('id');
      return { goals: goals.map((goal) => goalViewOf(graph, goal, findingsLimit)) };
    },

    async goalFindings({ sessionId, goalId, sort, filter, offset, limit }) {
      const graph = await graphOf(sessionId);
      const goal = await db.goals.get(goalId);
      if (!goal || goal.sessionId !== sessionId)
        return { ok: false, problems: [{ path: 'goalId', message: `there is no goal ${goalId} in this session` }] };
      const facts = keptFindings(graph, goal).map((triple) => factOf(graph, triple));
      const provenanceIds = [...new Set(facts.flatMap((fact) => fact.provenanceId ?? []))];
      const records = await db.provenance.bulkGet(provenanceIds);
      const kinds = new Map(records.flatMap((record) => (record?.id !== undefined ? [[record.id, record.kind]] : [])));
      const findings = facts.map((fact) => {
        const source = fact.provenanceId === undefined ? undefined : kinds.get(fact.provenanceId);
        return source === undefined ? fact : { ...fact, source };
      });
      const selected = selectFindings(findings, sort, filter);
      return {
        ok: true,
        findings: selected.slice(offset, offset + limit),
        matching: selected.length,
        total: findings.length,
      };
    },

    async goalUpdate({ sessionId, goalId, priority, status }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const graph = await graphOf(sessionId);
      return exclusively(async () => {
        const goal = await db.goals.get(goalId);
        if (!goal || goal.sessionId !== sessionId)
          return { ok: false, problems: [{ message: `there is no goal ${goalId}` }] };
        if (status !== undefined && hasGoalEnded(goal.status))
          return {
            ok: false,
            problems: [{ message: `goal ${goalId} has ended (${goal.status}); add a new goal instead` }],
          };
        if (goal.status === 'waiting' && status !== undefined && status !== 'failed')
          return {
            ok: false,
            problems: [
              {
                message: `goal ${goalId} waits for your answer (${goal.statusReason ?? 'an approval or a question'}); answer it on the Approvals screen, or cancel the goal`,
              },
            ],
          };
        const reasons = {
          active: 'resumed by the user',
          suspended: 'suspended by the user',
          failed: 'cancelled by the user',
        } as const;
        const updated: Goal = {
          ...goal,
          ...(priority !== undefined ? { priority } : {}),
          // Resuming restarts the stall count, so a resumed goal is not split at once.
          ...(status !== undefined
            ? {
                status,
                statusReason: reasons[status],
                ...(status === 'active' ? { lastProgressCycle: goal.cyclesWorked } : {}),
              }
            : {}),
        };
        const { cycle } = await sessionOf(sessionId);
        await db.transaction(
          'rw',
          [db.goals, db.approvals, db.questions, db.plans, db.provenance, db.psyches, db.workingMemory, db.episodes],
          async () => {
            await db.goals.put(updated);
            if (status === 'failed')
              await settleCancellation({ db, sessionId, cycle, startedAt: now(), graph }, updated);
          },
        );
        return { ok: true, goal: goalViewOf(graph, updated) };
      });
    },

    async agentRun({ sessionId, operationId, maxCycles, inference, endpoints }, onProgress) {
      if (!canWrite()) return { ok: false, reason: 'read-only', problems: [{ message: READ_ONLY_MESSAGE }] };
      const controller = new AbortController();
      operations.set(operationId, controller);
      let cyclesRun = 0;
      let lastCycle = (await sessionOf(sessionId)).cycle;
      const bound = await bindRunModel(context, sessionId, inference, controller.signal);
      const embedder = await bindSessionEmbedder(context, sessionId, inference, controller.signal);
      await releaseOrphanedWaits(context, sessionId);
      let model = bound.access;
      let fellBack = bound.unavailable;
      const { budget } = bound;
      const finish = (
        stoppedBecause: 'max-cycles' | 'no-active-goal' | 'cancelled' | 'budget' | 'storage-full',
        budgetSpent?: SpentLimit,
      ) => ({
        ok: true as const,
        cyclesRun,
        lastCycle,
        stoppedBecause,
        ...(budgetSpent ? { budgetSpent } : {}),
        usage: {
          provider: bound.access?.provider.name ?? 'none',
          ...(bound.access ? { model: bound.access.provider.model } : {}),
          ...(fellBack ? { fellBack } : {}),
          ...(bound.reloaded ? { reloaded: bound.reloaded } : {}),
          ...budget.totals,
        },
      });
      try {
        while (cyclesRun < maxCycles) {
          if (controller.signal.aborted) return finish('cancelled');
          const spent = budget.spent();
          if (spent) return finish('budget', spent);
          const graph = await graphOf(sessionId);
          const record = await exclusively(async () => {
            try {
              return await runCycle({
                db,
                sessionId,
                graph,
                similarity: similarityOf(graph),
                now,
                onGraphApplied: (stored) => invalidateSimilarity(graph, stored),
                documents: await documentsOf(sessionId),
                onDocumentsChanged: () => forgetDocuments(sessionId),
                ...(model ? { model } : {}),
                ...(embedder.embeddings ? { embeddings: embedder.embeddings } : {}),
                ...(embedder.unavailable ? { embedderUnavailable: embedder.unavailable } : {}),
                ...(endpoints ? { runEndpoints: endpoints } : {}),
                signal: controller.signal,
              });
            } catch (error) {
              // Paused before its commit: the cycle wrote nothing and changed nothing in memory.
              if (error instanceof CycleCancelled) return 'cancelled' as const;
              // The cycle's facts may be in memory but not stored: read the graph (and documents) again from storage.
              graphs.delete(sessionId);
              forgetDocuments(sessionId);
              // Storage ran out as the cycle committed: none of it was kept, and the run stops there.
              if (isQuotaExceeded(error)) return 'storage-full' as const;
              // A cancel during a model call ends the run; the cycle wrote nothing.
              if (controller.signal.aborted) return 'cancelled' as const;
              throw error;
            }
          });
          if (record === 'cancelled' || record === 'storage-full') return finish(record);
          if (!record) {
            // Nothing else to work on while background work runs: the run waits for it (a cancel stops the wait).
            if (!(await hasUndoneJobs(context, sessionId))) return finish('no-active-goal');
            await Promise.race([
              runBackgroundJobs(context, sessionId, inference),
              new Promise((resolve) => controller.signal.addEventListener('abort', resolve, { once: true })),
            ]);
            continue;
          }
          // A tool deferred work: it runs in the background, and the run goes on with other goals.
          if (record.outcome === 'waiting' && (await hasUndoneJobs(context, sessionId)))
            void runBackgroundJobs(context, sessionId, inference);
          cyclesRun++;
          lastCycle = record.cycle;
          if (record.tool !== '') budget.chargeToolCall();
          // A model that cannot be reached (or lost its device) leaves the rest of the run to the symbolic engine.
          if (record.model?.bottleneck?.kind === 'dependency_unavailable') {
            fellBack = { kind: 'stopped-answering', because: record.model.bottleneck.detail };
            model = undefined;
          }
          onProgress?.(record);
          // Lets a cancel (or any other call) in between cycles.
          await yieldToEvents();
        }
        return finish('max-cycles');
      } finally {
        operations.delete(operationId);
      }
    },

    async cycleList({ sessionId, limit }) {
      const cycles = await db.cycles
        .where('[sessionId+cycle]')
        .between([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER])
        .reverse()
        .limit(limit)
        .toArray();
      return { cycles };
    },

    async memoryConsolidate({ sessionId }) {
      if (!canWrite()) return { ok: false, reason: 'read-only', problems: [{ message: READ_ONLY_MESSAGE }] };
      return exclusively(async () => {
        const session = await sessionOf(sessionId);
        // The graph names the symbols of the episodes; it is loaded before the transaction, which waits for nothing else.
        const graph = await graphOf(sessionId);
        return db.transaction('rw', [db.workingMemory, db.episodes, db.provenance], async () => {
          const entries = await db.workingMemory.where('sessionId').equals(sessionId).toArray();
          const label = (symbolId: number) => graph.symbol(symbolId)?.label ?? `#${symbolId}`;
          // Asked for: every entry, this cycle's too.
          const consolidating = consolidateMemory(db, {
            sessionId,
            cycle: session.cycle,
            now: now(),
            before: session.cycle + 1,
            entries,
            reason: 'asked for',
            label,
          });
          const episodesAdded = consolidating ? await consolidating : 0;
          return {
            ok: true as const,
            episodesAdded,
            entriesLeft: await db.workingMemory.where('sessionId').equals(sessionId).count(),
          };
        });
      });
    },

    async memoryList({ sessionId, episodeLimit }) {
      const graph = await graphOf(sessionId);
      const refs = (ids: readonly number[]) =>
        ids.flatMap((id) => {
          const symbol = graph.symbol(id);
          return symbol ? [refOf(symbol)] : [];
        });
      const { memoryCapacity } = settingsOfSession(await sessionOf(sessionId));
      const [entries, episodes, episodeTotal] = await Promise.all([
        db.workingMemory.where('sessionId').equals(sessionId).reverse().sortBy('id'),
        db.episodes.where('sessionId').equals(sessionId).reverse().sortBy('id'),
        db.episodes.where('sessionId').equals(sessionId).count(),
      ]);
      return {
        capacity: memoryCapacity,
        pressure: memoryPressure(entries.length, memoryCapacity),
        entries: entries.map((entry) => ({
          id: entry.id!,
          kind: entry.kind,
          content: entry.content,
          symbols: refs(entry.symbols),
          relevance: entry.relevance,
          sourceCycle: entry.sourceCycle,
          ...(entry.goalId !== undefined ? { goalId: entry.goalId } : {}),
          ...(entry.tool !== undefined ? { tool: entry.tool } : {}),
        })),
        episodes: episodes.slice(0, episodeLimit).map((episode) => ({
          id: episode.id!,
          ...(episode.goalId !== undefined ? { goalId: episode.goalId } : {}),
          summary: episode.summary,
          learnings: refs(episode.learnings),
          tools: episode.tools,
          cycle: episode.cycle,
        })),
        episodeTotal,
      };
    },

    async memoryRecall({ sessionId, text, symbolIds, k }) {
      const graph = await graphOf(sessionId);
      const episodes = await db.episodes.where('sessionId').equals(sessionId).toArray();
      // The words of the text that name symbols count as those symbols (one word alone barely moves a text vector).
      const named = (text ?? '')
        .split(/[^\p{L}\p{N}_-]+/u)
        .flatMap((word) => (word.length > 1 ? graph.symbolsNamed(word).map((symbol) => symbol.id) : []));
      return {
        episodes: recallEpisodes(episodes, { text, symbols: [...(symbolIds ?? []), ...named] }, k).map(
          ({ episode, score }) => ({
            id: episode.id!,
            ...(episode.goalId !== undefined ? { goalId: episode.goalId } : {}),
            summary: episode.summary,
            learnings: episode.learnings.flatMap((id) => {
              const symbol = graph.symbol(id);
              return symbol ? [refOf(symbol)] : [];
            }),
            tools: episode.tools,
            score,
            cycle: episode.cycle,
          }),
        ),
      };
    },
  };
}

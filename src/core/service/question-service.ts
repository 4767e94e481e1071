import type { AgentServiceImplementation, QuestionView } from '#core/api.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import { storeGraphDelta } from '#core/store/kg-repository.ts';
import type { FactIds } from '#core/tools/tool.ts';
import type { Goal } from '#core/records/goal.ts';
import { questionDigest } from '#core/agent/question.ts';
import type { Question } from '#core/records/question.ts';
import { addToMemory } from '#core/memory/working-memory.ts';
import type { MemoryEntry } from '#core/records/memory-entry.ts';

type QuestionMethods = 'questionList' | 'questionAnswer';

function viewOf(question: Question, goal: Goal | undefined): QuestionView {
  return {
    id: question.id!,
    goalId: question.goalId,
    goalDescription: goal?.description ?? `goal ${question.goalId}`,
    cycle: question.cycle,
    question: question.question,
    status: question.status,
    ...(question.answer !== undefined ? { answer: question.answer } : {}),
    ...(question.factsAdded !== undefined ? { factsAdded: question.factsAdded } : {}),
    ...(question.reason !== undefined ? { reason: question.reason } : {}),
    createdAt: question.createdAt,
    ...(question.answeredAt !== undefined ? { answeredAt: question.answeredAt } : {}),
  };
}

/** The questions slice of the AgentService: what the agent asked, and the user's answers. */
export function questionService(context: ServiceContext): Pick<AgentServiceImplementation, QuestionMethods> {
  const { db, now, exclusively, canWrite, sessionOf, graphOf, applyStored } = context;

  /**
   * Why an answer cannot be applied to this question, like an approval of a changed tool: the
   * tool that asked is gone or its definition changed since. A question stored without a digest
   * (before questions kept one) is taken as asked.
   */
  const staleBecauseOf = async (question: Question): Promise<string | undefined> => {
    if (question.digest === undefined) return undefined;
    // The tools are fetched to answer a question, not with the list the navigation's badge reads.
    const [{ TOOLS }, { userInteract }] = await Promise.all([
      import('#core/tools/registry.ts'),
      import('#core/tools/user-interact.ts'),
    ]);
    const tool = TOOLS.find((candidate) => candidate.name === userInteract.name);
    if (!tool) return `there is no tool ${userInteract.name} any more`;
    return (await questionDigest(tool, question.question)) === question.digest
      ? undefined
      : `${userInteract.name} changed since it asked this question`;
  };

  /**
   * Ends a question whose answer cannot be applied: it is withdrawn with the answer kept on it
   * (nothing of it enters the graph), and its goal goes on free to ask again.
   */
  const withdraw = (cycle: number, question: Question, goal: Goal, answer: string, staleBecause: string) =>
    db.transaction('rw', [db.questions, db.goals, db.provenance], async () => {
      const withdrawnAt = now();
      const reason = `${staleBecause}; your answer is kept on it but was not applied, and the agent asks again if it still needs to know`;
      const withdrawn: Question = {
        ...question,
        status: 'withdrawn',
        answer,
        factsAdded: 0,
        reason,
        answeredAt: withdrawnAt,
      };
      await db.questions.put(withdrawn);
      const { askedAtCycle: _asked, ...unasked } = goal;
      // A waiting goal goes on; one the user suspended meanwhile stays suspended.
      const goalAfter: Goal =
        goal.status === 'waiting'
          ? {
              ...unasked,
              status: 'active',
              statusReason: `question #${question.id} was withdrawn: ${staleBecause}; the goal goes on and asks again if it still needs to know`,
            }
          : unasked;
      await db.goals.put(goalAfter);
      await db.provenance.add({
        sessionId: question.sessionId,
        kind: 'question',
        sources: [`question:${question.id}`, `goal:${goal.id}`],
        confidence: 1,
        cycle,
        detail: `withdrew question #${question.id} unapplied: ${staleBecause}`,
        createdAt: withdrawnAt,
      });
      return { ok: true as const, question: viewOf(withdrawn, goalAfter), factsAdded: 0 };
    });

  return {
    async questionList({ sessionId, limit }) {
      await sessionOf(sessionId);
      const questions = await db.questions.where('sessionId').equals(sessionId).sortBy('id');
      const pending = questions.filter((question) => question.status === 'pending');
      const shown = [...pending, ...questions.filter((question) => question.status !== 'pending').reverse()].slice(
        0,
        limit,
      );
      const goals = await db.goals.bulkGet([...new Set(shown.map((question) => question.goalId))]);
      const goalById = new Map(goals.flatMap((goal) => (goal?.id !== undefined ? [[goal.id, goal] as const] : [])));
      return {
        questions: shown.map((question) => viewOf(question, goalById.get(question.goalId))),
        pendingCount: pending.length,
      };
    },

    async questionAnswer({ sessionId, questionId, facts: factText, note: noteText }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const factLines = factText.trim();
      const note = noteText.trim();
      if (factLines === '' && note === '')
        return {
          ok: false,
          problems: [
            { path: 'answer', message: 'write an answer: facts as "subject, predicate, object" lines, or a note' },
          ],
        };
      const answer = [factLines, note].filter((part) => part !== '').join('\n');
      // Read inside the write queue: a cycle ahead of this answer may change (or drop) the graph.
      return exclusively(async () => {
        const session = await sessionOf(sessionId);
        const graph = await graphOf(sessionId);
        const question = await db.questions.get(questionId);
        if (!question || question.sessionId !== sessionId)
          return { ok: false as const, problems: [{ message: `there is no question ${questionId}` }] };
        if (question.status !== 'pending')
          return {
            ok: false as const,
            problems: [{ message: `question ${questionId} was already ${question.status}` }],
          };
        const goal = await db.goals.get(question.goalId);
        if (!goal) return { ok: false as const, problems: [{ message: `its goal ${question.goalId} is gone` }] };
        const staleBecause = await staleBecauseOf(question);
        if (staleBecause) return withdraw(session.cycle, question, goal, answer, staleBecause);
        // Read first, write after: a bad fact line changes nothing.
        const batch = graph.batch({ now: now() });
        if (factLines !== '') {
          // Line numbers are those of the facts as typed.
          const read = await (
            await import('#core/kg/import/read-graph-file.ts')
          ).readGraphFile({ source: factText, format: 'csv', batch });
          if (!read.ok)
            return {
              ok: false as const,
              problems:
                read.error === 'cancelled'
                  ? [{ message: 'cancelled' }]
                  : read.error.map((problem) => ({ ...problem, path: 'facts' })),
            };
        }
        const delta = batch.delta;
        const answeredAt = now();
        const facts: FactIds[] = [...delta.addedTriples, ...delta.updatedTriples].map((triple) => [
          triple.subject,
          triple.predicate,
          triple.object,
        ]);
        const answered: Question = { ...question, status: 'answered', answer, factsAdded: facts.length, answeredAt };
        return db.transaction(
          'rw',
          [db.sessions, db.questions, db.goals, db.provenance, db.workingMemory, db.symbolChunks, db.tripleChunks],
          async () => {
            if (delta.symbols.length > 0 || facts.length > 0) {
              const stored = await storeGraphDelta(db, {
                graph,
                sessionId,
                delta,
                now: answeredAt,
                provenance: {
                  sessionId,
                  kind: 'user-answer',
                  sources: [`question:${questionId}`, `goal:${goal.id}`],
                  confidence: 1,
                  cycle: session.cycle,
                  detail: `your answer to "${question.question}": ${facts.length} facts`,
                  createdAt: answeredAt,
                },
              });
              applyStored(graph, stored);
            }
            await db.questions.put(answered);
            const known = new Set(goal.findings.map((fact) => fact.join(' ')));
            const findings = [...goal.findings, ...facts.filter((fact) => !known.has(fact.join(' ')))];
            // New facts are progress (the stall count starts again); a note alone is not, so the goal
            // does not ask again before it has moved on, and a stall still leads to a split.
            const statusReason = `you answered question #${questionId}${facts.length > 0 ? ` (${facts.length} facts)` : ' (a note)'}`;
            const progress = facts.length > 0 ? { lastProgressCycle: goal.cyclesWorked } : {};
            const goalAfter: Goal =
              goal.status === 'waiting'
                ? { ...goal, findings, status: 'active', statusReason, ...progress }
                : { ...goal, findings, ...progress };
            await db.goals.put(goalAfter);
            const memory = await db.workingMemory.where('sessionId').equals(sessionId).sortBy('id');
            const entry: MemoryEntry = {
              sessionId,
              content: `the user answered "${question.question}": ${answer.slice(0, 500)}`,
              symbols: [...new Set(facts.flat())].slice(0, 50),
              kind: 'observation',
              timestamp: answeredAt,
              relevance: 0.9,
              sourceCycle: session.cycle,
              referenceCount: 0,
              goalId: goal.id,
            };
            const { evicted } = addToMemory(memory, [entry]);
            await db.workingMemory.bulkDelete(
              evicted.flatMap((evictedEntry) => (evictedEntry.id !== undefined ? [evictedEntry.id] : [])),
            );
            if (evicted.length > 0)
              await db.provenance.add({
                sessionId,
                kind: 'eviction',
                sources: evicted.map((evictedEntry) => `memory:${evictedEntry.id ?? 'new'}`),
                confidence: 1,
                cycle: session.cycle,
                detail: `working memory full: evicted ${evicted.length} entries for an answer`,
                createdAt: answeredAt,
              });
            if (!evicted.includes(entry)) await db.workingMemory.add(entry);
            return { ok: true as const, question: viewOf(answered, goalAfter), factsAdded: facts.length };
          },
        );
      });
    },
  };
}

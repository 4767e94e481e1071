import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { looksLikeQuestion } from '#core/questions/question-form.ts';
import { loadQuestionAnswering } from '#core/questions/load-question-answering.ts';
import type { QuestionAnswering } from '#core/questions/answer-schema.ts';
import { byAttention, type Decision } from './cycle.ts';
import { describeAction } from '#core/psyche/shadow.ts';
import { type HeldAction, shadowViewOf } from '#core/tools/tool.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import { parseCriteria } from '#core/goals/goal.ts';
import type { Goal } from '#core/records/goal.ts';
import { runChild } from './child-run.ts';
import { RED_TEAM, REVIEWER } from './postures.ts';
import type { ChildRun, RedTeamFinding } from '#core/records/child-run.ts';
import type { Reading } from '#core/questions/reading-schema.ts';

/** The question reader, loaded (on first use) when an active goal asks a question. */
export async function questionsFor(goals: readonly Goal[]): Promise<QuestionAnswering | undefined> {
  const asks = goals.some((goal) => {
    if (goal.status !== 'active' || goal.successCriteria.trim() !== '') return false;
    const criteria = parseCriteria('', goal.description);
    return criteria.ok && criteria.value.kind === 'question';
  });
  return asks ? loadQuestionAnswering() : undefined;
}

/**
 * With a model bound, the question of the goal the agent will work on is read by the model (its
 * typed query checked by the graph; refused, the words' reading, which says so) and answered from
 * that reading this cycle; other questions are read from their words. A reviewer child run checks
 * the model's reading against the question and the graph's matches before it is used: a reading
 * it rejects gives way to the words' reading, which says why. A reviewer that stops short (a
 * bottleneck) leaves the graph-checked reading in use, and the cycle log shows it stopped.
 */
export async function withModelReading(
  questions: QuestionAnswering | undefined,
  goals: readonly Goal[],
  graph: KnowledgeGraph,
  model: ModelAccess | undefined,
): Promise<{ questions: QuestionAnswering | undefined; children: ChildRun[] }> {
  const next = goals.filter((goal) => goal.status === 'active').sort(byAttention)[0];
  if (!questions || !model || !next || next.successCriteria.trim() !== '' || !looksLikeQuestion(next.description))
    return { questions, children: [] };
  const read = await questions.readWithModel(graph, next.description, model.provider, {
    budget: model.budget,
    ...(next.chosenSymbols ? { chosen: next.chosenSymbols } : {}),
    ...(model.signal ? { signal: model.signal } : {}),
  });
  if (!read.ok) return { questions, children: [] };
  let reading = read.value;
  const children: ChildRun[] = [];
  if (reading.readBy === 'model') {
    const review = await runChild(model, REVIEWER, {
      purpose: `review the model's reading of "${next.description}"`,
      prompt: readingReviewPrompt(reading),
    });
    children.push(review.run);
    const byWords =
      review.ok && review.value.verdict === 'reject'
        ? questions.read(graph, next.description, next.chosenSymbols)
        : undefined;
    if (review.ok && byWords?.ok)
      reading = {
        ...byWords.value,
        fallback: `a reviewer rejected the model's reading (${review.value.problems.join('; ')}); read from the words instead`,
      };
  }
  const used = reading;
  return {
    children,
    questions: {
      ...questions,
      answerOf: (current, question) => {
        if (question !== next.description) return questions.answerOf(current, question);
        const answer = questions.answerReading(current, used);
        return used.fallback ? { ...answer, reading: `${answer.reading} (${used.fallback})` } : answer;
      },
    },
  };
}

/** What a reviewer is shown of a model's reading: the question, the reading in words and as a query, and what the question's words matched. */
function readingReviewPrompt(reading: Reading): string {
  const matched = reading.matched.map(
    (match) => `"${match.words}": ${match.symbols.map((symbol) => `${symbol.label} (${symbol.symbol})`).join(', ')}`,
  );
  return [
    `Question: ${reading.question}`,
    `A model read it as: ${reading.text}`,
    `Its query over the graph: ${JSON.stringify(reading.query ?? null)}`,
    matched.length > 0
      ? `The question's words matched:\n${matched.join('\n')}`
      : "The question's words matched nothing.",
    'Does this reading ask what the question asks? Accept it, or reject it naming each problem.',
  ].join('\n');
}

/**
 * With a model bound, a red-team child run looks for breach paths in an action before it waits for
 * the user's approval; what it found (or the bottleneck it stopped at) is kept with the approval.
 */
export async function redTeamBeforeApproval(
  model: ModelAccess,
  decision: Decision,
  held: HeldAction,
): Promise<{ finding: RedTeamFinding; run: ChildRun }> {
  const action = describeAction({ tool: decision.tool.name, input: decision.input });
  const view = shadowViewOf(decision.tool, decision.input);
  const outcome = await runChild(
    model,
    RED_TEAM,
    {
      purpose: `look for breach paths in ${decision.tool.name} before it waits for approval`,
      prompt: [
        `Goal: ${decision.goal.description}`,
        `Action: ${action}`,
        `Tool: ${decision.tool.name}, ${decision.tool.description}; danger ${view.danger}; it touches ${view.capabilities.join(', ') || 'nothing'}`,
        `The user's pattern ${held.pattern} holds it for approval: ${held.explanation}`,
        'How could this action breach what the user intends?',
      ].join('\n'),
    },
    decision.state,
  );
  return {
    run: outcome.run,
    finding: outcome.ok ? { breachPaths: outcome.value.breachPaths } : { bottleneck: outcome.bottleneck },
  };
}

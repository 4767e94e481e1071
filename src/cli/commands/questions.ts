import { idOperand } from '../options.ts';
import { problemLines } from '../output.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';

/** `anima questions` and `answer`: what the agent asked the user, and the user's reply. */
export const QUESTION_COMMANDS: Record<string, SessionCommand> = {
  questions: { run: questions },
  answer: { run: answer },
};

async function questions({ values, service, sessionId, output }: SessionContext): Promise<number> {
  const { questions } = await service.questionList({ sessionId });
  if (values.json) output.out(`${JSON.stringify(questions)}\n`);
  else if (questions.length === 0) output.error('anima: the agent has asked nothing\n');
  else
    for (const question of questions)
      output.out(
        `#${question.id}\t${question.status}\tgoal ${question.goalId}\t${question.question}${question.answer ? `\t-> ${question.answer.replaceAll('\n', ' / ')}` : ''}\n`,
      );
  return 0;
}

async function answer({ operands, values, service, sessionId, output, save }: SessionContext): Promise<number> {
  const questionId = idOperand(operands[0], 'QUESTION_ID');
  if (Number.isNaN(questionId))
    throw new CliError(
      `answer: which question? e.g. anima answer 1 --facts "Mars, has-feature, OlympusMons" --snapshot S (\`anima questions\` lists them)`,
      2,
    );
  const answered = await service.questionAnswer({
    sessionId,
    questionId,
    facts: (values.facts ?? []).join('\n'),
    note: values.note ?? '',
  });
  if (!answered.ok) throw new CliError(problemLines(`answer: nothing changed:`, answered.problems));
  await save();
  // The tool that asked changed since: the question was withdrawn, with the answer kept on it.
  if (answered.question.status === 'withdrawn')
    throw new CliError(
      `answer: question #${questionId} was withdrawn: ${answered.question.reason ?? 'it can no longer be answered'}; its goal goes on (\`anima resume\`)`,
    );
  output.out(
    `answered question #${questionId}: ${answered.factsAdded} facts added; its goal goes on (\`anima resume\`)\n`,
  );
  return 0;
}

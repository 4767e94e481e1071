import { openAsBlob } from 'node:fs';
import type { AgentApi } from '#core/api.ts';
import { answerViewText } from '#core/questions/answer.ts';
import type { Reading } from '#core/questions/reading.ts';
import { describeProblem } from '#core/result.ts';
import type { CliOutput } from './main.ts';
import { CliError } from './snapshot-file.ts';

/** The questions part of `anima --help`. */
export const QUESTION_USAGE = `Questions in plain words (read with the graph's own names; nothing is stored):
  anima read "QUESTION" --snapshot S [--json]    how it would be read: the query, the symbols
                 matched, the words not placed (or why the graph cannot answer it)
  anima ask "QUESTION" [--kg FILE] --snapshot S [--json]
                 read and answered by the graph: the list with labels, yes or no with the
                 proof, the number, or "No answer" and why (exit 1). --kg imports FILE first.
`;

export const QUESTION_COMMANDS = ['read', 'ask'];

type QuestionOptions = { json?: boolean; kg?: string };

/** Runs `anima read|ask QUESTION` on the snapshot's session; `ask --kg` imports first (and saves). */
export async function runQuestionCommand(command: string, question: string | undefined, options: { service: AgentApi; sessionId: string; values: QuestionOptions; output: CliOutput; save: () => Promise<void> }): Promise<number> {
  const { service, sessionId, values, output } = options;
  if (question === undefined) throw new CliError(`${command}: which question? e.g. anima ${command} "Which birds can swim?" --snapshot S\n\n${QUESTION_USAGE}`, 2);
  if (command === 'read') {
    const read = await service.questionRead({ sessionId, question });
    if (!read.ok) throw new CliError(read.problems.map(describeProblem).join('\n'));
    output.out(values.json ? `${JSON.stringify(read.reading)}\n` : readingText(read.reading));
    return read.reading.query ? 0 : 1;
  }
  if (values.kg) {
    let data: Blob;
    try {
      data = await openAsBlob(values.kg);
    } catch (error) {
      throw new CliError(`cannot read ${values.kg}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const imported = await service.kgImport({ sessionId, operationId: 'cli-import', fileName: values.kg, data });
    if (!imported.ok) throw new CliError([`${values.kg}: nothing imported:`, ...imported.problems.map((problem) => `  ${describeProblem(problem)}`)].join('\n'));
    await options.save();
  }
  const asked = await service.questionAsk({ sessionId, question });
  if (!asked.ok) throw new CliError(asked.problems.map(describeProblem).join('\n'));
  if (values.json) output.out(`${JSON.stringify({ reading: asked.reading.text, answer: asked.answer })}\n`);
  else {
    output.error(`anima: I read this as: ${asked.reading.text}\n`);
    if (asked.answer.kind === 'entities') for (const entity of asked.answer.entities) output.out(`${entity.label}\n`);
    else output.out(`${answerViewText(asked.answer)}\n`);
    if (asked.answer.kind === 'entities') output.error(`anima: ${asked.answer.entities.length} ${asked.answer.entities.length === 1 ? 'answer' : 'answers'}\n`);
  }
  return asked.answer.kind === 'none' ? 1 : 0;
}

/** A reading as the terminal shows it. */
function readingText(reading: Reading): string {
  const lines = [`I read this as: ${reading.text}`];
  for (const match of reading.matched) lines.push(`  "${match.words}" -> ${match.symbols.map((symbol) => `${symbol.label}${symbol.iri ? ` <${symbol.iri}>` : ''}`).join(' or ')}`);
  if (reading.unplaced.length > 0) lines.push(`  not placed: ${reading.unplaced.map((word) => `"${word}"`).join(', ')}`);
  for (const choice of reading.choices ?? []) lines.push(`  "${choice.words}" may mean: ${choice.symbols.map((symbol) => symbol.label).join(', ')}`);
  return `${lines.join('\n')}\n`;
}

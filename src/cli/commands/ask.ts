import { answerViewText } from '#core/questions/answer-view.ts';
import type { Reading } from '#core/questions/reading-schema.ts';
import { quoteInput } from '#core/quote-input.ts';
import type { SymbolChoice } from '#core/records/goal.ts';
import { describeProblem } from '#core/result.ts';
import { problemLines } from '../output.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';
import { readBlob } from './kg.ts';
import { runInference } from './model.ts';

/** The questions part of `anima --help`. */
export const QUESTION_USAGE = `Questions in plain words (read with the graph's own names; nothing is stored):
  anima read "QUESTION" [--choose WORDS=SYMBOL]... --snapshot S [--json]
                 how it would be read: the query, the symbols matched, the words not placed
                 (or why the graph cannot answer it, or the symbols an ambiguous word may mean)
  anima ask "QUESTION" [--choose WORDS=SYMBOL]... [--kg FILE] [--provider openai --base-url URL
            --model M [--api-key K]] --snapshot S [--json]
                 read and answered by the graph: the list with labels, yes or no with the
                 proof, the number, or "No answer" and why (exit 1). --kg imports FILE first.
                 --provider: the model reads the question into a query (as in anima run); the
                 graph checks the query and answers it, never the model
                 --choose: the symbol (its name or IRI) an ambiguous word means: --choose bat="Bat (club)"
`;

/** `anima read` and `ask`: a question in plain words, read into a query and answered by the graph. */
export const ASK_COMMANDS: Record<string, SessionCommand> = {
  read: { run: read },
  // With --kg, ask imports first, so it may start the snapshot.
  ask: { run: ask, createsSnapshot: (values) => values.kg !== undefined },
};

function questionOperand({ name, operands }: SessionContext): string {
  const [question] = operands;
  if (question === undefined)
    throw new CliError(
      `${name}: which question? e.g. anima ${name} "Which birds can swim?" --snapshot S\n\n${QUESTION_USAGE}`,
      2,
    );
  return question;
}

/** `--choose WORDS=SYMBOL`, each: the symbol (by name or IRI) the words of the question mean. */
export function symbolChoices(values: { choose?: string[] | undefined }): SymbolChoice[] {
  return (values.choose ?? []).map((text) => {
    const split = text.indexOf('=');
    const words = text.slice(0, split).trim();
    const symbol = text.slice(split + 1).trim();
    if (split < 0 || words === '' || symbol === '')
      throw new CliError(
        `--choose ${quoteInput(text)}: write the words, "=", and the symbol they mean (its name or IRI), e.g. --choose bat="Bat (club)"`,
        2,
      );
    return { words, symbol };
  });
}

async function read(context: SessionContext): Promise<number> {
  const { values, service, sessionId, output } = context;
  const read = await service.questionRead({
    sessionId,
    question: questionOperand(context),
    chosenSymbols: symbolChoices(values),
  });
  if (!read.ok) throw new CliError(read.problems.map(describeProblem).join('\n'));
  output.out(values.json ? `${JSON.stringify(read.reading)}\n` : readingText(read.reading));
  return read.reading.query ? 0 : 1;
}

async function ask(context: SessionContext): Promise<number> {
  const { values, service, sessionId, output, save } = context;
  const question = questionOperand(context);
  const chosenSymbols = symbolChoices(values);
  const inference = runInference(values, 'ask');
  if (values.kg) {
    const imported = await service.kgImport({
      sessionId,
      operationId: 'cli-import',
      fileName: values.kg,
      data: await readBlob(values.kg),
    });
    if (!imported.ok) throw new CliError(problemLines(`${values.kg}: nothing imported:`, imported.problems));
    await save();
  }
  const asked = await service.questionAsk({ sessionId, question, chosenSymbols, ...(inference ? { inference } : {}) });
  if (!asked.ok) throw new CliError(asked.problems.map(describeProblem).join('\n'));
  const { reading } = asked;
  // Who read it, and why not the model given: the answer is the graph's either way.
  const fallback = asked.unavailable
    ? `the model could not read it (${asked.unavailable.because}); read from the words instead`
    : reading.fallback;
  if (values.json)
    output.out(
      `${JSON.stringify({ reading: reading.text, readBy: reading.readBy, ...(fallback ? { fallback } : {}), answer: asked.answer })}\n`,
    );
  else {
    output.error(`anima: I read this as: ${reading.text}${reading.readBy === 'model' ? ' (read by the model)' : ''}\n`);
    if (fallback) output.error(`anima: ${fallback}\n`);
    if (asked.answer.kind === 'entities') for (const entity of asked.answer.entities) output.out(`${entity.label}\n`);
    else output.out(`${answerViewText(asked.answer)}\n`);
    if (asked.answer.kind === 'entities')
      output.error(
        `anima: ${asked.answer.entities.length} ${asked.answer.entities.length === 1 ? 'answer' : 'answers'}\n`,
      );
  }
  return asked.answer.kind === 'none' ? 1 : 0;
}

/** A reading as the terminal shows it. */
function readingText(reading: Reading): string {
  const lines = [`I read this as: ${reading.text}`];
  for (const match of reading.matched)
    lines.push(
      `  "${match.words}" -> ${match.symbols.map((symbol) => `${symbol.label}${symbol.iri ? ` <${symbol.iri}>` : ''}`).join(' or ')}`,
    );
  if (reading.unplaced.length > 0)
    lines.push(`  not placed: ${reading.unplaced.map((word) => `"${word}"`).join(', ')}`);
  for (const choice of reading.choices ?? [])
    lines.push(`  "${choice.words}" may mean: ${choice.symbols.map((symbol) => symbol.label).join(', ')}`);
  return `${lines.join('\n')}\n`;
}

import type { AnswerView } from '#core/api.ts';

/** How many of an answer's entities one page shows. */
export const ANSWER_PAGE_SIZE = 50;

/** An answer's headline: "43 answers", "Yes", "No", the number, the value, or "No answer". */
export function answerHeadline(answer: AnswerView): string {
  switch (answer.kind) {
    case 'entities':
      return answer.entities.length === 0
        ? 'No thing in the graph fits'
        : `${answer.entities.length.toLocaleString()} ${answer.entities.length === 1 ? 'answer' : 'answers'}`;
    case 'boolean':
      return answer.value ? 'Yes' : 'No';
    case 'count':
      return typeof answer.value === 'number' ? answer.value.toLocaleString() : String(answer.value);
    case 'value':
      return String(answer.value);
    case 'none':
      return 'No answer';
  }
}

/** Which entities a page shows, and where it stands: "1–50 of 1,181". */
export function answerPage(
  answer: AnswerView,
  page: number,
): { entities: AnswerView['entities']; text: string; pages: number } {
  const pages = Math.max(1, Math.ceil(answer.entities.length / ANSWER_PAGE_SIZE));
  const at = Math.min(Math.max(0, page), pages - 1) * ANSWER_PAGE_SIZE;
  const entities = answer.entities.slice(at, at + ANSWER_PAGE_SIZE);
  return {
    entities,
    pages,
    text: `${(at + 1).toLocaleString()}–${(at + entities.length).toLocaleString()} of ${answer.entities.length.toLocaleString()}`,
  };
}

/** An answer's entities as CSV (RFC 4180: a field with a comma, quote or line break is quoted). */
export function answerCsv(answer: AnswerView): string {
  const field = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  return `label,symbol\r\n${answer.entities.map((entity) => `${field(entity.label)},${entity.symbol}\r\n`).join('')}`;
}

/** The file an answer downloads to: "find-all-mammals-answer.csv". */
export function answerFileName(description: string, goalId: number): string {
  const slug = description
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${slug === '' ? `goal-${goalId}` : slug}-answer.csv`;
}

import { describe, expect, it } from 'vitest';
import type { AnswerView } from '#core/api.ts';
import { answerCsv, answerFileName, answerHeadline, answerPage } from './answer-messages.ts';

const list = (count: number): AnswerView => ({
  kind: 'entities',
  reading: 'every ?x',
  entities: Array.from({ length: count }, (_, index) => ({ symbol: index + 1, label: `Thing ${index + 1}` })),
});

describe('an answer as the Goals screen shows it', () => {
  it('says what kind of answer it is first', () => {
    expect(answerHeadline(list(1181))).toBe('1,181 answers');
    expect(answerHeadline({ kind: 'boolean', value: false, entities: [], reading: '' })).toBe('No');
    expect(answerHeadline({ kind: 'count', value: 9, entities: [], reading: '' })).toBe('9');
    expect(answerHeadline({ kind: 'none', entities: [], reading: '', reason: 'x' })).toBe('No answer');
  });

  it('pages a long list, every entity on some page', () => {
    const answer = list(120);
    expect(answerPage(answer, 0)).toMatchObject({ pages: 3, text: '1–50 of 120' });
    expect(answerPage(answer, 2).entities.map((entity) => entity.label)).toEqual(
      Array.from({ length: 20 }, (_, index) => `Thing ${index + 101}`),
    );
    expect(answerPage(answer, 9).text).toBe('101–120 of 120');
  });

  it('exports every entity as CSV, quoting what needs it', () => {
    const answer: AnswerView = {
      kind: 'entities',
      reading: '',
      entities: [
        { symbol: 7, label: 'Bolivia, Plurinational State of' },
        { symbol: 8, label: 'The "Moon"' },
        { symbol: 9, label: 'Earth' },
      ],
    };
    expect(answerCsv(answer)).toBe(
      'label,symbol\r\n"Bolivia, Plurinational State of",7\r\n"The ""Moon""",8\r\nEarth,9\r\n',
    );
    expect(answerCsv(list(1181)).split('\r\n')).toHaveLength(1183);
    expect(answerFileName('Which countries use the Euro?', 3)).toBe('which-countries-use-the-euro-answer.csv');
    expect(answerFileName('???', 3)).toBe('goal-3-answer.csv');
  });
});

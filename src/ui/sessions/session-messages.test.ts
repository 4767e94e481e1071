import { describe, expect, it } from 'vitest';
import { SNAPSHOT_VERSION } from '#core/api.ts';
import {
  SESSION_NAME_MAX_LENGTH,
  checkReport,
  copyName,
  deleteQuestion,
  deletedText,
  fileVersionText,
  goalsText,
  previewCountsText,
  psycheText,
  refusalReport,
  sessionNameProblem,
  sizeText,
} from './session-messages.ts';

describe('what a session card says', () => {
  it('says sizes in KB below a megabyte, with one decimal below 10 MB, then in whole MB and GB', () => {
    expect(sizeText(200)).toBe('1 KB');
    expect(sizeText(340 * 1024)).toBe('340 KB');
    expect(sizeText(1.23 * 2 ** 20)).toBe('1.2 MB');
    expect(sizeText(56.4 * 2 ** 20)).toBe('56 MB');
    expect(sizeText(1.5 * 2 ** 30)).toBe('1.5 GB');
  });

  it('counts open goals of all, the psyche version, and none', () => {
    expect(goalsText({ total: 3, open: 2 })).toBe('2 open of 3');
    expect(goalsText({ total: 0, open: 0 })).toBe('none');
    expect(psycheText(0)).toBe('the default');
    expect(psycheText(4)).toBe('version 4');
  });

  it('offers "NAME (copy)" for a duplicate, shortened to fit the longest name', () => {
    expect(copyName('Mars notes')).toBe('Mars notes (copy)');
    const long = copyName('x'.repeat(SESSION_NAME_MAX_LENGTH));
    expect(long).toHaveLength(SESSION_NAME_MAX_LENGTH);
    expect(long.endsWith('x (copy)')).toBe(true);
  });

  it('offers a name no session has: a second copy is "(copy 2)", a copy of a copy counts on', () => {
    expect(copyName('Mars', ['Mars', 'Mars (copy)'])).toBe('Mars (copy 2)');
    expect(copyName('Mars', ['Mars', 'Mars (copy)', 'Mars (copy 2)'])).toBe('Mars (copy 3)');
    expect(copyName('Mars (copy)', ['Mars', 'Mars (copy)'])).toBe('Mars (copy 2)');
    const long = copyName('x'.repeat(SESSION_NAME_MAX_LENGTH), ['x'.repeat(SESSION_NAME_MAX_LENGTH - 7) + ' (copy)']);
    expect(long).toHaveLength(SESSION_NAME_MAX_LENGTH);
    expect(long.endsWith('x (copy 2)')).toBe(true);
  });

  it('refuses an empty, over-long or multi-line name in words', () => {
    expect(sessionNameProblem('  ')).toBe('Give the session a name.');
    expect(sessionNameProblem('x'.repeat(SESSION_NAME_MAX_LENGTH + 1))).toBe(
      'A session name has at most 120 characters.',
    );
    expect(sessionNameProblem('one\ntwo')).toBe('A session name is one line without control characters.');
    expect(sessionNameProblem('tab\there')).toBe('A session name is one line without control characters.');
    expect(sessionNameProblem(' Mars ')).toBeUndefined();
  });
});

describe('deleting a session', () => {
  it('asks before deleting, and for the open one says which session opens instead', () => {
    const closed = deleteQuestion({ name: 'Old', isActive: false }, { name: 'Mars' });
    expect(closed).toMatch(
      /^Delete “Old” and everything in it: .* This cannot be undone; export it first to keep a copy\.$/,
    );
    expect(deleteQuestion({ name: 'Old', isActive: true }, { name: 'Mars' })).toMatch(
      /It is open now: “Mars” opens instead\.$/,
    );
    expect(deleteQuestion({ name: 'Old', isActive: true }, undefined)).toMatch(
      /It is open now: a new empty session opens instead\.$/,
    );
  });

  it('says which session is open after the open one was deleted', () => {
    expect(deletedText('Old', undefined)).toBe('Deleted “Old”.');
    expect(deletedText('Old', 'Mars')).toBe('Deleted “Old”. “Mars” is open now.');
  });
});

describe('snapshot files and refusals', () => {
  it('says when a file of an older format version is migrated', () => {
    expect(fileVersionText(SNAPSHOT_VERSION)).toBe(String(SNAPSHOT_VERSION));
    expect(fileVersionText(7)).toBe(`7 (migrated from version 7 to ${SNAPSHOT_VERSION} as it is imported)`);
    expect(previewCountsText({ cycle: 1, goals: 2, triples: 1200 })).toBe('1 cycle, 2 goals, 1,200 triples');
  });

  it('lists where a file is wrong, and says a refusal for a run in progress in plain words', () => {
    const tampered = refusalReport('zoo.anima.json cannot be imported; nothing changed', {
      ok: false,
      reason: 'invalid',
      problems: [{ path: 'sha256', message: 'the content does not match its SHA-256' }],
    });
    expect(tampered).toEqual({
      tone: 'failure',
      message: 'zoo.anima.json cannot be imported; nothing changed:',
      problems: ['at sha256: the content does not match its SHA-256'],
      warnings: [],
    });
    const busy = refusalReport('“Mars” was not opened', {
      ok: false,
      reason: 'busy',
      problems: [{ message: 'a run is in progress' }],
    });
    expect(busy.message).toBe(
      '“Mars” was not opened: a run, an import or a download is in progress: wait for it to end (or pause the run), then try again.',
    );
    expect(busy.problems).toEqual([]);
  });

  it('says a whole session is whole, and lists what is wrong with one that is not', () => {
    expect(checkReport([])).toMatchObject({ tone: 'success', message: 'Whole: no problems found.' });
    expect(checkReport([{ path: 'session.cycle', message: 'is 3, but the cycle log ends at 2' }])).toMatchObject({
      tone: 'failure',
      message: 'Not whole: one problem found.',
      problems: ['at session.cycle: is 3, but the cycle log ends at 2'],
    });
  });
});

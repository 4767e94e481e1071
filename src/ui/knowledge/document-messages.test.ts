import { describe, expect, it } from 'vitest';
import {
  deleteConfirmText,
  describeDocumentDelete,
  describeDocumentImport,
  ingestionText,
  previewText,
  sizeText,
} from './document-messages.ts';

const mars = { id: 1, name: 'mars.txt', size: 64, createdAt: 0, preview: 'Mars has volcanoes.' };

describe('describeDocumentImport', () => {
  it('names the imported document and its size', () => {
    expect(describeDocumentImport({ ok: true, document: mars }, 'mars.txt')).toEqual({
      tone: 'success',
      message: 'Imported mars.txt (64 characters).',
    });
  });

  it('says a document that did not fit in storage was not kept, and what to do', () => {
    const report = describeDocumentImport(
      { ok: false, reason: 'storage-full', problems: [{ message: 'storage is full' }] },
      'mars.txt',
    );
    expect(report).toMatchObject({ tone: 'failure', problems: [] });
    expect(report.message).toMatch(
      /^“mars\.txt” was not imported: storage is full, and nothing of it was kept\. Free space/,
    );
  });

  it('lists the problems of a refused file and says nothing changed', () => {
    const result = {
      ok: false as const,
      reason: 'invalid' as const,
      problems: [{ line: 2, message: 'mars.txt is not valid UTF-8 text' }],
    };
    expect(describeDocumentImport(result, 'mars.txt')).toEqual({
      tone: 'failure',
      message: '“mars.txt” was not imported; nothing was changed:',
      problems: ['line 2: mars.txt is not valid UTF-8 text'],
    });
  });

  it('says why a read-only tab cannot import, without repeating the agent’s own wording', () => {
    const report = describeDocumentImport(
      { ok: false, reason: 'read-only', problems: [{ message: 'read only' }] },
      'mars.txt',
    );
    expect(report).toEqual({ tone: 'failure', message: expect.stringContaining('open in another tab'), problems: [] });
  });
});

describe('describeDocumentDelete', () => {
  it('says the facts taken from a deleted document stay, or why it was not deleted', () => {
    expect(describeDocumentDelete({ ok: true }, 'mars.txt')).toEqual({
      tone: 'success',
      message: 'Deleted mars.txt; the facts the agent took from it stay in the graph.',
    });
    expect(
      describeDocumentDelete({ ok: false, problems: [{ message: 'there is no document 1' }] }, 'mars.txt'),
    ).toEqual({
      tone: 'failure',
      message: '“mars.txt” was not deleted:',
      problems: ['there is no document 1'],
    });
  });
});

describe('deleteConfirmText', () => {
  it('asks about the document by name and says its facts stay', () => {
    expect(deleteConfirmText('mars.txt')).toBe(
      'Delete the document “mars.txt”? The facts the agent already took from it stay in the graph.',
    );
  });
});

describe('sizeText', () => {
  it('counts characters in words', () => {
    expect(sizeText(1)).toBe('1 character');
    expect(sizeText(1234)).toBe('1,234 characters');
  });
});

describe('ingestionText', () => {
  it('says a document is not read yet, or how many facts the agent turned it into and when', () => {
    const ingestedAt = Date.UTC(2026, 2, 5, 12);
    expect(ingestionText({})).toBe('Not read yet');
    expect(ingestionText({ ingestedAt, factsExtracted: 3 })).toMatch(/^Turned into 3 facts on .*2026/);
    expect(ingestionText({ ingestedAt, factsExtracted: 1 })).toMatch(/^Turned into 1 fact on /);
    expect(ingestionText({ ingestedAt, factsExtracted: 0 })).toMatch(
      /^Read on .*2026.*; no simple sentences to turn into facts$/,
    );
  });
});

describe('previewText', () => {
  it('shows a short document whole, and the start of a longer one with an ellipsis', () => {
    expect(previewText({ size: 19, preview: 'Mars has volcanoes.' })).toBe('Mars has volcanoes.');
    expect(previewText({ size: 64, preview: 'Mars has volcanoes. ' })).toBe('Mars has volcanoes.…');
  });
});

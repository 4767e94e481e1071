import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { AgentApi, DocumentView } from '#core/api.ts';
import { Documents, type DocumentsHost, type TextFile } from './documents.svelte.ts';

const MARS = 'Mars has volcanoes. Mars has craters. Olympus Mons is a volcano.';

function textFile(name: string, text: string): TextFile {
  return { name, size: text.length, text: async () => text };
}

/**
 * A fake agent holding documents as the service does: newest first, an empty text refused with a
 * problem, nothing changed in a read-only tab. `ingest` marks a document read, as the agent's
 * text_ingest tool does in a cycle. It records the calls it gets, and can hold list answers back
 * until released.
 */
function fakeHost(options: { canWrite?: boolean; isHoldingLists?: boolean } = {}) {
  const calls: string[] = [];
  const held: (() => void)[] = [];
  let documents: DocumentView[] = [];
  let nextId = 1;
  const client = {
    documentList: async () => {
      calls.push('documentList');
      if (options.isHoldingLists) await new Promise<void>((resolve) => held.push(resolve));
      return { documents };
    },
    documentImport: async ({ fileName, text }: { fileName: string; text: string }) => {
      calls.push(`documentImport ${fileName}`);
      if (options.canWrite === false)
        return { ok: false as const, reason: 'read-only' as const, problems: [{ message: 'open in another tab' }] };
      if (text.trim() === '')
        return {
          ok: false as const,
          reason: 'invalid' as const,
          problems: [{ message: `${fileName} is empty: there is nothing to read` }],
        };
      const document: DocumentView = {
        id: nextId++,
        name: fileName,
        size: text.length,
        createdAt: 0,
        preview: text.slice(0, 300),
      };
      documents = [document, ...documents];
      return { ok: true as const, document };
    },
    documentDelete: async ({ documentId }: { documentId: number }) => {
      calls.push(`documentDelete ${documentId}`);
      if (!documents.some((known) => known.id === documentId))
        return { ok: false as const, problems: [{ message: `there is no document ${documentId}` }] };
      documents = documents.filter((known) => known.id !== documentId);
      return { ok: true as const };
    },
  } satisfies Partial<AgentApi>;
  const host: DocumentsHost = {
    client: client as unknown as AgentApi,
    sessionId: 's',
    canWrite: options.canWrite ?? true,
  };
  const ingest = (documentId: number, factsExtracted: number) => {
    documents = documents.map((known) =>
      known.id === documentId ? { ...known, ingestedAt: 10, factsExtracted } : known,
    );
  };
  return { host, calls, held, ingest };
}

describe('Documents', () => {
  it('imports a text file, says its name and size, and lists it first', async () => {
    const { host, calls } = fakeHost();
    const documents = new Documents(host);
    await documents.load();
    await documents.importFile(textFile('old.md', '# Old'));
    await documents.importFile(textFile('mars.txt', MARS));
    flushSync();
    expect(documents.change).toEqual({
      status: 'ended',
      report: { tone: 'success', message: 'Imported mars.txt (64 characters).' },
    });
    expect(documents.documents.map((known) => known.name)).toEqual(['mars.txt', 'old.md']);
    expect(documents.documents[0]).not.toHaveProperty('ingestedAt');
    expect(calls).toEqual([
      'documentList',
      'documentImport old.md',
      'documentList',
      'documentImport mars.txt',
      'documentList',
    ]);
  });

  it('shows the problems of a refused file and changes nothing', async () => {
    const { host, calls } = fakeHost();
    const documents = new Documents(host);
    await documents.load();
    await documents.importFile(textFile('empty.txt', '  \n'));
    flushSync();
    expect(documents.change).toEqual({
      status: 'ended',
      report: {
        tone: 'failure',
        message: '“empty.txt” was not imported; nothing was changed:',
        problems: ['empty.txt is empty: there is nothing to read'],
      },
    });
    expect(documents.documents).toEqual([]);
    expect(calls).toEqual(['documentList', 'documentImport empty.txt']);
  });

  it('reports a file that cannot be read, without asking the agent', async () => {
    const { host, calls } = fakeHost();
    const documents = new Documents(host);
    await documents.importFile({
      name: 'gone.txt',
      size: 10,
      text: async () => Promise.reject(new Error('the file was moved')),
    });
    expect(documents.change).toEqual({
      status: 'ended',
      report: { tone: 'failure', message: '“gone.txt” was not imported: the file was moved', problems: [] },
    });
    expect(calls).toEqual([]);
  });

  it('deletes a document, says its facts stay, and lists the rest', async () => {
    const { host, calls } = fakeHost();
    const documents = new Documents(host);
    await documents.importFile(textFile('mars.txt', MARS));
    await documents.importFile(textFile('dogs.txt', 'A dog is a mammal.'));
    await documents.deleteDocument({ id: 1, name: 'mars.txt' });
    flushSync();
    expect(documents.change).toEqual({
      status: 'ended',
      report: { tone: 'success', message: 'Deleted mars.txt; the facts the agent took from it stay in the graph.' },
    });
    expect(documents.documents.map((known) => known.name)).toEqual(['dogs.txt']);

    await documents.deleteDocument({ id: 1, name: 'mars.txt' });
    expect(documents.change).toMatchObject({ report: { tone: 'failure', problems: ['there is no document 1'] } });
    expect(calls.filter((call) => call.startsWith('documentDelete'))).toEqual(['documentDelete 1', 'documentDelete 1']);
  });

  it('imports and deletes nothing in a read-only tab, and says why', async () => {
    const { host, calls } = fakeHost({ canWrite: false });
    const documents = new Documents(host);
    expect(documents.blockedReason).toMatch(/open in another tab/);
    await documents.importFile(textFile('mars.txt', MARS));
    await documents.deleteDocument({ id: 1, name: 'mars.txt' });
    expect(documents.change).toEqual({ status: 'idle' });
    expect(calls).toEqual([]);
  });

  it('shows the facts a cycle took from a document once the list is fetched again', async () => {
    const { host, ingest } = fakeHost();
    const documents = new Documents(host);
    await documents.importFile(textFile('mars.txt', MARS));
    ingest(1, 3);
    await documents.load();
    flushSync();
    expect(documents.documents[0]).toMatchObject({ name: 'mars.txt', ingestedAt: 10, factsExtracted: 3 });
  });

  it('fetches once more after the fetch in flight when asked again, however often', async () => {
    const { host, calls, held } = fakeHost({ isHoldingLists: true });
    const documents = new Documents(host);
    const first = documents.load();
    const second = documents.load();
    expect(documents.load()).toBe(second);
    expect(documents.status).toBe('loading');
    await Promise.resolve();
    expect(calls).toEqual(['documentList']);

    held.shift()?.();
    await first;
    await Promise.resolve();
    expect(calls).toEqual(['documentList', 'documentList']);
    held.shift()?.();
    await second;
    expect(documents.status).toBe('ready');
  });

  it('reports a list that cannot be fetched', async () => {
    const host: DocumentsHost = {
      client: { documentList: async () => Promise.reject(new Error('not implemented')) } as unknown as AgentApi,
      sessionId: 's',
      canWrite: true,
    };
    const documents = new Documents(host);
    await documents.load();
    expect(documents.status).toBe('error');
    expect(documents.errorMessage).toBe('not implemented');
  });

  it('refuses a file over the limit before reading it', async () => {
    const { host, calls } = fakeHost();
    const documents = new Documents(host);
    let isRead = false;
    await documents.importFile({ name: 'huge.txt', size: 3 * 1024 * 1024, text: async () => ((isRead = true), '') });
    expect(isRead).toBe(false);
    expect(calls.filter((call) => call.startsWith('documentImport'))).toEqual([]);
    expect(documents.change).toMatchObject({
      status: 'ended',
      report: { tone: 'failure', problems: ['it is over 2 MB; split it into smaller documents'] },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from '../graph.ts';
import { readGraphFile } from './read-graph-file.ts';
import type { KgImportFormat } from './statement.ts';

const read = (source: string | Blob, format: KgImportFormat) => readGraphFile({ source, format, batch: new KnowledgeGraph().batch({ now: 1 }) });

describe('reading a graph file', () => {
  it('reports bytes that are not UTF-8 as a problem of the file, with the line', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('Dog,is-a,Mammal\nCat,is-a,'), 0xff, 0xfe, ...new TextEncoder().encode('Mammal\n')]);
    expect(await read(new Blob([bytes]), 'csv')).toEqual({ ok: false, error: [{ line: 2, message: expect.stringContaining('not UTF-8 text') }] });
  });

  it('names the last line when the file ends inside a statement', async () => {
    const text = '<http://e.org/a> <http://e.org/b> <http://e.org/c> .\n<http://e.org/a> <http://e.org/b> <http://e.org/d>\n\n';
    expect(await read(text, 'n-triples')).toMatchObject({ ok: false, error: [{ line: 2 }] });
  });

  it('reads an empty file as no statements', async () => {
    expect(await read(new Blob([]), 'turtle')).toEqual({ ok: true, value: { statements: 0, totalBytes: 0 } });
  });
});

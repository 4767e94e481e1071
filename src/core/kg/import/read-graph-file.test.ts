import { openAsBlob } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testService } from '#core/testing/test-database.ts';
import { KnowledgeGraph } from '../graph.ts';
import { readGraphFile } from './read-graph-file.ts';
import type { KgImportFormat } from './statement.ts';

const read = (source: string | Blob, format: KgImportFormat) =>
  readGraphFile({ source, format, batch: new KnowledgeGraph().batch({ now: 1 }) });

describe('reading a graph file', () => {
  it('reports bytes that are not UTF-8 as a problem of the file, with the line', async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('Dog,is-a,Mammal\nCat,is-a,'),
      0xff,
      0xfe,
      ...new TextEncoder().encode('Mammal\n'),
    ]);
    expect(await read(new Blob([bytes]), 'csv')).toEqual({
      ok: false,
      error: [
        {
          line: 2,
          message:
            'the file is not UTF-8 text: the byte 0xFF at offset 25 (counting from 0) does not start a UTF-8 character; save the file as UTF-8',
        },
      ],
    });
  });

  it('gives the exact byte offset and line of a bad byte far into a large file', async () => {
    // Many chunks of three-byte characters, so characters straddle the stream's chunk boundaries.
    const head = new TextEncoder().encode(`${'Dög,is-a,導物\n'.repeat(20_000)}Cat,is-a,`);
    const bytes = new Uint8Array([...head, 0xe2, 0x41, ...new TextEncoder().encode('\n')]);
    expect(await read(new Blob([bytes]), 'csv')).toEqual({
      ok: false,
      error: [{ line: 20_001, message: expect.stringContaining(`the byte 0xE2 at offset ${head.length} `) }],
    });
  });

  it('says when a file ends inside a character', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('Dog,is-a,Mammal\nCat,is-a,Mam'), 0xf0, 0x9f]);
    expect(await read(new Blob([bytes]), 'csv')).toEqual({
      ok: false,
      error: [{ line: 2, message: expect.stringContaining('ends in the middle of a character, at byte offset 28') }],
    });
  });

  it('names the last line when the file ends inside a statement', async () => {
    const text =
      '<http://e.org/a> <http://e.org/b> <http://e.org/c> .\n<http://e.org/a> <http://e.org/b> <http://e.org/d>\n\n';
    expect(await read(text, 'n-triples')).toMatchObject({ ok: false, error: [{ line: 2 }] });
  });

  it('refuses an empty file, and a file with no statements, saying so', async () => {
    expect(await read(new Blob([]), 'turtle')).toEqual({ ok: false, error: [{ message: 'the file is empty' }] });
    expect(await read('# only a comment\n\n', 'csv')).toEqual({
      ok: false,
      error: [{ message: 'the file holds no statements' }],
    });
  });

  it('stops a file too large for one import, naming where', async () => {
    const lines = Array.from({ length: 50 }, (_, index) => `Thing${index},is-a,Thing\n`).join('');
    const outcome = await readGraphFile({
      source: lines,
      format: 'csv',
      batch: new KnowledgeGraph().batch({ now: 1 }),
      maxStatements: 20,
    });
    expect(outcome).toMatchObject({
      ok: false,
      error: [{ message: expect.stringContaining('more than 20 statements') }],
    });
    // A file of exactly the limit is taken: it does not hold more.
    const exactly = Array.from({ length: 20 }, (_, index) => `Thing${index},is-a,Thing\n`).join('');
    expect(
      await readGraphFile({
        source: exactly,
        format: 'csv',
        batch: new KnowledgeGraph().batch({ now: 1 }),
        maxStatements: 20,
      }),
    ).toMatchObject({ ok: true, value: { statements: 20 } });
  });

  it('names unknown prefixes, malformed IRIs and broken literals with their lines', async () => {
    expect(await read('@prefix : <urn:x#> .\n:a :b :c .\nfoo:a :b :c .\n', 'turtle')).toMatchObject({
      ok: false,
      error: [{ line: 3, message: expect.stringContaining('foo:') }],
    });
    expect(
      await read(
        '<http://e.org/a> <http://e.org/b> <http://e.org/c> .\n<http://e.org/a b> <http://e.org/b> <http://e.org/c> .\n',
        'n-triples',
      ),
    ).toMatchObject({
      ok: false,
      error: [{ line: 2 }],
    });
    expect(
      await read(
        '<http://e.org/a> <http://e.org/b> "unterminated .\n<http://e.org/a> <http://e.org/b> <http://e.org/c> .\n',
        'n-triples',
      ),
    ).toMatchObject({
      ok: false,
      error: [{ line: 1 }],
    });
  });

  it(
    'a file streamed from disk, as the CLI reads it, gives the same graph as its text read whole',
    { timeout: 60_000 },
    async () => {
      const folder = await mkdtemp(join(tmpdir(), 'anima-stream-'));
      // Multi-byte characters everywhere, so chunk boundaries fall inside them.
      const files: Record<KgImportFormat, string> = {
        'n-triples': Array.from(
          { length: 20_000 },
          (_, n) =>
            `<http://example.org/Dïng_${n % 3000}> <http://example.org/p${n % 9}> ${n % 2 ? `"näme ${n} — 🐕"@de` : `<http://example.org/Dïng_${(n * 7) % 5000}>`} .\n`,
        ).join(''),
        turtle: `@prefix : <http://example.org/> .\n${Array.from({ length: 5_000 }, (_, n) => `:Thing${n % 800} :p${n % 5} "wert ${n} ✓" ; :q :Thing${(n * 3) % 900} .\n`).join('')}`,
        csv: `subject,predicate,object,confidence\n${Array.from({ length: 10_000 }, (_, n) => `Tïer ${n % 1500},"ist, ein",Wesen ${n % 40},0.${(n % 9) + 1}\n`).join('')}`,
      };
      for (const [format, text] of Object.entries(files) as [KgImportFormat, string][]) {
        const path = join(folder, `graph.${format}`);
        await writeFile(path, text);
        const graphs = await Promise.all(
          [text, await openAsBlob(path)].map(async (data) => {
            const { service } = testService();
            const { session } = await service.open({});
            const imported = await service.kgImport({
              sessionId: session.id,
              operationId: 'op',
              fileName: path,
              format,
              data,
            });
            expect(imported).toMatchObject({ ok: true });
            return (await service.kgExport({ sessionId: session.id, format: 'n-triples' })).text;
          }),
        );
        expect(graphs[1]).toBe(graphs[0]);
        expect(graphs[0]!.split('\n').length).toBeGreaterThan(2_000);
      }
    },
  );
});

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fileKindOf } from './file-kind.ts';

const bytesOf = (text: string) => new TextEncoder().encode(text);

describe('telling a file by its content', () => {
  it('knows a snapshot, gzipped or not, whatever its name', () => {
    const snapshot = JSON.stringify({ format: 'anima-snapshot', version: 3, session: { name: 'x' } });
    expect(fileKindOf('backup.txt', bytesOf(snapshot))).toEqual({ kind: 'snapshot' });
    expect(fileKindOf('backup', gzipSync(snapshot))).toEqual({ kind: 'snapshot' });
  });

  it('knows a persona: a bundle, a character card as JSON (V1 to V3) or as PNG', () => {
    expect(fileKindOf('a.json', bytesOf('{"format": "anima-persona", "version": 1}'))).toEqual({ kind: 'persona' });
    expect(fileKindOf('a.json', bytesOf('{"spec":"chara_card_v2","data":{}}'))).toEqual({ kind: 'persona' });
    expect(fileKindOf('a.json', bytesOf('{"name":"Ann","first_mes":"Hi"}'))).toEqual({ kind: 'persona' });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    expect(fileKindOf('card.bin', png)).toEqual({ kind: 'persona' });
  });

  it('knows a psyche.toml by its sections', () => {
    expect(fileKindOf('mine.txt', bytesOf('# mine\n[persona]\nname = "x"\n'))).toEqual({ kind: 'psyche' });
    expect(fileKindOf('x', bytesOf('[[shadow.veto_patterns]]\nname = "a"\n'))).toEqual({ kind: 'psyche' });
  });

  it('knows a graph and its format by its text, the file name settling CSV', () => {
    const starter = readFileSync('public/starter-graph.ttl');
    expect(fileKindOf('graph.data', starter)).toEqual({ kind: 'graph', format: 'turtle' });
    const triples = '<http://a.org/x> <http://a.org/p> "1" .\n<http://a.org/y> <http://a.org/p> <http://a.org/x> .\n';
    expect(fileKindOf('dump.txt', bytesOf(triples))).toEqual({ kind: 'graph', format: 'n-triples' });
    expect(fileKindOf('facts.csv', bytesOf('subject,predicate,object\nDog,is-a,Mammal\n'))).toEqual({
      kind: 'graph',
      format: 'csv',
    });
  });

  it('says nothing of a file that is none of them', () => {
    expect(fileKindOf('notes.txt', bytesOf('Dear diary, today I met a dog.'))).toBeUndefined();
    expect(fileKindOf('data.json', bytesOf('{"hello": "world"}'))).toBeUndefined();
    expect(fileKindOf('empty.ttl', new Uint8Array())).toEqual({ kind: 'graph', format: 'turtle' });
  });
});

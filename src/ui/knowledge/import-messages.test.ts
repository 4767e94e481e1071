import { describe, expect, it } from 'vitest';
import { describeImportOutcome, describeImportPreview } from './import-messages.ts';

const stats = { symbols: 0, entities: 0, relations: 0, literals: 0, triples: 0 };

describe('describeImportOutcome', () => {
  it('tells how many statements were read and what they changed', () => {
    const report = describeImportOutcome(
      { ok: true, statements: 123, added: 120, updated: 3, symbolsAdded: 40, stats },
      'animals.nt',
    );
    expect(report).toEqual({
      tone: 'success',
      message: 'Imported 123 statements: 120 new triples, 3 raised in confidence.',
    });
  });

  it("says which relations of the file join known ones, and which things share a name with the graph's", () => {
    const shared = {
      relations: { count: 2, examples: [{ relation: 'http://www.wikidata.org/prop/direct/P279', joins: 'is-a' }] },
      sameNames: { count: 1, linked: 0, examples: [{ symbol: 'dog (pet)', existing: 'dog' }] },
    };
    const report = describeImportOutcome(
      { ok: true, statements: 5, added: 5, updated: 0, symbolsAdded: 6, stats, shared },
      'dogs.ttl',
    );
    expect(report.message).toBe(
      'Imported 5 statements: 5 new triples, 0 raised in confidence. 2 relations of the file join known ones: http://www.wikidata.org/prop/direct/P279 as is-a and 1 more. ' +
        '1 thing has the name of one in the graph (“dog (pet)” and “dog”); they are kept apart. To treat them as the same, tick “Link things of the same name” and import the file again.',
    );
    const linked = describeImportOutcome(
      {
        ok: true,
        statements: 5,
        added: 6,
        updated: 0,
        symbolsAdded: 6,
        stats,
        shared: { ...shared, sameNames: { ...shared.sameNames, linked: 1 } },
      },
      'dogs.ttl',
    );
    expect(linked.message).toContain(
      "Linked 1 thing to the graph's of the same name, as the same: “dog (pet)” and “dog”.",
    );
  });

  it('uses the singular for one statement and one new triple', () => {
    const report = describeImportOutcome(
      { ok: true, statements: 1, added: 1, updated: 0, symbolsAdded: 2, stats },
      'one.csv',
    );
    expect(report.message).toBe('Imported 1 statement: 1 new triple, 0 raised in confidence.');
  });

  it('says a file that did not fit in storage stored nothing, and what to do', () => {
    const report = describeImportOutcome(
      { ok: false, reason: 'storage-full', problems: [{ message: 'storage is full' }] },
      'big.nt',
    );
    expect(report).toEqual({
      tone: 'failure',
      message:
        '“big.nt” was not imported: storage is full, and nothing of it was kept. Free space (delete a model or a session) or allow more storage, then try again.',
      problems: [],
    });
  });

  it('lists each problem of a rejected file with its line', () => {
    const report = describeImportOutcome(
      { ok: false, reason: 'invalid', problems: [{ line: 3, message: 'expected an object' }] },
      'broken.nt',
    );
    expect(report).toEqual({
      tone: 'failure',
      message: '“broken.nt” was not imported; nothing was changed.',
      problems: ['line 3: expected an object'],
    });
  });

  it('says a cancelled import changed nothing, without repeating the agent’s own wording', () => {
    const report = describeImportOutcome(
      { ok: false, reason: 'cancelled', problems: [{ message: 'the import was cancelled' }] },
      'big.ttl',
    );
    expect(report).toEqual({ tone: 'failure', message: 'Import cancelled; nothing was changed.', problems: [] });
  });

  it('asks for a format when the file name does not give one', () => {
    const report = describeImportOutcome(
      { ok: false, reason: 'unknown-format', problems: [{ message: 'cannot tell' }] },
      'notes.txt',
    );
    expect(report.message).toContain('“notes.txt”');
  });
});

describe('describeImportPreview', () => {
  it('says what the file would add and share, how to link before importing, and that nothing is imported yet', () => {
    const shared = {
      relations: { count: 1, examples: [{ relation: 'skos:narrower', joins: 'is-a, read backwards' }] },
      sameNames: { count: 1, linked: 0, examples: [{ symbol: 'lion (big cat)', existing: 'Lion' }] },
    };
    const report = describeImportPreview(
      { ok: true, statements: 9, added: 8, updated: 1, symbolsAdded: 6, stats, shared, isDryRun: true },
      'felines.ttl',
    );
    expect(report).toEqual({
      tone: 'success',
      message:
        '“felines.ttl” would add 8 new triples (of 9 statements) and raise 1 in confidence. ' +
        '1 relation of the file would join a known one: skos:narrower as is-a, read backwards. ' +
        '1 thing has the name of one in the graph (“lion (big cat)” and “Lion”): to treat them as the same, tick “Link things of the same name” before you import; else they are kept apart. ' +
        'Nothing is in the graph until you import it.',
    });
  });

  it('says why a file cannot be read, as an import would', () => {
    const report = describeImportPreview(
      { ok: false, reason: 'invalid', problems: [{ line: 3, message: 'expected a dot' }] },
      'broken.ttl',
    );
    expect(report).toMatchObject({ tone: 'failure', message: '“broken.ttl” was not imported; nothing was changed.' });
  });
});

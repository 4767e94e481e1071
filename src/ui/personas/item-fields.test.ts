import { describe, expect, it } from 'vitest';
import {
  ITEM_FIELDS,
  arcCreateOf,
  draftOf,
  emptyDraft,
  fieldKeys,
  fieldsOf,
  splitLines,
  splitTags,
} from './item-fields.ts';

describe('item forms', () => {
  it('start empty, with a type and full severity chosen', () => {
    expect(emptyDraft('part')).toEqual({
      name: '',
      type: 'identity',
      description: '',
      summary: '',
      content: '',
      tags: '',
    });
    expect(emptyDraft('trait').type).toBe('personality');
    expect(emptyDraft('guardrail')).toMatchObject({ severity: '1', triggers: '', requireApproval: false });
  });

  it('become the fields the catalog takes: tags by commas, triggers by lines, severity as a number', () => {
    const draft = {
      ...emptyDraft('guardrail'),
      name: 'no-deletions',
      severity: ' 0.9 ',
      triggers: 'kg_mutate\n\n  rm -rf  \r\n',
      requireApproval: true,
      tags: 'safety, , data ',
    };
    expect(fieldsOf('guardrail', draft)).toEqual({
      name: 'no-deletions',
      description: '',
      content: '',
      severity: 0.9,
      triggers: ['kg_mutate', 'rm -rf'],
      requireApproval: true,
      tags: ['safety', 'data'],
    });
    // A severity that is not a number goes as typed: the catalog says what is wrong, at its field.
    expect(fieldsOf('guardrail', { ...draft, severity: 'high' }).severity).toBe('high');
    // Only a plain decimal is a number: 0x1 and 1e0 would both be 1 to JavaScript.
    expect(fieldsOf('guardrail', { ...draft, severity: '0x1' }).severity).toBe('0x1');
    expect(fieldsOf('guardrail', { ...draft, severity: '1e0' }).severity).toBe('1e0');
  });

  it('come back from a stored item as typed', () => {
    const part = {
      name: 'warm-tone',
      type: 'tone',
      description: '',
      summary: 'Speak warmly.',
      content: '',
      tags: ['calm', 'kind'],
      usedBy: ['Mentor'],
      createdAt: 1,
      updatedAt: 2,
    };
    expect(draftOf('part', part)).toEqual({
      name: 'warm-tone',
      type: 'tone',
      description: '',
      summary: 'Speak warmly.',
      content: '',
      tags: 'calm, kind',
    });
    expect(fieldsOf('part', draftOf('part', part))).toEqual({
      name: 'warm-tone',
      type: 'tone',
      description: '',
      summary: 'Speak warmly.',
      content: '',
      tags: ['calm', 'kind'],
    });
    const guardrail = {
      name: 'g',
      description: '',
      content: '',
      severity: 0.5,
      triggers: ['a', 'b c'],
      requireApproval: true,
      tags: [],
    };
    expect(draftOf('guardrail', guardrail)).toMatchObject({
      severity: '0.5',
      triggers: 'a\nb c',
      requireApproval: true,
    });
  });

  it('make an arc and its stages, one stage name a line', () => {
    expect(arcCreateOf({ ...emptyDraft('arc'), name: 'growth', stages: 'novice\n\n stern \nmaster' })).toEqual({
      fields: { name: 'growth', description: '', summary: '' },
      stages: [{ name: 'novice' }, { name: 'stern' }, { name: 'master' }],
    });
  });

  it("name each field by the catalog's key, so problems find their field", () => {
    expect(fieldKeys('persona')).toEqual(['name', 'description', 'summary', 'detail', 'tags']);
    expect(fieldKeys('stage')).toEqual(['name', 'description', 'condition']);
    for (const fields of Object.values(ITEM_FIELDS))
      expect(new Set(fields.map((field) => field.label)).size).toBe(fields.length);
    expect(splitTags(' a,b ,,')).toEqual(['a', 'b']);
    expect(splitLines('a\r\n\n b ')).toEqual(['a', 'b']);
  });
});

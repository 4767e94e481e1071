import { describe, expect, it } from 'vitest';
import { describeSave, formOf, webAccessOf } from './web-access-form.ts';

describe('the web access form', () => {
  it('holds one prefix per line and drops blank lines', () => {
    const form = formOf({
      allowedPrefixes: ['https://a.example/', 'https://b.example/x/'],
      timeoutSeconds: 10,
      maxKilobytes: 1024,
    });
    expect(form.prefixes).toBe('https://a.example/\nhttps://b.example/x/');
    expect(
      webAccessOf({ ...form, prefixes: '  https://a.example/ \n\n https://c.example/\n' }).allowedPrefixes,
    ).toEqual(['https://a.example/', 'https://c.example/']);
  });

  it('names a refused prefix by its line in the form', () => {
    expect(
      describeSave({
        ok: false,
        problems: [{ path: 'allowedPrefixes.1', message: '"ftp://x" is not an http or https address' }],
      }),
    ).toEqual({
      tone: 'failure',
      message: 'Web access was not changed:',
      problems: ['line 2: "ftp://x" is not an http or https address'],
    });
    expect(
      describeSave({ ok: true, webAccess: { allowedPrefixes: [], timeoutSeconds: 10, maxKilobytes: 1024 } }).message,
    ).toBe('Saved: the agent stays off the web.');
    expect(
      describeSave({
        ok: true,
        webAccess: { allowedPrefixes: ['https://a.example/'], timeoutSeconds: 10, maxKilobytes: 1024 },
      }).message,
    ).toMatch(/^Saved: the agent may fetch from 1 address prefix/);
  });
});

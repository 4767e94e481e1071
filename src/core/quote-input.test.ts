import { describe, expect, it } from 'vitest';
import { quoteInput } from './quote-input.ts';

describe('quoteInput', () => {
  it('quotes short text whole, with control characters escaped', () => {
    expect(quoteInput('a "b"\n')).toBe('"a \\"b\\"\\n"');
  });

  it('cuts long text to the limit and says how long it was', () => {
    const quoted = quoteInput('x'.repeat(10_000_000));
    expect(quoted).toBe(`"${'x'.repeat(200)}…" (10,000,000 characters)`);
  });

  it('keeps text of exactly the limit whole', () => {
    expect(quoteInput('y'.repeat(5), 5)).toBe('"yyyyy"');
  });

  it('does not split a surrogate pair at the cut', () => {
    const quoted = quoteInput(`${'a'.repeat(4)}😀zz`, 5);
    expect(quoted).toBe('"aaaa…" (8 characters)');
  });
});

describe('quoteInput and characters that show as nothing', () => {
  it('escapes zero-width, bidi, C1 and separator characters so the message shows them', () => {
    expect(quoteInput('\u200b\u200b')).toBe('"\\u200b\\u200b"');
    expect(quoteInput('a\u202ebc\u0085\u2028')).toBe('"a\\u202ebc\\u0085\\u2028"');
  });

  it('escapes a tag character beyond U+FFFF as JSON does, one unit at a time', () => {
    const quoted = quoteInput('x\u{E0041}');
    expect(quoted).toBe('"x\\udb40\\udc41"');
    expect(JSON.parse(quoted)).toBe('x\u{E0041}');
  });

  it('leaves visible text alone', () => {
    expect(quoteInput('導 é 😀')).toBe('"導 é 😀"');
  });
});

// Characters a reader of a message would not see, or that would reorder or break its line:
// zero-width and other default-ignorable characters (bidi controls among them), C1 controls,
// line and paragraph separators. JSON.stringify leaves them as they are.
const UNSEEN = /[\p{Default_Ignorable_Code_Point}\u0080-\u009f\u2028\u2029]/gu;

/**
 * Shows a piece of a user's file inside a message: JSON-quoted (so control characters and quotes
 * stay visible and cannot break the line), characters that show as nothing escaped, and cut to
 * `max` characters with an ellipsis and the original length when longer, so a 10 MB line that
 * does not parse is not echoed whole.
 */
export function quoteInput(text: string, max = 200): string {
  // Escaped unit by unit, as JSON writes characters beyond U+FFFF (tag characters are).
  const escape = (quoted: string) =>
    quoted.replace(UNSEEN, (character) =>
      Array.from(
        { length: character.length },
        (_, index) => `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`,
      ).join(''),
    );
  if (text.length <= max) return escape(JSON.stringify(text));
  // Never cut between the two halves of a surrogate pair: that would print a lone half.
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${escape(JSON.stringify(`${text.slice(0, end)}…`))} (${text.length.toLocaleString('en')} characters)`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

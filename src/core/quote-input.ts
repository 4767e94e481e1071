/**
 * Shows a piece of a user's file inside a message: JSON-quoted (so control characters and quotes
 * stay visible and cannot break the line), and cut to `max` characters with an ellipsis and the
 * original length when longer, so a 10 MB line that does not parse is not echoed whole.
 */
export function quoteInput(text: string, max = 200): string {
  if (text.length <= max) return JSON.stringify(text);
  // Never cut between the two halves of a surrogate pair: that would print a lone half.
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${JSON.stringify(`${text.slice(0, end)}…`)} (${text.length.toLocaleString('en')} characters)`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

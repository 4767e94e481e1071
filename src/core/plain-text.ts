/** Labels longer than this are cut (with an ellipsis) so one runaway label cannot swamp a text. */
export const MAX_LABEL_LENGTH = 200;

// Line breaks, tabs and other whitespace (Unicode line and paragraph separators included) and
// control characters: collapsed to one space so a label can never start a line of its own.
const BREAKS_AND_CONTROLS = /[\s\p{Cc}]+/gu;
// Bidirectional overrides and isolates can make text display in another order than it reads.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/gu;

/**
 * Makes untrusted text (labels, goal text, keywords) safe to place inside one line of output:
 * one line, no control characters, trimmed, at most `maxLength` characters. It is plain text for
 * a `white-space: pre-wrap` view: nothing is escaped for HTML, and nothing in it is ever read as a
 * template (placeholders are filled in one pass that never rescans inserted text).
 */
export function plainText(text: string, maxLength = MAX_LABEL_LENGTH): string {
  const line = text.replace(BIDI_CONTROLS, '').replace(BREAKS_AND_CONTROLS, ' ').trim();
  if (line.length <= maxLength) return line;
  // Cut by code points so a surrogate pair is never split.
  return `${Array.from(line)
    .slice(0, maxLength - 1)
    .join('')
    .trimEnd()}…`;
}

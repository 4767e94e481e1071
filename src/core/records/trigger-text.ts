const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g;
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
// Characters that render as nothing (zero-width, bidi controls, variation selectors, tag
// characters): they would split a trigger without being seen.
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The form both triggers and descriptions are compared in, so a trigger cannot be dodged by
 * spelling: JSON escapes decoded (twice, for input that was itself JSON text), Unicode NFKC
 * (full-width letters, ligatures), invisible characters removed, lower case, every run of
 * whitespace one space.
 */
export function normaliseForShadow(text: string): string {
  let decoded = text;
  for (let pass = 0; pass < 2; pass++) {
    decoded = decoded.replace(JSON_ESCAPE, (_escape, hex: string | undefined, simple: string | undefined) =>
      hex !== undefined ? String.fromCharCode(Number.parseInt(hex, 16)) : SIMPLE_ESCAPES[simple!]!,
    );
  }
  return decoded.normalize('NFKC').replace(INVISIBLE, '').toLowerCase().replace(/\s+/gu, ' ');
}

/** A text trigger as it is matched: normalised, without the spaces around it. '' (nothing visible left) matches nothing. */
export function matchedTriggerText(trigger: string): string {
  return normaliseForShadow(trigger).trim();
}

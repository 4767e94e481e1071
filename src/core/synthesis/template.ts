// `{name}` is a placeholder; `{{` and `}}` are literal braces. Anything else between braces is
// captured too, so a misspelt placeholder is reported rather than printed.
const TOKEN = /\{\{|\}\}|\{([^{}]*)\}/g;

/** The placeholder names a template uses, in order (escaped braces are not placeholders). */
export function placeholdersIn(template: string): string[] {
  return Array.from(template.matchAll(TOKEN), (match) => match[1]).filter((name) => name !== undefined);
}

/**
 * Fills a template in one pass: each placeholder is replaced by its value, and inserted values are
 * never scanned again, so a label that reads `{subject}` stays `{subject}`. Grammars are checked
 * when parsed (see `grammarSchema`); an unknown name left here is printed as it was written.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(TOKEN, (token, name: string | undefined) => {
    if (name === undefined) return token[0] ?? '';
    // Own keys only: `{constructor}` must not find Object.prototype's.
    return Object.hasOwn(values, name) ? (values[name] ?? token) : token;
  });
}

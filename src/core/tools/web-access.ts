import { z } from 'zod';
import type { Problem, Result } from '#core/result.ts';

/**
 * What the user allows the agent on the web (a device setting, never exported): the address
 * prefixes http_fetch may GET, and its caps. With no prefix allowed, the agent stays offline.
 */
export const webAccessSchema = z.object({
  allowedPrefixes: z.array(z.string().max(2000)).max(100),
  timeoutSeconds: z.number().int().min(1).max(60),
  maxKilobytes: z.number().int().min(1).max(10_240),
});
export type WebAccess = z.infer<typeof webAccessSchema>;

export const DEFAULT_WEB_ACCESS: WebAccess = { allowedPrefixes: [], timeoutSeconds: 10, maxKilobytes: 1024 };

/** The settings key it is stored under. */
export const WEB_ACCESS_KEY = 'webAccess';

/** Checks a web access setting: every prefix an http(s) address, written as the browser would. */
export function parseWebAccess(value: unknown): Result<WebAccess> {
  const parsed = webAccessSchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      error: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    };
  const problems: Problem[] = [];
  const allowedPrefixes = parsed.data.allowedPrefixes.flatMap((prefix, index) => {
    const trimmed = prefix.trim();
    if (trimmed === '') return [];
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      problems.push({
        path: `allowedPrefixes.${index}`,
        message: `"${trimmed}" is not a web address (start it with https://)`,
      });
      return [];
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      problems.push({ path: `allowedPrefixes.${index}`, message: `"${trimmed}" is not an http or https address` });
    else if (url.username !== '' || url.password !== '')
      problems.push({
        path: `allowedPrefixes.${index}`,
        message: `"${trimmed}" holds a user name or password: http_fetch sends none, so leave them out`,
      });
    return [url.href];
  });
  return problems.length > 0
    ? { ok: false, error: problems }
    : { ok: true, value: { ...parsed.data, allowedPrefixes: [...new Set(allowedPrefixes)] } };
}

/**
 * Whether an address is one the user allowed: read as the browser reads it (host case, default
 * port and dot segments do not matter), on a prefix's own scheme, host and port, with no user
 * name or password, and under its path at a whole segment ("https://example.org/docs" allows
 * "/docs/a", not "/docs-private"). An encoded slash or backslash after the prefix is refused:
 * some servers decode it and climb out of the allowed folder ("/docs/..%2Fadmin").
 */
export function isAllowed(webAccess: WebAccess, url: string): boolean {
  const address = addressOf(url);
  if (
    !address ||
    (address.protocol !== 'http:' && address.protocol !== 'https:') ||
    address.username !== '' ||
    address.password !== ''
  )
    return false;
  return webAccess.allowedPrefixes.some((prefix) => {
    const allowed = addressOf(prefix);
    return allowed !== undefined && isUnder(address, allowed);
  });
}

/** The address a text names, or undefined (`URL.parse` is too new for some browsers Anima runs in). */
function addressOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function isUnder(address: URL, prefix: URL): boolean {
  if (address.origin !== prefix.origin || !address.href.startsWith(prefix.href)) return false;
  // A prefix that names a query or a fragment is matched as written (".../search?q=").
  if (prefix.search !== '' || prefix.hash !== '') return true;
  const rest = address.pathname.slice(prefix.pathname.length);
  if (/%2f|%5c/i.test(rest)) return false;
  return prefix.pathname.endsWith('/') || rest === '' || rest.startsWith('/');
}

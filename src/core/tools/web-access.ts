import { z } from 'zod';
import type { Problem, Result } from '../result.ts';

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
  if (!parsed.success) return { ok: false, error: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) };
  const problems: Problem[] = [];
  const allowedPrefixes = parsed.data.allowedPrefixes.flatMap((prefix, index) => {
    const trimmed = prefix.trim();
    if (trimmed === '') return [];
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      problems.push({ path: `allowedPrefixes.${index}`, message: `"${trimmed}" is not a web address (start it with https://)` });
      return [];
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push({ path: `allowedPrefixes.${index}`, message: `"${trimmed}" is not an http or https address` });
    return [url.href];
  });
  return problems.length > 0 ? { ok: false, error: problems } : { ok: true, value: { ...parsed.data, allowedPrefixes: [...new Set(allowedPrefixes)] } };
}

/** Whether an address is one the user allowed. */
export function isAllowed(webAccess: WebAccess, url: string): boolean {
  return webAccess.allowedPrefixes.some((prefix) => url.startsWith(prefix));
}

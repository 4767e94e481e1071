/**
 * Why a model file could not be downloaded, in words, with the address that failed (the caller
 * gives it without credentials). A browser says no more than "Failed to fetch" both for an
 * unreachable server and for an answer it will not let the page read (no CORS header): asking the
 * server again in a way the page may not read (`serverAnswers`) tells the two apart. Node gives a
 * code that does. The browser's own words are never the whole message.
 */
export function downloadFailureText(url: string, error: unknown, serverAnswered?: boolean): string {
  if (isStorageFull(error)) return storageFullText(url);
  if (!isNetworkFailure(error))
    return `${url} could not be downloaded: ${error instanceof Error ? error.message : String(error)}`;
  if (isOffline()) return `this device is offline, so ${url} cannot be downloaded: add the model once you are online`;
  const code = (error as { cause?: { code?: string } } | undefined)?.cause?.code;
  if (code === 'ECONNREFUSED') return `nothing answers at ${url} (the connection was refused)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `the host of ${url} is not found: check the address for a typo`;
  if (serverAnswered === true)
    return `${url} is blocked by its server's cross-origin policy: the server answers, but does not let other sites download its files (no CORS header). Download the file and add it from this device, or use an address that allows it, as Hugging Face's "resolve" addresses do`;
  if (serverAnswered === false)
    return `nothing answers at ${url}: the server is down, or the address's host is wrong${code ? ` (${code})` : ''}`;
  return `${url} could not be downloaded: the server did not answer, or it does not let other sites download its files (no CORS header; Hugging Face's "resolve" addresses do)${code ? ` (${code})` : ''}`;
}

/** Whether fetch failed on the network (no answer, or one the page may not read), not on a request it refused to make. */
export function isNetworkFailure(error: unknown): boolean {
  if ((error as { cause?: { code?: string } } | undefined)?.cause?.code) return true;
  return (
    error instanceof Error &&
    /^(Failed to fetch|fetch failed|NetworkError when attempting to fetch resource|Load failed)/i.test(error.message)
  );
}

/** Whether the browser says it has no network (Node has no such flag: it is taken to be online). */
export function isOffline(): boolean {
  return (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false;
}

/**
 * Whether a server answers at an address at all, asked without reading the answer (no-cors): a
 * server that answers there but failed the download refuses other sites (CORS). No answer within
 * 10 s counts as none.
 */
export async function serverAnswers(fetcher: typeof fetch, url: string): Promise<boolean> {
  try {
    await fetcher(url, { method: 'HEAD', mode: 'no-cors', signal: AbortSignal.timeout(10_000) });
    return true;
  } catch {
    return false;
  }
}

/** Whether storing failed because this origin's storage is full (its quota is reached). */
export function isStorageFull(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return name === 'QuotaExceededError' || (typeof message === 'string' && /quota/i.test(message));
}

/** How many bytes this origin may still store, where the browser says (not in Node). */
export async function freeStorageBytes(): Promise<number | undefined> {
  type Estimate = { quota?: number; usage?: number };
  const storage = (globalThis as { navigator?: { storage?: { estimate?: () => Promise<Estimate> } } }).navigator
    ?.storage;
  if (!storage?.estimate) return undefined;
  try {
    const { quota, usage } = await storage.estimate();
    return quota === undefined ? undefined : quota - (usage ?? 0);
  } catch {
    return undefined;
  }
}

/** Says that what was being stored does not fit in the storage this browser gives Anima. */
export function storageFullText(what: string): string {
  return `there is no room left in this browser's storage for ${what}: delete a model you no longer use on the Models screen, or choose a smaller one`;
}

/** Says that a download of `bytes` is larger than the storage left (`freeBytes`), before any of it is fetched. */
export function tooLargeForStorageText(url: string, bytes: number, freeBytes: number): string {
  const mb = (value: number) => `${Math.max(0, Math.round(value / 1e6)).toLocaleString('en')} MB`;
  return `${url} is ${mb(bytes)}, more than the ${mb(freeBytes)} this browser still lets Anima store: delete a model you no longer use on the Models screen, or choose a smaller one`;
}

/** What an HTTP status refusing a download means for the user. */
export function downloadStatusText(url: string, status: number, statusText: string): string {
  const words =
    status === 404 || status === 410
      ? 'there is no file at this address: check it, or copy the file\'s "download" link'
      : status === 401 || status === 403
        ? 'the server refused: the file may be private or need you to accept its licence first'
        : status === 429
          ? 'too many requests: wait a while and try again'
          : status >= 500
            ? 'the server failed: try again later'
            : 'the server refused to send the file';
  return `${url} answered ${`${status} ${statusText}`.trim()}: ${words}`;
}

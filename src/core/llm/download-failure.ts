/**
 * Why a model file could not be downloaded, in words, with the address that failed. A browser
 * says no more than "Failed to fetch" both for an unreachable server and for an answer it will
 * not let the page read (no CORS header), so both are named; Node gives a code that tells them apart.
 */
export function downloadFailureText(url: string, error: unknown): string {
  if (!isNetworkFailure(error))
    return `${url} could not be downloaded: ${error instanceof Error ? error.message : String(error)}`;
  const online = (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine ?? true;
  if (!online) return `this device is offline, so ${url} cannot be downloaded; add the model once you are online`;
  const code = (error as { cause?: { code?: string } } | undefined)?.cause?.code;
  if (code === 'ECONNREFUSED') return `nothing answers at ${url} (the connection was refused)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `the host of ${url} is not found: check the address for a typo`;
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

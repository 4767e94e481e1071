import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  downloadFailureText,
  downloadStatusText,
  isStorageFull,
  serverAnswers,
  tooLargeForStorageText,
} from './download-failure.ts';

const URL_ = 'https://example.org/model-q4.gguf';
const failedToFetch = () => new TypeError('Failed to fetch');

describe('a failed model download in words', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('says the device is offline, naming the address', () => {
    vi.stubGlobal('navigator', { onLine: false });
    expect(downloadFailureText(URL_, failedToFetch())).toBe(
      `this device is offline, so ${URL_} cannot be downloaded: add the model once you are online`,
    );
  });

  it('tells a server\'s cross-origin refusal from a server that does not answer, never only "Failed to fetch"', () => {
    const blocked = downloadFailureText(URL_, failedToFetch(), true);
    expect(blocked).toMatch(/^https:\/\/example\.org\/model-q4\.gguf is blocked by its server's cross-origin policy/);
    expect(blocked).toContain('no CORS header');
    expect(downloadFailureText(URL_, failedToFetch(), false)).toBe(
      `nothing answers at ${URL_}: the server is down, or the address's host is wrong`,
    );
    // Not asked: both causes are named.
    expect(downloadFailureText(URL_, failedToFetch())).toMatch(/did not answer, or it does not let other sites/);
    for (const answered of [true, false, undefined])
      expect(downloadFailureText(URL_, failedToFetch(), answered)).not.toMatch(/Failed to fetch/);
  });

  it("reads Node's network codes", () => {
    expect(
      downloadFailureText(URL_, Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } })),
    ).toBe('the host of https://example.org/model-q4.gguf is not found: check the address for a typo');
    expect(
      downloadFailureText(URL_, Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })),
    ).toBe(`nothing answers at ${URL_} (the connection was refused)`);
  });

  it('says what a refusing status means: not found, refused, busy, failed', () => {
    expect(downloadStatusText(URL_, 404, 'Not Found')).toBe(
      `${URL_} answered 404 Not Found: there is no file at this address: check it, or copy the file's "download" link`,
    );
    expect(downloadStatusText(URL_, 403, '')).toBe(
      `${URL_} answered 403: the server refused: the file may be private or need you to accept its licence first`,
    );
    expect(downloadStatusText(URL_, 429, 'Too Many Requests')).toContain('wait a while and try again');
    expect(downloadStatusText(URL_, 503, 'Service Unavailable')).toContain('try again later');
  });

  it('says when the file is too large for the storage left, before or while it is stored', () => {
    expect(tooLargeForStorageText(URL_, 398_000_000, 120_400_000)).toBe(
      `${URL_} is 398 MB, more than the 120 MB this browser still lets Anima store: delete a model you no longer use on the Models screen, or choose a smaller one`,
    );
    const quota = Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
    expect(isStorageFull(quota)).toBe(true);
    expect(isStorageFull(failedToFetch())).toBe(false);
    expect(downloadFailureText(URL_, quota)).toBe(
      `there is no room left in this browser's storage for ${URL_}: delete a model you no longer use on the Models screen, or choose a smaller one`,
    );
  });

  it('asks whether a server answers at all without reading its answer', async () => {
    const modes: RequestInit['mode'][] = [];
    const answering = (async (_url: string, init?: RequestInit) => {
      modes.push(init?.mode);
      return new Response(null, { status: 200 });
    }) as typeof fetch;
    expect(await serverAnswers(answering, URL_)).toBe(true);
    expect(modes).toEqual(['no-cors']);
    const silent = (async () => {
      throw failedToFetch();
    }) as typeof fetch;
    expect(await serverAnswers(silent, URL_)).toBe(false);
  });
});

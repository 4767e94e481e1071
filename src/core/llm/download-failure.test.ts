import { describe, expect, it } from 'vitest';
import { downloadFailureText, downloadStatusText } from './download-failure.ts';

const URL_ = 'https://example.org/model-q4.gguf';

describe('a failed model download in words', () => {
  it('names the address and the likely reason, never only "Failed to fetch"', () => {
    expect(downloadFailureText(URL_, new TypeError('Failed to fetch'))).toMatch(
      /^https:\/\/example\.org\/model-q4\.gguf could not be downloaded: .*CORS/,
    );
    expect(
      downloadFailureText(URL_, Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } })),
    ).toBe('the host of https://example.org/model-q4.gguf is not found: check the address for a typo');
    expect(
      downloadFailureText(URL_, Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })),
    ).toContain('refused');
  });

  it('says what a refusing status means', () => {
    expect(downloadStatusText(URL_, 404, 'Not Found')).toBe(
      `${URL_} answered 404 Not Found: there is no file at this address: check it, or copy the file's "download" link`,
    );
    expect(downloadStatusText(URL_, 403, '')).toContain('answered 403: the server refused');
    expect(downloadStatusText(URL_, 503, 'Service Unavailable')).toContain('try again later');
  });
});

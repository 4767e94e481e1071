import { describe, expect, it } from 'vitest';
import { DEFAULT_WEB_ACCESS, type WebAccess, isAllowed, parseWebAccess } from './web-access.ts';

/** A web access setting as the Settings screen saves it: the prefixes written as the browser would. */
function allowing(...prefixes: string[]): WebAccess {
  const parsed = parseWebAccess({ ...DEFAULT_WEB_ACCESS, allowedPrefixes: prefixes });
  if (!parsed.ok) throw new Error(`not a valid setting: ${JSON.stringify(parsed.error)}`);
  return parsed.value;
}

describe('isAllowed', () => {
  it('allows an address under an allowed host however its host, port and path are written', () => {
    const webAccess = allowing('https://Example.com');
    for (const url of [
      'https://example.com/',
      'https://EXAMPLE.com/Dog',
      'https://example.com:443/Dog',
      'https://example.com/a/../Dog',
      'https://example.com/Dog?format=ttl#it',
    ])
      expect(isAllowed(webAccess, url), url).toBe(true);
  });

  it('refuses look-alike hosts, other ports and schemes, and user names and passwords', () => {
    const webAccess = allowing('https://example.com');
    for (const url of [
      'https://example.com.evil.org/',
      'https://example.com@evil.org/',
      'https://example.com:secret@evil.org/',
      'https://user:secret@example.com/',
      'https://evil.org/?https://example.com/',
      'https://evil.org/#https://example.com/',
      'https://example.com:8443/',
      'http://example.com/',
      'ftp://example.com/',
      'not an address',
    ])
      expect(isAllowed(webAccess, url), url).toBe(false);
  });

  it('allows a folder prefix only at whole segments, and refuses climbing out of it', () => {
    const webAccess = allowing('https://example.com/docs');
    for (const url of [
      'https://example.com/docs',
      'https://example.com/docs/Dog',
      'https://example.com/docs?x=1',
      'https://example.com/docs#top',
    ])
      expect(isAllowed(webAccess, url), url).toBe(true);
    for (const url of [
      'https://example.com/docs-private',
      'https://example.com/docs.evil.org',
      'https://example.com/docs/../admin',
      'https://example.com/docs/%2e%2e/admin',
      // Decoded by some servers (nginx, for one) into "../admin".
      'https://example.com/docs/..%2Fadmin',
      'https://example.com/docs/%2e%2e%2fadmin',
      'https://example.com/docs/..%5cadmin',
      'https://example.com/',
    ])
      expect(isAllowed(webAccess, url), url).toBe(false);
  });

  it('matches a prefix that names a query as written', () => {
    const webAccess = allowing('https://example.com/search?q=');
    expect(isAllowed(webAccess, 'https://example.com/search?q=dog')).toBe(true);
    expect(isAllowed(webAccess, 'https://example.com/search?id=1')).toBe(false);
    expect(isAllowed(webAccess, 'https://example.com/search/other?q=dog')).toBe(false);
  });

  it('allows nothing when no prefix is allowed', () => {
    expect(isAllowed(DEFAULT_WEB_ACCESS, 'https://example.com/')).toBe(false);
  });
});

describe('parseWebAccess', () => {
  it('refuses a prefix with a user name or password, naming its line', () => {
    expect(
      parseWebAccess({
        ...DEFAULT_WEB_ACCESS,
        allowedPrefixes: ['https://example.org/', 'https://me:secret@example.com/'],
      }),
    ).toEqual({
      ok: false,
      error: [
        {
          path: 'allowedPrefixes.1',
          message:
            '"https://me:secret@example.com/" holds a user name or password: http_fetch sends none, so leave them out',
        },
      ],
    });
  });

  it('keeps each prefix as the browser writes it, once', () => {
    expect(
      parseWebAccess({
        ...DEFAULT_WEB_ACCESS,
        allowedPrefixes: [' HTTPS://Example.com:443 ', 'https://example.com/', ''],
      }),
    ).toEqual({
      ok: true,
      value: { ...DEFAULT_WEB_ACCESS, allowedPrefixes: ['https://example.com/'] },
    });
  });
});

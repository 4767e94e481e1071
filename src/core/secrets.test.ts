import { describe, expect, it } from 'vitest';
import {
  displayUrl,
  hasHiddenCredentials,
  redactingStream,
  redactSecrets,
  secretsOfHeaders,
  secretsOfUrl,
} from './secrets.ts';

const values = (secrets: { value: string }[]) => secrets.map((secret) => secret.value).sort();

describe('secrets', () => {
  it('are read from an address: its user name, password and key-like query values, as written and decoded; other parameters are not', () => {
    const secrets = secretsOfUrl(
      'https://ada:p%40ssw0rd@llm.example/v1?api-version=2024-06-01&key=k3y-value&access_token=t0ken%2Fslash#id_token=fragm3nt',
      'the base URL',
    );
    expect(values(secrets)).toEqual(
      ['fragm3nt', 'k3y-value', 'p%40ssw0rd', 'p@ssw0rd', 't0ken%2Fslash', 't0ken/slash'].sort(),
    );
    expect(secrets.find((secret) => secret.value === 'k3y-value')?.what).toBe('the key parameter of the base URL');
    expect(secretsOfUrl('not an address', 'x')).toEqual([]);
  });

  it('are read from headers: the value, or the token after its scheme, and Basic credentials decoded', () => {
    const secrets = secretsOfHeaders(
      {
        Authorization: `Basic ${btoa('user-name:hunter22')}`,
        'X-Api-Key': 'xk-123456',
        accept: 'application/json-nothing-secret',
      },
      'the endpoint',
    );
    expect(values(secrets)).toEqual(
      [btoa('user-name:hunter22'), 'user-name:hunter22', 'user-name', 'hunter22', 'xk-123456'].sort(),
    );
  });

  it('are replaced in any text, the longest first, and an address in it loses its credentials and key values whatever is known', () => {
    const secrets = [
      { value: 'sk-abcdef', what: 'k' },
      { value: 'sk-abcdef-longer', what: 'k' },
    ];
    expect(redactSecrets('bad key sk-abcdef-longer (sk-abcdef)', secrets)).toBe('bad key [redacted] ([redacted])');
    expect(
      redactSecrets(
        'fetch http://bob:secret99@host.example/v1?token=zz9&model=tiny failed; Authorization: Bearer abc.def-ghi',
        [],
      ),
    ).toBe(
      'fetch http://[redacted]@host.example/v1?token=[redacted]&model=tiny failed; Authorization: Bearer [redacted]',
    );
    expect(
      redactSecrets('cannot reach http://h/v1?access_token=tok123456: refused (see http://h/?key=abc.)', [
        { value: 'tok123456', what: 'k' },
      ]),
    ).toBe('cannot reach http://h/v1?access_token=[redacted]: refused (see http://h/?key=[redacted].)');
    expect(redactSecrets('sent Bearer tok3n.abcdefghijklmno; Basic arithmetic and Bearer bonds stay', [])).toBe(
      'sent Bearer [redacted]; Basic arithmetic and Bearer bonds stay',
    );
    // Too short to be a secret: ordinary words stay.
    expect(redactSecrets('testing', [{ value: 'test', what: 'k' }])).toBe('testing');
  });

  it('leave an address shown with its user name, password and key values masked, the rest as written', () => {
    expect(
      displayUrl('https://ada:pw123456@llm.example:8443/v1?api-version=2024&api_key=abc123&flag#access_token=xyz'),
    ).toBe('https://[redacted]@llm.example:8443/v1?api-version=2024&api_key=[redacted]&flag#access_token=[redacted]');
    expect(displayUrl('http://localhost:8080/v1')).toBe('http://localhost:8080/v1');
    expect(hasHiddenCredentials('http://localhost:8080/v1?api-version=1')).toBe(false);
    expect(hasHiddenCredentials('http://u@localhost:8080/v1')).toBe(true);
    expect(hasHiddenCredentials('http://localhost:8080/v1?key=abc')).toBe(true);
  });

  it('are held back in a stream until the next piece shows whether they are one, so a key split across pieces is never shown', () => {
    const shown: string[] = [];
    const stream = redactingStream([{ value: 'sk-split-key', what: 'k' }], (text) => shown.push(text));
    for (const piece of ['the key is sk-sp', 'lit-k', 'ey; and sk-', 'something else']) stream.push(piece);
    stream.end();
    expect(shown.join('')).toBe('the key is [redacted]; and sk-something else');
    expect(shown.some((piece) => piece.includes('sk-sp'))).toBe(false);
  });
});

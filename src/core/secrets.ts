/**
 * Secrets (API keys, header credentials, passwords and keys in addresses) never leave the device:
 * whatever reaches a message, a log, a cycle record or an export passes through here first. Any
 * place that talks to a server with credentials (an OpenAI-compatible endpoint today; SPARQL
 * endpoints and MCP servers later) lists its secrets with `secretsOfUrl` and `secretsOfHeaders`
 * and redacts every text it builds from the server's answers with `redactSecrets`.
 */

/** A value that must not leave the device, and what it is, for a message that names it without showing it. */
export type Secret = { value: string; what: string };

/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/** Shorter values are no secret worth the name, and would match ordinary words ("test" in "testing"). */
const MIN_SECRET_LENGTH = 6;

/** Names of query parameters and headers that carry credentials (`key`, `api_key`, `access_token`, `X-Api-Key`, `auth`, `password`...). */
const KEY_LIKE_NAME = /key|token|secret|passw|pwd|auth|credential|signature|^sig$|cookie/i;

const isKeyLikeName = (name: string): boolean => KEY_LIKE_NAME.test(name);

/** A value and, where percent-decoding changes it, its decoded form: an echo may carry either. */
function bothForms(value: string): string[] {
  try {
    const decoded = decodeURIComponent(value.replace(/\+/g, ' '));
    return decoded === value ? [value] : [value, decoded];
  } catch {
    return [value];
  }
}

/** The query parameters of an address as written: `[name, value]`, neither decoded. */
function rawParameters(search: string): [string, string][] {
  return search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals < 0 ? [pair, ''] : [pair.slice(0, equals), pair.slice(equals + 1)];
    });
}

/** The secrets an address carries: its user name and password, and the values of its key-like query parameters. */
export function secretsOfUrl(address: string, what: string): Secret[] {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return [];
  }
  const secrets: Secret[] = [];
  // A token given as the user name (https://TOKEN@host) is as secret as a password.
  for (const value of bothForms(url.username)) secrets.push({ value, what: `the user name in ${what}` });
  for (const value of bothForms(url.password)) secrets.push({ value, what: `the password in ${what}` });
  for (const [name, value] of [...rawParameters(url.search), ...rawParameters(url.hash.slice(1))])
    if (isKeyLikeName(bothForms(name).at(-1)!))
      for (const form of bothForms(value)) secrets.push({ value: form, what: `the ${name} parameter of ${what}` });
  return worthRedacting(secrets);
}

/** The secrets headers carry: the values of credential headers (`Authorization`, `X-Api-Key`...), the token after a scheme, and Basic credentials decoded. */
export function secretsOfHeaders(headers: Record<string, string>, what: string): Secret[] {
  const secrets: Secret[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!isKeyLikeName(name)) continue;
    const where = `the ${name} header of ${what}`;
    // "Bearer TOKEN": the token is the secret, and an echo reads "Bearer [redacted]".
    const [scheme, token] = value.split(/\s+/, 2);
    secrets.push({ value: token ?? value, what: where });
    if (token === undefined) continue;
    if (scheme!.toLowerCase() !== 'basic') continue;
    try {
      const credentials = atob(token);
      secrets.push({ value: credentials, what: where });
      const colon = credentials.indexOf(':');
      if (colon >= 0)
        secrets.push(
          { value: credentials.slice(0, colon), what: where },
          { value: credentials.slice(colon + 1), what: where },
        );
    } catch {
      // Not base64: the token itself is what is redacted.
    }
  }
  return worthRedacting(secrets);
}

/** Long enough to redact, and each value once, the longest first (so a key inside a longer one is not redacted half). */
export function worthRedacting(secrets: readonly Secret[]): Secret[] {
  const byValue = new Map<string, Secret>();
  for (const secret of secrets)
    if (secret.value.length >= MIN_SECRET_LENGTH && !byValue.has(secret.value)) byValue.set(secret.value, secret);
  return [...byValue.values()].sort((left, right) => right.value.length - left.value.length);
}

/** Credentials in any address a text names (`scheme://user:password@`), and the values of key-like query parameters. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
// A value ends before whitespace, quotes and brackets, and without the punctuation a sentence puts after it.
const KEY_PARAMETER = /([?&])([^=&#\s]+)=([^&#\s"'<>()[\]]*[^&#\s"'<>()[\].,;:!?])/g;
// A header as written (`Authorization: Basic ...`), or a bearer token alone: long, with a digit, so "Bearer bonds" stays.
const AUTHORIZATION_HEADER = /\b(authorization:\s*(?:basic|bearer)\s+)[^\s"',;]+/gi;
const BEARER_TOKEN = /\bBearer\s+(?=[^\s]*\d)[A-Za-z0-9._~+/=-]{16,}/g;

/**
 * The text with every known secret replaced by `[redacted]`, and, whatever the secrets, the
 * credentials of any address in it, key-like query values and bearer tokens: a server's error may
 * echo them in a form nobody listed (another address it redirected to, a token it made).
 */
export function redactSecrets(text: string, secrets: readonly Secret[]): string {
  let redacted = text;
  for (const { value } of worthRedacting(secrets)) redacted = redacted.split(value).join(REDACTED);
  return redacted
    .replace(USERINFO, `$1${REDACTED}@`)
    .replace(KEY_PARAMETER, (whole, separator: string, name: string) =>
      isKeyLikeName(name) ? `${separator}${name}=${REDACTED}` : whole,
    )
    .replace(AUTHORIZATION_HEADER, `$1${REDACTED}`)
    .replace(BEARER_TOKEN, `Bearer ${REDACTED}`);
}

const isHiddenParameter = ([name, value]: [string, string]) => value !== '' && isKeyLikeName(bothForms(name).at(-1)!);

/** An address as it may be shown: its user name and password, and its key-like query values, masked. */
export function displayUrl(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return redactSecrets(address, []);
  }
  // A fragment may carry a token too (`#access_token=...`, as OAuth's implicit flow does).
  const masked = (part: string) =>
    part.replace(/[^?#&]+/g, (pair) => {
      const [name, value] = rawParameters(pair)[0]!;
      return isHiddenParameter([name, value]) ? `${name}=${REDACTED}` : pair;
    });
  // Credentials are marked, not dropped: the address shows it has some, and an edit can remove them.
  const userinfo = url.username !== '' || url.password !== '' ? `${REDACTED}@` : '';
  return `${url.protocol}//${userinfo}${url.host}${url.pathname}${masked(url.search)}${masked(url.hash)}`;
}

/** Whether showing an address hides something: a user name, a password or a key-like query value. */
export function hasHiddenCredentials(address: string): boolean {
  try {
    const url = new URL(address);
    return (
      url.username !== '' ||
      url.password !== '' ||
      [...rawParameters(url.search), ...rawParameters(url.hash.slice(1))].some(isHiddenParameter)
    );
  } catch {
    return false;
  }
}

/**
 * Passes streamed text on redacted: what might be the start of a secret is held back until the
 * next piece shows whether it is one, so a key split across pieces is never shown.
 */
export function redactingStream(
  secrets: readonly Secret[],
  onText: (text: string) => void,
): { push(piece: string): void; end(): void } {
  const known = worthRedacting(secrets);
  let held = '';
  const heldBack = (text: string) => {
    for (let start = Math.max(0, text.length - (known[0]?.value.length ?? 0) + 1); start < text.length; start++) {
      const tail = text.slice(start);
      if (known.some((secret) => secret.value.startsWith(tail))) return text.length - start;
    }
    return 0;
  };
  const emit = (text: string) => {
    if (text !== '') onText(text);
  };
  return {
    push(piece) {
      let text = held + piece;
      for (const { value } of known) text = text.split(value).join(REDACTED);
      const keep = heldBack(text);
      held = text.slice(text.length - keep);
      emit(text.slice(0, text.length - keep));
    },
    end() {
      emit(held);
      held = '';
    },
  };
}

/** Each named item with its key, where a key is kept under its name (endpoints, tool servers). */
export function withKeys<Item extends { name: string }>(
  items: readonly Item[] | undefined,
  keys: Record<string, string>,
): (Item & { key?: string })[] {
  return (items ?? []).map((item) => (keys[item.name] !== undefined ? { ...item, key: keys[item.name] } : item));
}

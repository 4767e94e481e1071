import { z } from 'zod';
import { nameSchema } from '#core/names.ts';
import { problemsFromZod, type Result } from '#core/result.ts';
import { type Secret, secretsOfHeaders } from '#core/secrets.ts';

/** What the user's own facts are worth: an endpoint's answers always stay below it. */
export const MAX_ENDPOINT_TRUST = 0.9;

/**
 * A SPARQL endpoint the user added to a session (SPARQL 1.1 Protocol): the agent reaches these
 * and no other. Kept with the session, and so in its snapshots, but for the value of its key
 * header: that stays on the device (see {@link endpointKeySetting}), like the model's API key.
 */
export const sparqlEndpointSchema = z.object({
  name: nameSchema('endpoint').refine(
    (name) => /^[\p{L}\p{N}_.-]+$/u.test(name),
    'an endpoint name is one word: letters, digits, _ . or -',
  ),
  url: z
    .url({
      protocol: /^https?$/,
      error: 'give the endpoint as an http(s) address, e.g. https://query.wikidata.org/sparql',
    })
    .max(2000, 'an endpoint address has at most 2,000 characters')
    .refine((url) => {
      const parsed = new URL(url);
      return parsed.username === '' && parsed.password === '';
    }, 'an endpoint address holds no user name or password: give a key header instead (it stays on this device)'),
  /** The header a key goes in (`Authorization`, `X-Api-Key`); its value is a device secret. */
  keyHeader: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'a key header is a header name, such as Authorization')
    .optional(),
  timeoutSeconds: z
    .number({ error: 'give the timeout in seconds' })
    .int('give a whole number of seconds')
    .min(1, 'a timeout of 1 s or more')
    .max(120, 'a timeout of 120 s or less'),
  /** The most rows (or triples) one query brings back; the queries say LIMIT this. */
  rowLimit: z
    .number({ error: 'give a row limit' })
    .int('give a whole number of rows')
    .min(1, 'a row limit of 1 or more')
    .max(100_000, 'a row limit of 100,000 or less'),
  /** The confidence what it returns gets. */
  trust: z
    .number({ error: 'give a trust between 0.05 and 0.9' })
    .min(0.05, 'a trust of 0.05 or more')
    .max(
      MAX_ENDPOINT_TRUST,
      `a trust of ${MAX_ENDPOINT_TRUST} or less: an endpoint's answers stay below your own facts`,
    ),
  /** The language of the labels asked for and brought back (BCP 47: en, de, pt-BR). */
  language: z.string().regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/, 'a language is a tag such as en, de or pt-BR'),
  /** The agent may query it without asking first (else each query waits for the user's approval). */
  mayCallWithoutAsking: z.boolean(),
});
export type SparqlEndpoint = z.infer<typeof sparqlEndpointSchema>;

export const DEFAULT_ENDPOINT = {
  timeoutSeconds: 20,
  rowLimit: 1000,
  trust: 0.6,
  language: 'en',
  mayCallWithoutAsking: false,
} satisfies Partial<SparqlEndpoint>;

/** The most endpoints a session keeps. */
export const MAX_ENDPOINTS = 20;

/** An endpoint as the UI and the CLI see it: whether a key is stored, never the key. */
export const sparqlEndpointViewSchema = sparqlEndpointSchema.extend({ keyStored: z.boolean() });
export type SparqlEndpointView = z.infer<typeof sparqlEndpointViewSchema>;

/** An endpoint with its key, as a request needs it (never stored or shown so). */
export type ReachableEndpoint = SparqlEndpoint & { key?: string };

/** The settings key a session's endpoint keys are kept under: `{ [endpoint name]: key }`, a device setting no export carries. */
export const endpointKeySetting = (sessionId: string) => `sparqlKeys:${sessionId}`;
export const ENDPOINT_KEY_PREFIX = 'sparqlKeys:';

export const endpointKeysSchema = z.record(z.string(), z.string());

/** Reads an endpoint as a user gives it: each problem names its field. */
export function parseEndpoint(value: unknown): Result<SparqlEndpoint> {
  const parsed = sparqlEndpointSchema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: problemsFromZod(parsed.error) };
}

/** The headers a request to the endpoint carries its key in. */
export function keyHeadersOf(endpoint: ReachableEndpoint): Record<string, string> {
  return endpoint.keyHeader && endpoint.key ? { [endpoint.keyHeader]: endpoint.key } : {};
}

/** The secrets of an endpoint's key: the key, and the token inside it (`Bearer TOKEN`); none may leave the device. */
export function endpointKeySecrets(name: string, key: string | undefined): Secret[] {
  if (!key) return [];
  // Whatever the header is called, its value is the secret.
  return [
    ...secretsOfHeaders({ authorization: key }, `the endpoint ${name}`),
    { value: key, what: `the key of the endpoint ${name}` },
  ];
}

export const endpointSecrets = (endpoint: Pick<ReachableEndpoint, 'name' | 'key'>): Secret[] =>
  endpointKeySecrets(endpoint.name, endpoint.key);

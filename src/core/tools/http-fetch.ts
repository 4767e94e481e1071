import { z } from 'zod';
import { type Rejection, rejectionOf } from '#core/records/rejection.ts';
import { readGraphFile } from '#core/kg/import/read-graph-file.ts';
import type { KgImportFormat } from '#core/kg/import/statement.ts';
import { factsOfText } from '#core/kg/sentence-facts.ts';
import { quoteInput } from '#core/quote-input.ts';
import { describeProblem } from '#core/result.ts';
import { decodeUtf8Text, readCapped } from '#core/text-bytes.ts';
import { EXTRACTION_CONFIDENCE } from './text-ingest.ts';
import type { FactIds, Tool, ToolOutcome, ToolState } from './tool.ts';
import { type WebAccess, isAllowed } from './web-access.ts';

/** The addresses the goal's symbols are known by (their IRIs) that the user allowed and the goal has not fetched. */
function candidates(state: ToolState): string[] {
  const fetched = new Set(state.goal.fetchedUrls ?? []);
  return state.goalSymbols
    .flatMap((id) => state.graph.symbol(id)?.iri ?? [])
    .filter((iri) => /^https?:/.test(iri) && isAllowed(state.webAccess, iri) && !fetched.has(iri));
}

const FORMATS: Record<string, KgImportFormat | 'text'> = {
  'text/turtle': 'turtle',
  'application/n-triples': 'n-triples',
  'text/csv': 'csv',
  'text/plain': 'text',
  'text/markdown': 'text',
};

const failed = (summary: string, url: string, rejection?: Rejection): ToolOutcome => ({
  ok: false,
  summary,
  facts: [],
  symbols: [],
  fetchedUrl: url,
  ...(rejection ? { rejection } : {}),
});

/** How many redirects http_fetch follows before it gives up (a browser's own limit is 20). */
const MAX_REDIRECTS = 5;

/** What every fetch requires of its address, and of the server. */
const ALLOWED = 'an address under a prefix allowed in Settings, Web access';
const ANSWER = 'an answer from the server';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * GETs an address, following a redirect only to an address the user allowed, checked before
 * each hop is requested. A browser hides where a redirect leads (an opaque answer to
 * `redirect: 'manual'`), so there the browser follows it and the answer is kept only when it
 * ends at an allowed address: the hops between may have been asked, but nothing they said is read.
 */
async function fetchAllowed(
  url: string,
  webAccess: WebAccess,
  signal: AbortSignal,
): Promise<{ ok: true; response: Response; finalUrl: string } | { ok: false; reason: string; rejection: Rejection }> {
  const request = {
    headers: { accept: 'text/turtle, application/n-triples;q=0.9, text/plain;q=0.5' },
    signal,
    credentials: 'omit',
  } satisfies RequestInit;
  let current = url;
  for (let hops = 0; ; hops++) {
    const response = await fetch(current, { ...request, redirect: 'manual' });
    if (response.type === 'opaqueredirect') {
      const followed = await fetch(current, { ...request, redirect: 'follow' });
      if (isAllowed(webAccess, followed.url)) return { ok: true, response: followed, finalUrl: followed.url };
      await followed.body?.cancel();
      return {
        ok: false,
        reason: `it redirects to ${followed.url}, not an address you allowed (nothing from there was read)`,
        rejection: rejectionOf('policy_block', ALLOWED, `a redirect to ${followed.url}`),
      };
    }
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return { ok: true, response, finalUrl: current };
    await response.body?.cancel();
    let next: string;
    try {
      next = new URL(location, current).href;
    } catch {
      return {
        ok: false,
        reason: `it redirects to "${location}", which is not a web address`,
        rejection: rejectionOf('dependency_unavailable', 'a redirect to a web address', `a redirect to "${location}"`),
      };
    }
    if (!isAllowed(webAccess, next))
      return {
        ok: false,
        reason: `it redirects to ${next}, not an address you allowed (not followed)`,
        rejection: rejectionOf('policy_block', ALLOWED, `a redirect to ${next}`),
      };
    if (hops === MAX_REDIRECTS)
      return {
        ok: false,
        reason: `more than ${MAX_REDIRECTS} redirects`,
        rejection: rejectionOf(
          'dependency_unavailable',
          `an answer within ${MAX_REDIRECTS} redirects`,
          `more than ${MAX_REDIRECTS} redirects`,
        ),
      };
    current = next;
  }
}

/**
 * A body as text: in the charset its content type names, or else strictly as UTF-8 (what Turtle
 * and N-Triples always are), so bytes that are not become a refusal, not U+FFFD in a label.
 */
function textOf(bytes: Uint8Array, contentType: string): { text: string } | { problem: string } {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') {
    const decoded = decodeUtf8Text(bytes);
    return decoded.ok ? { text: decoded.value } : { problem: decoded.error.map(describeProblem).join('; ') };
  }
  try {
    return { text: new TextDecoder(charset).decode(bytes) };
  } catch {
    return { problem: `the answer is in the charset ${quoteInput(charset, 40)}, which this browser cannot read` };
  }
}

/**
 * GETs what a goal's symbol's address says about it (Linked Data: RDF as Turtle or N-Triples;
 * plain text read for simple sentences), online only, only from addresses the user allowed, within
 * the time and size caps of the setting. Each address is fetched once per goal.
 */
export const httpFetch: Tool<{ url: string }> = {
  name: 'http_fetch',
  description: 'GET an allowed web address about the goal (RDF or plain text), with size and time caps',
  archetype: 'explorer',
  danger: 'cautious',
  capabilities: ['network'],
  input: z.object({ url: z.url({ protocol: /^https?$/ }) }),
  unavailableBecause: (state) => {
    if (!state.isOnline) return 'this device is offline';
    if (state.webAccess.allowedPrefixes.length === 0) return 'no web address is allowed (Settings, Web access)';
    return candidates(state).length === 0
      ? "no allowed address names the goal's symbols, or all were fetched"
      : undefined;
  },
  baseScore: () => 0.55,
  proposeInput: (state) => ({ url: candidates(state)[0] ?? '' }),
  async run(input, state) {
    const { url } = input;
    if (!isAllowed(state.webAccess, url))
      return failed(`${url} is not an address you allowed`, url, rejectionOf('policy_block', ALLOWED, url));
    const { timeoutSeconds, maxKilobytes } = state.webAccess;
    let fetched: Awaited<ReturnType<typeof fetchAllowed>>;
    try {
      fetched = await fetchAllowed(url, state.webAccess, AbortSignal.timeout(timeoutSeconds * 1000));
    } catch (error) {
      const reason =
        error instanceof DOMException && error.name === 'TimeoutError'
          ? `no answer within ${timeoutSeconds} s`
          : error instanceof Error
            ? error.message
            : String(error);
      return failed(`GET ${url} failed: ${reason}`, url, rejectionOf('dependency_unavailable', ANSWER, reason));
    }
    if (!fetched.ok) return failed(`GET ${url}: ${fetched.reason}`, url, fetched.rejection);
    const { response, finalUrl } = fetched;
    if (!response.ok)
      return failed(
        `GET ${url}: HTTP ${response.status}`,
        url,
        rejectionOf('dependency_unavailable', 'an HTTP 2xx answer', `HTTP ${response.status}`),
      );
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const format = FORMATS[mediaType];
    if (!format)
      return failed(
        `GET ${url}: cannot read ${mediaType || 'an unnamed content type'} (Turtle, N-Triples, CSV or plain text only)`,
        url,
        rejectionOf(
          'precondition_miss',
          'Turtle, N-Triples, CSV or plain text',
          mediaType || 'an unnamed content type',
        ),
      );
    let body: Uint8Array | undefined;
    try {
      body = await readCapped(response, maxKilobytes * 1024);
    } catch (error) {
      const reason =
        error instanceof DOMException && error.name === 'TimeoutError'
          ? `no answer within ${timeoutSeconds} s`
          : error instanceof Error
            ? error.message
            : String(error);
      return failed(
        `GET ${url} failed while reading: ${reason}`,
        url,
        rejectionOf('dependency_unavailable', ANSWER, reason),
      );
    }
    if (body === undefined)
      return failed(
        `GET ${url}: the answer is over ${maxKilobytes} KB, the cap of Settings, Web access`,
        url,
        rejectionOf('precondition_miss', `an answer of at most ${maxKilobytes} KB`, `more than ${maxKilobytes} KB`),
      );
    const decoded = textOf(body, response.headers.get('content-type') ?? '');
    if ('problem' in decoded)
      return failed(
        `GET ${url}: ${decoded.problem}`,
        url,
        rejectionOf('precondition_miss', 'text in its named charset, or UTF-8', decoded.problem),
      );
    const { text } = decoded;

    const batch = state.graph.batch({ now: state.now });
    let confidence = 1;
    if (format === 'text') {
      confidence = EXTRACTION_CONFIDENCE;
      for (const fact of factsOfText(text, { isKnown: (label) => state.graph.symbolByLabel(label) !== undefined })) {
        batch.assert(
          batch.resolve({ type: 'label', value: fact.subject }, 'subject'),
          batch.resolve({ type: 'label', value: fact.predicate }, 'predicate'),
          batch.resolve({ type: 'label', value: fact.object }, 'object'),
          confidence,
        );
      }
    } else if (text.trim() !== '') {
      // A document's relative IRIs are relative to where it was found.
      const read = await readGraphFile({ source: text, format, batch, baseIri: finalUrl });
      if (!read.ok)
        return failed(
          `GET ${url}: ${read.error === 'cancelled' ? 'cancelled' : read.error.map((problem) => `${problem.line !== undefined ? `line ${problem.line}: ` : ''}${problem.message}`).join('; ')}`,
          url,
          rejectionOf('precondition_miss', `a readable ${format} document`, 'the document does not read'),
        );
    }
    const delta = batch.delta;
    const facts: FactIds[] = [...delta.addedTriples, ...delta.updatedTriples].map((triple) => [
      triple.subject,
      triple.predicate,
      triple.object,
    ]);
    return {
      ok: true,
      summary: `GET ${url}: ${facts.length} facts (${mediaType}, ${text.length} characters)`,
      facts,
      evidence: '',
      symbols: [...new Set(facts.flatMap(([subject, , object]) => [subject, object]))].slice(0, 50),
      fetchedUrl: url,
      graphChange: {
        delta,
        provenance: () => ({
          sessionId: state.sessionId,
          kind: 'fetch',
          sources: finalUrl === url ? [url] : [url, finalUrl],
          confidence,
          cycle: state.cycle,
          detail: `GET ${url}${finalUrl === url ? '' : ` (redirected to ${finalUrl})`} (${mediaType})`,
          createdAt: state.now,
        }),
      },
    };
  },
};

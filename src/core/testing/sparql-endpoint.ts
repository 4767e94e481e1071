import { startVirtuoso } from '../../../scripts/virtuoso.mjs';
import { SYNSET_BASE, wordnetGraph } from '../../../scripts/wordnet-graph.mjs';

/**
 * The real SPARQL engine the endpoint tests run against: the one ANIMA_SPARQL_ENDPOINT names
 * (loaded with the WordNet animal graph of scripts/wordnet-graph.mjs), or a private Virtuoso
 * started here and stopped by `stop()`. It cannot start: the test fails, saying why (never skips).
 */
export async function wordnetEndpoint(): Promise<{ url: string; stop(): Promise<void> }> {
  const given = process.env.ANIMA_SPARQL_ENDPOINT;
  if (given) return { url: given, stop: async () => {} };
  const server = await startVirtuoso({ ntriples: wordnetGraph().text });
  return { url: server.url, stop: server.stop };
}

/** A WordNet synset's IRI, as the test graph names it. */
export const synsetIri = (offset: string) => `${SYNSET_BASE}${offset}-n`;

/**
 * Each tool in plain words, for people rather than models (a tool's own `description` is written
 * for the model that may call it): what it does, as a short action ("Query the knowledge graph"),
 * and a sentence saying what that means. The cycle log, the approvals, the Settings screen and
 * the CLI's --verbose log say tools this way, with the tool's name beside it.
 */
export const TOOL_WORDS: Readonly<Record<string, { action: string; purpose: string }>> = {
  kg_query: {
    action: 'Query the knowledge graph',
    purpose: 'Looks up the facts around a thing, or the facts that match a pattern, such as every mammal.',
  },
  kg_mutate: {
    action: 'Change the knowledge graph',
    purpose: 'Adds facts a goal asks for, or removes them; removing is held for your approval by default.',
  },
  infer_rules: {
    action: 'Derive new facts with the rules',
    purpose: 'Applies the built-in rules (if a dog is a canine and a canine is a mammal, a dog is a mammal).',
  },
  similarity_search: {
    action: 'Look for similar things',
    purpose: 'Finds the things whose facts most resemble those of the goal’s things.',
  },
  gap_analysis: {
    action: 'Look for what is missing',
    purpose: 'Checks what the goal still lacks: dead ends, relations no fact gives, things not yet covered.',
  },
  memory_recall: {
    action: 'Recall past episodes',
    purpose: 'Brings back what earlier cycles learnt about the goal’s things.',
  },
  memory_consolidate: {
    action: 'Turn working memory into episodes',
    purpose: 'Moves working memory into lasting episodes when it is nearly full.',
  },
  reason: {
    action: 'Reason from the facts',
    purpose: 'Proves an answer from the graph’s facts, or asks the language model to, from the facts around the goal.',
  },
  synthesize_triple: {
    action: 'Propose facts by analogy',
    purpose: 'Suggests new facts about a thing from the most similar thing, or from the language model.',
  },
  user_interact: {
    action: 'Ask you a question',
    purpose: 'Asks you what the graph cannot tell; the goal waits for your answer on the Approvals screen.',
  },
  file_io: {
    action: 'Read or write a document',
    purpose: 'Reads what an imported document says about the goal, or writes the goal’s notes.',
  },
  text_ingest: {
    action: 'Read facts from a document',
    purpose: 'Turns sentences of a document into facts (“X is a Y”, “X has Y”).',
  },
  http_fetch: {
    action: 'Fetch a web page',
    purpose:
      'Reads a web address you allowed in Settings, for facts about the goal; held for your approval by default.',
  },
  sparql_query: {
    action: 'Ask a SPARQL endpoint',
    purpose: 'Asks an endpoint you added for what the goal needs, and keeps the answer with its source.',
  },
};

/** A tool's action in words, or "Run the tool x" for a tool these words do not know (a newer one). */
export function toolAction(tool: string): string {
  return TOOL_WORDS[tool]?.action ?? `Run the tool ${tool}`;
}

/**
 * Whether a goal's words ask something, which the graph is then asked to answer. Apart from the
 * reader so that the agent can tell without loading it.
 */

/** A question mark, or a question's or a request's first word ("Which birds can swim", "Find all mammals"). */
export function looksLikeQuestion(text: string): boolean {
  const trimmed = text.trim();
  return (
    trimmed.endsWith('?') ||
    /^(?:what|which|who|whom|whose|how|where|when|is|are|was|were|does|do|did|can|could|has|have|find|list|name|show|give|count|tell|describe|define)(?![\p{L}\p{N}])/iu.test(
      trimmed,
    )
  );
}

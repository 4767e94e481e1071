import { z } from 'zod';

/**
 * JSON Schema keywords a constrained decoder turns into bounded repetitions or large regular
 * expressions: a `maxLength` of 2,000 became `[^"\\\r\n]{0,2000}` in WebLLM's xgrammar, which took
 * 21 s to compile for a 150,000-token vocabulary (and forbade escapes in the string). zod checks
 * every one of them after decoding, so the decoder need not.
 */
const COSTLY_KEYWORDS = new Set([
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minProperties',
  'maxProperties',
]);

/** Keywords whose value is one schema, an array of schemas, or a map of name to schema. */
const ONE_SCHEMA = new Set(['items', 'additionalProperties', 'propertyNames', 'not', 'contains', 'if', 'then', 'else']);
const SCHEMA_LIST = new Set(['oneOf', 'anyOf', 'allOf', 'prefixItems']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

type Json = unknown;

/**
 * The JSON Schema a constrained decoder is given for an answer: the zod schema's shape (types,
 * properties, unions, constants), without the keywords that make its grammar costly (see
 * COSTLY_KEYWORDS). What the decoder lets through is still validated with zod.
 */
export function decodingSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return withoutCostlyKeywords(z.toJSONSchema(schema)) as Record<string, unknown>;
}

/** Integer ranges this small stay: a short alternation keeps a small model's answer in range at little cost. */
const CHEAP_INTEGER_SPAN = 1_000;

/** Whether a schema is an integer between bounds close enough to keep (zod's own z.int() bounds span 2^54). */
function isSmallIntegerRange(schema: Record<string, Json>): boolean {
  const { type, minimum, maximum } = schema;
  return (
    type === 'integer' &&
    Number.isSafeInteger(minimum) &&
    Number.isSafeInteger(maximum) &&
    (maximum as number) - (minimum as number) <= CHEAP_INTEGER_SPAN
  );
}

function withoutCostlyKeywords(schema: Json): Json {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const kept: Record<string, Json> = {};
  const smallRange = isSmallIntegerRange(schema as Record<string, Json>);
  for (const [keyword, value] of Object.entries(schema)) {
    if (COSTLY_KEYWORDS.has(keyword) && !(smallRange && (keyword === 'minimum' || keyword === 'maximum'))) continue;
    if (ONE_SCHEMA.has(keyword))
      kept[keyword] = Array.isArray(value) ? value.map(withoutCostlyKeywords) : withoutCostlyKeywords(value);
    else if (SCHEMA_LIST.has(keyword) && Array.isArray(value)) kept[keyword] = value.map(withoutCostlyKeywords);
    else if (SCHEMA_MAP.has(keyword) && typeof value === 'object' && value !== null)
      kept[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, withoutCostlyKeywords(sub)]),
      );
    else kept[keyword] = value;
  }
  return kept;
}

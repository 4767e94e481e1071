import { type OutputUnit, type Schema, type SchemaDraft, Validator } from '@cfworker/json-schema';
import { z } from 'zod';

/** An input a server's tool takes: a JSON object. */
export type ToolInput = Record<string, unknown>;

/** Keywords that only say a part below failed: the part's own error says what. */
const WRAPPING_KEYWORDS = new Set(['properties', 'items', 'prefixItems', 'additionalItems', '$ref', 'allOf']);

/** The draft a schema says it is written in (MCP's default, and the SDK's, is 2020-12). */
function draftOf(schema: Record<string, unknown>): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-06') || declared.includes('draft-07')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/** `#/entities/0/name` as a path: entities, 0, name. */
const pathOf = (location: string): string[] =>
  location
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'));

/** What is wrong, where: the errors of the parts themselves, not the ones that only say a part failed. */
function leafErrors(errors: readonly OutputUnit[]): OutputUnit[] {
  const own = errors.filter((error) => !WRAPPING_KEYWORDS.has(error.keyword));
  return own.length > 0 ? own : [...errors];
}

/**
 * A tool's input as the server's JSON Schema says it, checked before anything is sent: a JSON
 * object, and every problem a zod issue at its field's path, so a refusal names the field. The
 * schema is read by @cfworker/json-schema, which (unlike Ajv) compiles no code: the app's
 * Content-Security-Policy forbids that. A schema it cannot read leaves the check to the server.
 */
export function inputSchemaOf(jsonSchema: Record<string, unknown>): z.ZodType<ToolInput> {
  let validator: Validator | undefined;
  try {
    // A copy: the validator marks the schema it is given, which may be a stored (frozen) row's.
    validator = new Validator(structuredClone(jsonSchema) as Schema, draftOf(jsonSchema), false);
  } catch {
    validator = undefined;
  }
  return z.record(z.string(), z.unknown()).superRefine((input, context) => {
    let result: ReturnType<Validator['validate']> | undefined;
    try {
      result = validator?.validate(input);
    } catch {
      // A reference it cannot follow shows only now: the server checks the input.
      result = undefined;
    }
    if (!result || result.valid) return;
    for (const error of leafErrors(result.errors))
      context.addIssue({ code: 'custom', path: pathOf(error.instanceLocation), message: error.error });
  });
}

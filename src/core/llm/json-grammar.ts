/**
 * The most whitespace allowed between two parts of an answer (after "{", around ":" and ","):
 * enough for JSON indented by 4 spaces four levels deep, too little for a small model to pad an
 * answer with whitespace until it runs out of tokens.
 */
export const MAX_WHITESPACE = 20;

/**
 * A JSON string: runs of any character but a quote, a backslash or a control character, between
 * JSON's escapes (\n, \", \u00e9...). Written as runs, xgrammar masks the tokens inside a string
 * in microseconds; written as one character or escape at a time, about 100 ms a token for a
 * 150,000-token vocabulary.
 */
const STRING = String.raw`("\"" [^"\\\x00-\x1f]* ("\\" escape [^"\\\x00-\x1f]*)* "\"")`;

/**
 * The rules every grammar ends with: any JSON value (a tool's input: its strings share one rule,
 * which keeps the grammar small), strings, numbers, bounded whitespace.
 */
const COMMON_RULES = [
  'value ::= object | array | string | number | boolean | null',
  'object ::= "{" ws (string ws ":" ws value ws ("," ws string ws ":" ws value ws)*)? "}"',
  'array ::= "[" ws (value ws ("," ws value ws)*)? "]"',
  `string ::= ${STRING}`,
  String.raw`escape ::= ["\\/bfnrt] | "u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F]`,
  'number ::= "-"? ("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [+-]? [0-9]+)?',
  'integer ::= "-"? ("0" | [1-9] [0-9]*)',
  'boolean ::= "true" | "false"',
  'null ::= "null"',
  String.raw`ws ::= [ \n\t]{0,${MAX_WHITESPACE}}`,
];

type Schema = Record<string, unknown>;

/** An EBNF string literal (xgrammar reads C-style escapes, as JSON writes them) for exactly this text. */
const literal = (text: string) => JSON.stringify(text);

/**
 * A grammar, in the EBNF of WebLLM's xgrammar, for JSON text that follows a schema as
 * `decodingSchemaOf` leaves it: objects with their properties in the schema's order (optional
 * ones may be left out), open records, arrays, unions (`oneOf`, `anyOf`), constants and enums,
 * strings with JSON's escapes, numbers, booleans and null. What it cannot express (`allOf`, `not`,
 * `$ref`, a schema of no type) is any JSON value there: the answer is validated against the full
 * schema after decoding either way.
 *
 * WebLLM's own conversion (`response_format: {type: "json_object", schema}`) allows any amount of
 * whitespace between tokens and takes no bound for it; a grammar can bound it (MAX_WHITESPACE).
 */
export function jsonGrammarOf(schema: Schema): string {
  const rules: string[] = [];
  const ruleFor = (body: string): string => {
    const name = `part${rules.length}`;
    rules.push(`${name} ::= ${body}`);
    return name;
  };

  function expression(node: unknown): string {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return 'value';
    const schema = node as Schema;
    const union = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    if (Array.isArray(union) && union.length > 0) return ruleFor(union.map(expression).join(' | '));
    if ('const' in schema) return literal(JSON.stringify(schema.const));
    if (Array.isArray(schema.enum) && schema.enum.length > 0)
      return ruleFor(schema.enum.map((value) => literal(JSON.stringify(value))).join(' | '));
    const { type } = schema;
    if (Array.isArray(type))
      return type.length > 0 ? ruleFor(type.map((one) => expression({ ...schema, type: one })).join(' | ')) : 'value';
    switch (type) {
      // Written out where it is used, not as one shared rule: xgrammar then knows what follows the
      // string, and masks the tokens inside it without checking those that hold a quote one by one
      // (a shared rule cost 1.5 ms a token for the facts answer; written out, 0.01 ms).
      case 'string':
        return STRING;
      case 'number':
      case 'integer':
      case 'boolean':
      case 'null':
        return type;
      case 'array': {
        const item = expression(schema.items);
        return ruleFor(`"[" ws (${item} ws ("," ws ${item} ws)*)? "]"`);
      }
      case 'object':
        return ruleFor(objectBody(schema));
      default:
        return 'value';
    }
  }

  function objectBody(schema: Schema): string {
    const properties = Object.entries((schema.properties ?? {}) as Record<string, unknown>);
    if (properties.length === 0) {
      if (schema.additionalProperties === false) return '"{" ws "}"';
      const value = expression(schema.additionalProperties);
      return `"{" ws (${STRING} ws ":" ws ${value} ws ("," ws ${STRING} ws ":" ws ${value} ws)*)? "}"`;
    }
    // The schema's properties in its order (as xgrammar's strict mode has them), each optional one
    // either there or not; other properties are left out, though the schema may allow them.
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const members = properties.map(([name, value]) => ({
      pair: `${literal(JSON.stringify(name))} ws ":" ws ${expression(value)} ws`,
      isRequired: required.has(name),
    }));
    const after = (index: number) =>
      members.slice(index).map(({ pair, isRequired }) => (isRequired ? `"," ws ${pair}` : `("," ws ${pair})?`));
    /** The members from `index` on, the first of them written without a comma before it. */
    const from = (index: number): string | undefined => {
      const member = members[index];
      if (!member) return undefined;
      const here = [member.pair, ...after(index + 1)].join(' ');
      if (member.isRequired) return here;
      const later = from(index + 1);
      return later ? `(${here}) | (${later})` : here;
    };
    const body = from(0)!;
    return members.some((member) => member.isRequired) ? `"{" ws (${body}) "}"` : `"{" ws (${body})? "}"`;
  }

  const root = expression(schema);
  return [`root ::= ${root}`, ...rules, ...COMMON_RULES].join('\n');
}

/** WebLLM's response formats the app sends: a JSON schema (WebLLM turns it into a grammar itself), or a grammar. */
export type WebLlmResponseFormat = { type: 'json_object'; schema?: string } | { type: 'grammar'; grammar: string };

/**
 * The request as WebLLM is sent it: an answer's JSON schema goes as its grammar (`jsonGrammarOf`),
 * which bounds whitespace where WebLLM's own conversion of the schema cannot.
 */
export function withJsonGrammar<Request extends { response_format?: { type: 'json_object'; schema?: string } }>(
  request: Request,
): Omit<Request, 'response_format'> & { response_format?: WebLlmResponseFormat } {
  const schema = request.response_format?.schema;
  if (schema === undefined) return request;
  return {
    ...request,
    response_format: { type: 'grammar', grammar: jsonGrammarOf(JSON.parse(schema) as Record<string, unknown>) },
  };
}

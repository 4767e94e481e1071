import { describe, expect, it } from 'vitest';
import { inputSchemaOf } from './input-schema.ts';

/** server-memory's create_entities input, as it lists it (draft-07). */
const CREATE_ENTITIES = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    entities: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, observations: { type: 'array', items: { type: 'string' } } },
        required: ['name', 'observations'],
      },
    },
  },
  required: ['entities'],
};

const issuesOf = (input: unknown) =>
  inputSchemaOf(CREATE_ENTITIES)
    .safeParse(input)
    .error?.issues.map((issue) => [issue.path.join('.'), issue.message]);

describe("a tool's input, checked against its server's JSON Schema", () => {
  it('takes an input the schema takes', () => {
    expect(issuesOf({ entities: [{ name: 'Tux', observations: ['swims'] }] })).toBeUndefined();
  });

  it('names the very field that is wrong, however deep, not the parts around it', () => {
    expect(issuesOf({ entities: [{ name: 'Tux', observations: [3] }] })).toEqual([
      ['entities.0.observations.0', expect.stringContaining('"number" is invalid. Expected "string"')],
    ]);
    expect(issuesOf({ entities: [{ observations: [] }] })).toEqual([['entities.0', expect.stringContaining('"name"')]]);
  });

  it('takes only a JSON object, and leaves a schema it cannot read to the server', () => {
    expect(issuesOf([])).toHaveLength(1);
    expect(inputSchemaOf({ $ref: '#/nowhere' }).safeParse({ any: 'thing' }).success).toBe(true);
  });
});

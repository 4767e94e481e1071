import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodingSchemaOf } from './decoding-schema.ts';

describe("an answer's decoding schema", () => {
  it('drops the limits at every depth and keeps the shape, and small integer ranges', () => {
    const schema = z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('list'),
        items: z
          .array(z.object({ label: z.string().min(1).max(120), at: z.url() }))
          .min(1)
          .max(20),
      }),
      z.object({
        kind: z.literal('count'),
        count: z.number().int().min(0).max(9),
        tags: z.record(z.string(), z.string().regex(/^[a-z]+$/)),
      }),
    ]);
    expect(decodingSchemaOf(schema)).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      oneOf: [
        {
          type: 'object',
          properties: {
            kind: { type: 'string', const: 'list' },
            items: {
              type: 'array',
              items: {
                type: 'object',
                properties: { label: { type: 'string' }, at: { type: 'string' } },
                required: ['label', 'at'],
                additionalProperties: false,
              },
            },
          },
          required: ['kind', 'items'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            kind: { type: 'string', const: 'count' },
            count: { type: 'integer', minimum: 0, maximum: 9 },
            tags: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string' } },
          },
          required: ['kind', 'count', 'tags'],
          additionalProperties: false,
        },
      ],
    });
  });

  it('drops integer ranges too wide to be cheap, and every range of a fraction', () => {
    const schema = z.object({
      any: z.int(),
      wide: z.int().min(0).max(5_000),
      fraction: z.number().min(0).max(1),
      small: z.int().min(-3).max(3),
    });
    expect(decodingSchemaOf(schema)).toMatchObject({
      properties: {
        any: { type: 'integer' },
        wide: { type: 'integer' },
        fraction: { type: 'number' },
        small: { type: 'integer', minimum: -3, maximum: 3 },
      },
    });
    expect((decodingSchemaOf(schema) as { properties: Record<string, object> }).properties['any']).toEqual({
      type: 'integer',
    });
  });

  it('keeps properties named like the keywords it drops', () => {
    expect(decodingSchemaOf(z.object({ maxLength: z.number().max(3), pattern: z.string().max(4) }))).toMatchObject({
      properties: { maxLength: { type: 'number' }, pattern: { type: 'string' } },
      required: ['maxLength', 'pattern'],
    });
  });
});

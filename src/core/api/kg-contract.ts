import { z } from 'zod';
import { KG_IMPORT_FORMATS } from '#core/kg/import/statement.ts';
import { symbolSchema } from '#core/kg/symbol.ts';
import { provenanceRecordSchema } from '#core/kg/provenance.ts';
import { problemSchema } from '#core/result.ts';
import { sessionIdSchema } from '#core/names.ts';
import { operationIdSchema } from './operation.ts';

/** A symbol as lists show it. */
export const symbolRefSchema = symbolSchema.pick({ id: true, label: true, kind: true, iri: true });
export type SymbolRef = z.infer<typeof symbolRefSchema>;

export const graphStatsSchema = z.object({
  symbols: z.number().int(),
  entities: z.number().int(),
  relations: z.number().int(),
  literals: z.number().int(),
  triples: z.number().int(),
});
export type GraphStats = z.infer<typeof graphStatsSchema>;

/** A triple with its symbols resolved, as the UI shows it. */
export const factSchema = z.object({
  subject: symbolRefSchema,
  predicate: symbolRefSchema,
  object: symbolRefSchema,
  confidence: z.number(),
  provenanceId: z.number().int().optional(),
});
export type Fact = z.infer<typeof factSchema>;

/** A fact a rule derived, with the rule and the facts it was derived from. */
export const derivedFactSchema = z.object({
  fact: factSchema,
  rule: z.string(),
  premises: z.array(factSchema),
  /** True for a fact the graph did not hold; false for one it held with a lower confidence. */
  isNew: z.boolean(),
});
export type DerivedFact = z.infer<typeof derivedFactSchema>;

export const importProgressSchema = z.object({
  phase: z.enum(['reading', 'writing']),
  bytesRead: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
  statements: z.number().int().nonnegative(),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

/**
 * What an imported file shares with the graph: its relations that join known ones (by IRI,
 * `rdf:type` joins is-a, or by name, `http://other.example/is-a` joins is-a), and its things named
 * as things the graph has (linked as the same thing, owl:sameAs, only when the import asked).
 */
export const importSharedSchema = z.object({
  relations: z.object({
    count: z.number().int(),
    examples: z.array(z.object({ relation: z.string(), joins: z.string() })),
  }),
  sameNames: z.object({
    count: z.number().int(),
    linked: z.number().int(),
    examples: z.array(z.object({ symbol: z.string(), existing: z.string() })),
  }),
});
export type ImportShared = z.infer<typeof importSharedSchema>;

export const importOutcomeSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    statements: z.number().int(),
    added: z.number().int(),
    updated: z.number().int(),
    symbolsAdded: z.number().int(),
    stats: graphStatsSchema,
    /** What the file shares with the graph (see importSharedSchema); absent for CSV and the starter graph's first load. */
    shared: importSharedSchema.optional(),
    /** A preview (dryRun): what the import would do; nothing was written. */
    isDryRun: z.boolean().optional(),
  }),
  z.object({
    ok: z.literal(false),
    reason: z.enum(['invalid', 'cancelled', 'unknown-format', 'read-only', 'storage-full']),
    problems: z.array(problemSchema),
  }),
]);
export type ImportOutcome = z.infer<typeof importOutcomeSchema>;

export const kgImportFormatSchema = z.enum(KG_IMPORT_FORMATS);

/** While a session opens: its stored graph loading (in chunks), or, on first start, the starter graph importing. */
export const openProgressSchema = z.union([
  z.object({
    phase: z.literal('loading-graph'),
    chunksRead: z.number().int().nonnegative(),
    totalChunks: z.number().int().nonnegative(),
  }),
  importProgressSchema,
]);
export type OpenProgress = z.infer<typeof openProgressSchema>;

export { MAX_DOCUMENT_BYTES } from '#core/kg/document.ts';

/** A document as the Knowledge screen lists it. */
export const documentViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Its size in characters. */
  size: z.number().int(),
  createdAt: z.number(),
  /** The first few hundred characters, as plain text. */
  preview: z.string(),
  ingestedAt: z.number().optional(),
  factsExtracted: z.number().int().optional(),
});
export type DocumentView = z.infer<typeof documentViewSchema>;

/** The knowledge graph: statistics, search, symbols, imports and exports, queries, rules, paths, similarity, provenance, documents. */
export const kgContract = {
  kgStats: { args: z.object({ sessionId: sessionIdSchema }), result: graphStatsSchema },
  /** The prefixes queries read prefixed names with: the well-known ones and those the session's Turtle files declared (which win). */
  kgPrefixes: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.object({
      prefixes: z.array(z.object({ prefix: z.string(), namespace: z.string(), isDeclared: z.boolean() })),
    }),
  },
  /** Entities and relations whose label or rdfs:label contains the text. */
  kgSearch: {
    args: z.object({
      sessionId: sessionIdSchema,
      text: z.string().max(500),
      limit: z.number().int().min(1).max(1000).default(50),
    }),
    result: z.object({
      hits: z.array(z.object({ symbol: symbolRefSchema, matchedText: z.string(), isLabelLiteral: z.boolean() })),
      total: z.number().int(),
    }),
  },
  /** A symbol with its outgoing and incoming triples. */
  kgSymbol: {
    args: z.object({
      sessionId: sessionIdSchema,
      symbolId: z.number().int().nonnegative(),
      limit: z.number().int().min(1).max(5000).default(200),
    }),
    result: z.discriminatedUnion('isFound', [
      z.object({
        isFound: z.literal(true),
        symbol: symbolRefSchema,
        outgoing: z.array(factSchema),
        incoming: z.array(factSchema),
        outgoingTotal: z.number().int(),
        incomingTotal: z.number().int(),
      }),
      z.object({ isFound: z.literal(false) }),
    ]),
  },
  /** Imports N-Triples, Turtle or CSV; all or nothing; cancellable with `cancel(operationId)`. */
  kgImport: {
    args: z.object({
      sessionId: sessionIdSchema,
      operationId: operationIdSchema,
      fileName: z.string().min(1).max(500),
      format: kgImportFormatSchema.optional(),
      data: z.union([z.string(), z.instanceof(Blob)]),
      /** Link each new thing named as an existing one to it (owl:sameAs); off unless asked. */
      linkSameLabels: z.boolean().optional(),
      /** The reader's language (a BCP 47 tag, e.g. fr-FR): names in it are preferred. */
      language: z.string().max(35).optional(),
      /** Reads the file and says what it would add and share with the graph, writing nothing (a preview). */
      dryRun: z.boolean().optional(),
    }),
    result: importOutcomeSchema,
    progress: importProgressSchema,
  },
  kgExport: {
    args: z.object({ sessionId: sessionIdSchema, format: z.literal('n-triples') }),
    result: z.object({ fileName: z.string(), mediaType: z.string(), text: z.string(), tripleCount: z.number().int() }),
  },
  /** Pattern query: `?x is-a mammal . ?x lives-in ?where`. */
  kgQuery: {
    args: z.object({
      sessionId: sessionIdSchema,
      query: z.string().max(5000),
      limit: z.number().int().min(1).max(10000).default(100),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        variables: z.array(z.string()),
        rows: z.array(z.record(z.string(), symbolRefSchema)),
        isTruncated: z.boolean(),
        unknownTerms: z.array(z.string()),
      }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /**
   * Runs the built-in rules over the graph and stores what they derive, each fact with its own
   * provenance, all in one transaction. The rules run a slice at a time, reporting progress;
   * `cancel(operationId)` while they run stores nothing (storing, once begun, is not stopped).
   */
  kgInfer: {
    args: z.object({
      sessionId: sessionIdSchema,
      operationId: operationIdSchema.optional(),
      minConfidence: z.number().min(0).max(1).default(0.1),
      maxIterations: z.number().int().min(1).max(100).default(10),
      maxDerived: z.number().int().min(1).max(5_000_000).default(200_000),
      /** How many of the derived facts to return (all are stored). */
      limit: z.number().int().min(0).max(5000).default(200),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        derived: z.number().int(),
        raised: z.number().int(),
        iterations: z.number().int(),
        hasConverged: z.boolean(),
        isTruncated: z.boolean(),
        stats: graphStatsSchema,
        facts: z.array(derivedFactSchema),
      }),
      z.object({ ok: z.literal(false), reason: z.enum(['read-only', 'cancelled']), problems: z.array(problemSchema) }),
    ]),
    progress: z.object({
      /** Deriving (cancellable), then storing what was derived (in one transaction). */
      phase: z.enum(['deriving', 'storing']),
      derived: z.number().int(),
      rounds: z.number().int(),
    }),
  },
  /** The shortest chain of triples (either direction) between two symbols. */
  kgPath: {
    args: z.object({
      sessionId: sessionIdSchema,
      from: z.number().int().nonnegative(),
      to: z.number().int().nonnegative(),
      maxLength: z.number().int().min(1).max(20).default(8),
    }),
    result: z.discriminatedUnion('isFound', [
      z.object({ isFound: z.literal(true), steps: z.array(z.object({ fact: factSchema, isForward: z.boolean() })) }),
      z.object({ isFound: z.literal(false) }),
    ]),
  },
  /** The symbols most similar to a symbol (by the meaning of its neighbourhood), or to a text (by label words). */
  kgSimilar: {
    args: z
      .object({
        sessionId: sessionIdSchema,
        symbolId: z.number().int().nonnegative().optional(),
        text: z.string().min(1).max(500).optional(),
        k: z.number().int().min(1).max(100).default(10),
      })
      .refine((args) => (args.symbolId === undefined) !== (args.text === undefined), {
        message: 'give either symbolId or text',
      }),
    result: z.object({ hits: z.array(z.object({ symbol: symbolRefSchema, similarity: z.number().min(0).max(1) })) }),
  },
  /**
   * Why a fact is in the graph: the provenance record a triple points to. A record that explains a
   * batch of derived facts is told for `fact` (its rule, premises and confidence), or as the batch.
   */
  kgProvenance: {
    args: z.object({
      sessionId: sessionIdSchema,
      provenanceId: z.number().int().nonnegative(),
      fact: z.tuple([z.number().int(), z.number().int(), z.number().int()]).optional(),
    }),
    result: z.discriminatedUnion('isFound', [
      z.object({
        isFound: z.literal(true),
        record: provenanceRecordSchema.omit({ derivations: true }).extend({ id: z.number().int() }),
      }),
      z.object({ isFound: z.literal(false) }),
    ]),
  },
  /** Imports a text document (.txt, .md) for the agent to read and turn into facts; refused whole when empty, binary or over 2 MB. */
  documentImport: {
    args: z.object({ sessionId: sessionIdSchema, fileName: z.string().min(1).max(500), text: z.string() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), document: documentViewSchema }),
      z.object({
        ok: z.literal(false),
        reason: z.enum(['invalid', 'read-only', 'storage-full']),
        problems: z.array(problemSchema),
      }),
    ]),
  },
  /** The session's documents, newest first. */
  documentList: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.object({ documents: z.array(documentViewSchema) }),
  },
  /** Deletes a document; facts already extracted from it stay, with their provenance. */
  documentDelete: {
    args: z.object({ sessionId: sessionIdSchema, documentId: z.number().int() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true) }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
} as const;

import { z } from 'zod';
import { wordsOfText } from './sentence-facts.ts';

/** The largest text document Anima takes in (the agent reads documents whole, in memory). */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

/**
 * A text document the user imported for the agent to read (file_io) and turn into facts
 * (text_ingest). Its text is kept as imported.
 */
export const documentSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  name: z.string().min(1).max(500),
  text: z.string(),
  createdAt: z.number(),
  /** When text_ingest turned it into facts, and how many it found. */
  ingestedAt: z.number().optional(),
  factsExtracted: z.number().int().nonnegative().optional(),
});
export type DocumentRecord = z.infer<typeof documentSchema>;

/** A document as the agent holds it in memory: with its words, found once (its text never changes). */
export type ReadableDocument = DocumentRecord & { readonly words: ReadonlySet<string> };

export function readableDocument(record: DocumentRecord): ReadableDocument {
  return { ...record, words: wordsOfText(record.text) };
}

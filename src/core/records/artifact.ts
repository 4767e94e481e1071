import { z } from 'zod';
import { sizeText } from '#core/safe-json.ts';

/**
 * Artifacts: what a tool gives the user, apart from the value the model reads (DESIGN section 10).
 * A goal's Markdown notes (file_io) are text artifacts; a tool may also give JSON, an image or
 * any other file. Each is kept in the session's `artifacts` table (what it is) and its bytes in
 * `artifactBytes`, so listing them never reads their content.
 */

/** What an artifact holds, which says how it may be shown: text and JSON as plain text, an image as an image where safe, the rest only as a download. */
export const ARTIFACT_KINDS = ['text', 'json', 'image', 'binary'] as const;
export const artifactKindSchema = z.enum(ARTIFACT_KINDS);
export type ArtifactKind = z.infer<typeof artifactKindSchema>;

/**
 * The largest artifact Anima keeps, and so reads from a snapshot: 8 MB, a large photograph, and
 * small enough that thirty of them, as base64, fit in a snapshot (see docs/limits.md).
 */
export const MAX_ARTIFACT_BYTES = 8 * 2 ** 20;

/** The one sentence for an artifact over the limit, said by the writer and the snapshot reader alike. */
export function artifactTooLarge(size: number): string {
  return `the artifact is ${sizeText(size, 'up')}, more than the ${sizeText(MAX_ARTIFACT_BYTES, 'down')} Anima keeps`;
}

/**
 * The images a browser shows as pixels and nothing else. SVG is left out on purpose: it is a
 * document that may hold scripts and links, so it is only ever offered as a download.
 */
export const RASTER_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** A media type without parameters (`image/png`, `application/vnd.foo+json`), as RFC 6838 names them. */
export const mediaTypeSchema = z
  .string()
  .max(127)
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/u, 'a media type in lower case, such as image/png');

const artifactNameSchema = z
  .string()
  .min(1)
  .max(200)
  // A name becomes a file name on download (and in the CLI): no folders, no control characters.
  .regex(/^[^/\\\p{Cc}]+$/u, 'a file name without slashes or control characters');

/** An artifact's bytes, at most {@link MAX_ARTIFACT_BYTES}. */
export const artifactBytesSchema = z.instanceof(Uint8Array).superRefine((bytes, context) => {
  if (bytes.byteLength > MAX_ARTIFACT_BYTES)
    context.addIssue({ code: 'custom', message: artifactTooLarge(bytes.byteLength) });
});

/** What a tool hands over for the user: checked before the cycle's transaction, so a bad one changes nothing. */
export const artifactDraftSchema = z
  .object({
    name: artifactNameSchema,
    kind: artifactKindSchema,
    mediaType: mediaTypeSchema,
    bytes: artifactBytesSchema,
  })
  .strict()
  .superRefine((draft, context) => {
    const problem = kindProblem(draft.kind, draft.mediaType, draft.bytes);
    if (problem) context.addIssue({ code: 'custom', path: ['bytes'], message: problem });
  });
export type ArtifactDraft = z.infer<typeof artifactDraftSchema>;

/** Why bytes are not what their kind says (text that is not UTF-8, JSON that does not parse, an image without an image type), or undefined. */
export function kindProblem(kind: ArtifactKind, mediaType: string, bytes: Uint8Array): string | undefined {
  if (kind === 'image')
    return mediaType.startsWith('image/') ? undefined : `an image needs an image/ media type, not ${mediaType}`;
  if (kind === 'binary') return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return `${kind === 'json' ? 'JSON' : 'text'} must be UTF-8`;
  }
  if (kind === 'json')
    try {
      JSON.parse(text);
    } catch {
      return 'the JSON does not parse';
    }
  return undefined;
}

/** Where an artifact came from: the tool, the goal and the cycle that made it, and for a tool of an MCP server the server and a digest of the input. */
export const artifactProvenanceSchema = z.object({
  tool: z.string().min(1).max(200),
  goalId: z.number().int(),
  cycle: z.number().int().nonnegative(),
  server: z.string().min(1).max(200).optional(),
  inputDigest: z.string().max(128).optional(),
});
export type ArtifactProvenance = z.infer<typeof artifactProvenanceSchema>;

/** An artifact as the `artifacts` table keeps it: what it is, its size, where it came from; its bytes are in `artifactBytes` under the same id. */
export const artifactSchema = artifactProvenanceSchema.extend({
  id: z.number().int().optional(),
  sessionId: z.string(),
  name: artifactNameSchema,
  kind: artifactKindSchema,
  mediaType: mediaTypeSchema,
  size: z.number().int().nonnegative().max(MAX_ARTIFACT_BYTES),
  createdAt: z.number(),
  /** When a tool last wrote it (a goal's notes are rewritten as its findings grow). */
  updatedAt: z.number(),
});
export type Artifact = z.infer<typeof artifactSchema>;

/** An artifact's bytes, by the artifact's id. */
export type ArtifactBytesRecord = { id: number; sessionId: string; bytes: Uint8Array };

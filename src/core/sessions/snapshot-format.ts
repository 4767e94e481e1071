import { z } from 'zod';
import { symbolSchema } from '#core/kg/symbol.ts';
import { tripleSchema } from '#core/kg/triple.ts';
import { provenanceRecordSchema } from '#core/kg/provenance.ts';
import { documentSchema } from '#core/kg/document.ts';
import { sessionRecordSchema } from '#core/store/session.ts';
import { cycleRecordSchema } from '#core/records/cycle.ts';
import { episodeSchema } from '#core/records/episode.ts';
import { goalSchema } from '#core/records/goal.ts';
import { memoryEntrySchema } from '#core/records/memory-entry.ts';
import { approvalSchema } from '#core/records/approval.ts';
import { questionSchema } from '#core/records/question.ts';
import { artifactSchema, artifactTooLarge, kindProblem, MAX_ARTIFACT_BYTES } from '#core/records/artifact.ts';
import { base64DecodedLength, bytesFromBase64 } from '#core/base64.ts';
import { utf8Length } from '#core/text-bytes.ts';
import { psycheVersionSchema } from '#core/records/psyche-version.ts';
import { planSchema } from '#core/records/plan.ts';
import { reflectionSchema } from '#core/records/reflection.ts';
import { jobSchema } from '#core/records/job.ts';
import { personaBundleSchema } from '#core/personas/persona-bundle.ts';

/**
 * A session snapshot: one JSON document holding a whole session (this file: what is in it; snapshot.ts, snapshot-check.ts
 * and snapshot-restore.ts: reading, checking and writing it;
 * snapshot-encoding.ts: the file around it, its hash, gzip and limits). The UI reads the version too.
 */
export const SNAPSHOT_FORMAT = 'anima-snapshot';
/**
 * Version 2 added the agent's goals, working memory and cycle log; 3 its episodes; 4 the psyche's
 * versions and the approvals; 5 the agent's questions; 6 the imported documents; 7 the agent's
 * scratch notes; 8 its plans and reflections; 9 the persona it wears (as a bundle), numbers each
 * part's rows from 1 and carries the SHA-256 of its content; 10 the answers of goals that ask a
 * question; 11 the evidence of a refused action and the child runs on a cycle record, and a red team's
 * finding on an approval; 12 artifacts of every kind in place of the scratch notes (a note is a text
 * artifact); 13 the background jobs tools deferred, so a goal waiting for one goes on after an import;
 * 14 provenance records that explain a batch of derived facts, each with its rule and premises.
 * Older files are migrated on import.
 */
export const SNAPSHOT_VERSION = 14;

/**
 * The largest snapshot (unzipped) Anima reads, and so writes: the reader holds the whole document
 * as one string and then as objects, which past this a browser tab struggles to hold. Gzip saves
 * disk, not memory, so the limit is on the unzipped size either way.
 */
export const MAX_SNAPSHOT_BYTES = 256 * 2 ** 20;

/** The limits a snapshot file is read and written under: the same for both (tests pass smaller ones). */
export type SnapshotLimits = { maxBytes: number };
export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = { maxBytes: MAX_SNAPSHOT_BYTES };

/**
 * An artifact in a snapshot: text and JSON as `text` (readable, and searched for secrets like
 * every other text of the file), images and other files as `base64`; its size follows from them.
 * The limit on its bytes is the one the store keeps, in the same words.
 */
export const snapshotArtifactSchema = artifactSchema
  .omit({ sessionId: true, size: true })
  .extend({ id: z.number().int(), text: z.string().optional(), base64: z.base64().optional() })
  .strict()
  .superRefine((artifact, context) => {
    const isText = artifact.kind === 'text' || artifact.kind === 'json';
    const [field, other] = isText ? (['text', 'base64'] as const) : (['base64', 'text'] as const);
    const kind = `${artifact.kind === 'image' ? 'an' : 'a'} ${artifact.kind} artifact`;
    if (artifact[other] !== undefined) {
      context.addIssue({
        code: 'custom',
        path: [other],
        message: `${kind} holds its content as ${field}, not ${other}`,
      });
      return;
    }
    if (artifact[field] === undefined) {
      context.addIssue({ code: 'custom', path: [field], message: `${kind} needs its content as ${field}` });
      return;
    }
    const size = isText ? utf8Length(artifact.text!) : base64DecodedLength(artifact.base64!);
    if (size > MAX_ARTIFACT_BYTES) {
      context.addIssue({ code: 'custom', path: [field], message: artifactTooLarge(size) });
      return;
    }
    const bytes = isText ? new TextEncoder().encode(artifact.text) : bytesFromBase64(artifact.base64!)!;
    const problem = kindProblem(artifact.kind, artifact.mediaType, bytes);
    if (problem) context.addIssue({ code: 'custom', path: [field], message: problem });
  });
export type SnapshotArtifact = z.infer<typeof snapshotArtifactSchema>;

/** What a snapshot holds: the session, its graph, and every agent record, each part strict. */
export const snapshotSchema = z
  .object({
    format: z.literal(SNAPSHOT_FORMAT),
    version: z.literal(SNAPSHOT_VERSION),
    // The worn persona is the device catalog's (by a local id): a snapshot carries it whole instead.
    session: sessionRecordSchema.omit({ personaId: true }),
    persona: personaBundleSchema.optional(),
    symbols: z.array(symbolSchema.strict()),
    triples: z.array(tripleSchema.strict()),
    provenance: z.array(provenanceRecordSchema.omit({ sessionId: true }).extend({ id: z.number().int() }).strict()),
    goals: z.array(goalSchema.omit({ sessionId: true }).extend({ id: z.number().int() }).strict()),
    workingMemory: z.array(memoryEntrySchema.omit({ sessionId: true }).extend({ id: z.number().int() }).strict()),
    cycles: z.array(cycleRecordSchema.omit({ sessionId: true }).strict()),
    episodes: z.array(episodeSchema.omit({ sessionId: true }).extend({ id: z.number().int() }).strict()),
    psyches: z.array(psycheVersionSchema.omit({ sessionId: true, id: true }).strict()),
    approvals: z.array(approvalSchema.omit({ sessionId: true }).extend({ id: z.number().int() }).strict()),
    questions: z.array(questionSchema.omit({ sessionId: true }).extend({ id: z.number().int() }).strict()),
    documents: z.array(documentSchema.omit({ sessionId: true }).extend({ id: z.number().int() }).strict()),
    artifacts: z.array(snapshotArtifactSchema),
    plans: z.array(planSchema.omit({ sessionId: true }).extend({ id: z.number().int() }).strict()),
    reflections: z.array(reflectionSchema.omit({ sessionId: true }).extend({ id: z.number().int() }).strict()),
    jobs: z.array(jobSchema.omit({ sessionId: true }).extend({ id: z.number().int() }).strict()),
  })
  .strict();
export type Snapshot = z.infer<typeof snapshotSchema>;

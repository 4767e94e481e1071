import { z } from 'zod';

/** Why a tool refused an action (DESIGN section 10): four classes, each telling whether asking again could help. */
export const rejectionClassSchema = z.enum([
  'precondition_miss',
  'invalid_arguments',
  'policy_block',
  'dependency_unavailable',
]);
export type RejectionClass = z.infer<typeof rejectionClassSchema>;

/** The longest state text a rejection keeps: evidence, not a copy of what was read. */
const MAX_STATE_CHARS = 500;

/**
 * A refusal with its evidence, kept on the cycle record (and so in snapshots): what the action
 * required, what was observed instead, and whether retrying could succeed. Later diagnosis can
 * tell a blind choice (the state said no) from a misleading state (it said yes and was wrong).
 */
export const rejectionSchema = z.object({
  class: rejectionClassSchema,
  required: z.string().max(MAX_STATE_CHARS),
  observed: z.string().max(MAX_STATE_CHARS),
  retryable: z.boolean(),
});
export type Rejection = z.infer<typeof rejectionSchema>;

/** A precondition or a missing dependency may change; a refused input or a policy never does by asking again. */
export function isRetryable(kind: RejectionClass): boolean {
  return kind === 'precondition_miss' || kind === 'dependency_unavailable';
}

/** A rejection of this class, its state texts shortened to what a record keeps. */
export function rejectionOf(kind: RejectionClass, required: string, observed: string): Rejection {
  const cut = (text: string) => (text.length > MAX_STATE_CHARS ? `${text.slice(0, MAX_STATE_CHARS - 1)}…` : text);
  return { class: kind, required: cut(required), observed: cut(observed), retryable: isRetryable(kind) };
}

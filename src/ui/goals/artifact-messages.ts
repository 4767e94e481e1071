import { type ArtifactView, RASTER_IMAGE_TYPES } from '#core/api.ts';
import { sizeText } from '../sessions/session-messages.ts';

/** When and by what an artifact was written, and its size: "Written at cycle 4 by file_io, 2 KB". */
export function artifactSummary(artifact: Pick<ArtifactView, 'cycle' | 'tool' | 'size'>): string {
  return `Written at cycle ${artifact.cycle.toLocaleString('en')} by ${artifact.tool}, ${sizeText(artifact.size)}`;
}

/** The session's artifacts (listed newest first) grouped by goal, each goal's newest first. */
export function artifactsByGoal<Item extends Pick<ArtifactView, 'goalId'>>(
  items: readonly Item[],
): Map<number, Item[]> {
  const byGoal = new Map<number, Item[]>();
  for (const item of items) byGoal.set(item.goalId, [...(byGoal.get(item.goalId) ?? []), item]);
  return byGoal;
}

/**
 * How an artifact is previewed: text and JSON as plain text (never as HTML), raster images as an
 * image, anything else not at all (SVG included: it is a document that can hold scripts and links).
 */
export type PreviewKind = 'text' | 'image' | 'none';

export function previewKindOf(artifact: Pick<ArtifactView, 'kind' | 'mediaType'>): PreviewKind {
  if (artifact.kind === 'text' || artifact.kind === 'json') return 'text';
  if (artifact.kind === 'image' && RASTER_IMAGE_TYPES.includes(artifact.mediaType)) return 'image';
  return 'none';
}

/** Why an artifact is not previewed, for the place its preview would be. */
export function noPreviewText(artifact: Pick<ArtifactView, 'kind' | 'mediaType'>): string {
  return artifact.kind === 'image'
    ? `Not shown here: only PNG, JPEG, GIF and WebP images are shown, as they hold nothing but pixels (this one is ${artifact.mediaType}). Download it to open it.`
    : `Not shown here (${artifact.mediaType}): download it to open it.`;
}

/** At most this much of a text artifact is shown (the download holds all of it). */
export const MAX_PREVIEW_CHARS = 100_000;

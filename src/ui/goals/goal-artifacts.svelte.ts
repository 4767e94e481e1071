import type { ArtifactView } from '#core/api.ts';
import { artifactsByGoal } from './artifact-messages.ts';
import { PerGoalList, type PerGoalListHost } from './per-goal-list.svelte.ts';

/**
 * What tools gave the user for each goal (its notes, images, files), newest first, without their
 * bytes (a preview reads those when it opens); a cycle can add or rewrite one.
 */
export class GoalArtifacts extends PerGoalList<ArtifactView, Map<number, ArtifactView[]>> {
  constructor(host: PerGoalListHost) {
    super(
      host,
      async ({ client, sessionId }) => (await client.artifactList({ sessionId })).artifacts,
      (artifacts) => artifactsByGoal(artifacts),
    );
  }
}

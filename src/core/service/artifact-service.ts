import type { AgentServiceImplementation } from '#core/api.ts';
import { artifactsOfGoal, artifactsOfSession, readArtifact } from '#core/store/artifact-store.ts';
import type { Artifact } from '#core/records/artifact.ts';
import type { ServiceContext } from './service-context.ts';

const view = ({ sessionId: _sessionId, id, ...artifact }: Artifact) => ({ id: id!, ...artifact });

/** The artifact slice of the AgentService: what tools gave the user, listed and read. */
export function artifactService(
  context: ServiceContext,
): Pick<AgentServiceImplementation, 'artifactList' | 'artifactRead'> {
  const { db } = context;
  return {
    async artifactList({ sessionId, goalId }) {
      const artifacts =
        goalId === undefined ? await artifactsOfSession(db, sessionId) : await artifactsOfGoal(db, sessionId, goalId);
      return { artifacts: artifacts.map(view) };
    },
    async artifactRead({ sessionId, id }) {
      const found = await readArtifact(db, sessionId, id);
      if (!found) return { ok: false, problems: [{ message: `this session has no artifact ${id}` }] };
      return { ok: true, artifact: view(found.artifact), bytes: found.bytes };
    },
  };
}

import { goalStatusSchema } from '#core/records/goal.ts';
import type { SessionCommand, SessionContext } from '../session.ts';

/** `anima status`: where the session stands, at a glance or as one JSON object for scripts. */
export const STATUS_COMMANDS: Record<string, SessionCommand> = {
  status: { run: status },
};

async function status({ values, service, sessionId, output }: SessionContext): Promise<number> {
  const [{ sessions }, memory, { goals }, psyche] = await Promise.all([
    service.sessionList({}),
    service.memoryList({ sessionId, episodeLimit: 1 }),
    service.goalList({ sessionId, findingsLimit: 0 }),
    service.psycheGet({ sessionId }),
  ]);
  const cycle = sessions.find((session) => session.id === sessionId)?.cycle ?? 0;
  const goalCounts = Object.fromEntries(
    goalStatusSchema.options.map((goalStatus) => [
      goalStatus,
      goals.filter((goal) => goal.status === goalStatus).length,
    ]),
  );
  const summary = {
    cycle,
    workingMemory: { size: memory.entries.length, capacity: memory.capacity },
    episodes: memory.episodeTotal,
    goals: goalCounts,
    psyche: { archetypes: psyche.psyche.archetypes, individuation: psyche.psyche.selfIntegration.individuationLevel },
  };
  if (values.json) {
    output.out(`${JSON.stringify(summary)}\n`);
    return 0;
  }
  const counts = goalStatusSchema.options
    .filter((goalStatus) => (goalCounts[goalStatus] ?? 0) > 0)
    .map((goalStatus) => `${goalCounts[goalStatus]} ${goalStatus}`);
  const archetypes = Object.entries(summary.psyche.archetypes).map(
    ([archetype, weight]) => `${archetype} ${weight.toFixed(2)}`,
  );
  output.out(
    `cycle ${cycle}\nworking memory ${summary.workingMemory.size} of ${summary.workingMemory.capacity} entries\nepisodes ${summary.episodes}\n` +
      `goals ${counts.length > 0 ? counts.join(', ') : 'none'}\npsyche ${archetypes.join(', ')}; individuation ${summary.psyche.individuation.toFixed(2)}\n`,
  );
  return 0;
}

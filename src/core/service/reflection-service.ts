import type { AgentServiceImplementation } from '#core/api.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import { parseAgentSettings, settingsOfSession } from '#core/records/agent-settings.ts';
import { reflect } from '#core/agent/reflect-and-evolve.ts';

/** The reflection slice of the AgentService: reflecting on demand, the reflections made, and the settings of planning and reflection. */
export function reflectionService(
  context: ServiceContext,
): Pick<AgentServiceImplementation, 'reflect' | 'reflectionList' | 'agentSettingsGet' | 'agentSettingsSet'> {
  const { db, now, sessionOf, exclusively, canWrite } = context;
  return {
    async reflect({ sessionId }) {
      if (!canWrite()) return { ok: false, reason: 'read-only', problems: [{ message: READ_ONLY_MESSAGE }] };
      return exclusively(async () => {
        const session = await sessionOf(sessionId);
        const reflection = await db.transaction(
          'rw',
          [
            db.sessions,
            db.goals,
            db.cycles,
            db.workingMemory,
            db.episodes,
            db.provenance,
            db.psyches,
            db.plans,
            db.reflections,
          ],
          () => reflect({ db, sessionId, cycle: session.cycle, startedAt: now() }, 'request'),
        );
        return { ok: true as const, reflection: { ...reflection, id: reflection.id! } };
      });
    },

    async reflectionList({ sessionId, limit }) {
      const reflections = await db.reflections
        .where('[sessionId+cycle]')
        .between([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER])
        .reverse()
        .limit(limit)
        .toArray();
      return { reflections: reflections.map((reflection) => ({ ...reflection, id: reflection.id! })) };
    },

    async agentSettingsGet({ sessionId }) {
      return settingsOfSession(await sessionOf(sessionId));
    },

    async agentSettingsSet({ sessionId, settings }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const parsed = parseAgentSettings(settings);
      if (!parsed.ok) return { ok: false, problems: parsed.error };
      await exclusively(async () => {
        await sessionOf(sessionId);
        await db.sessions.update(sessionId, { agentSettings: parsed.value });
      });
      return { ok: true, settings: parsed.value };
    },
  };
}

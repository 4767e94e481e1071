/**
 * Every schema version the database has had, oldest first. A past version is never edited:
 * a change adds a version (with an upgrade function in database.ts when data must move), and
 * tests open a database written by each older version with the current code.
 */
export const SCHEMA_VERSIONS = [
  {
    version: 1,
    stores: {
      sessions: 'id, updatedAt',
      // Knowledge graph, per session. Primary keys make (session, id) and (session, s, p, o) unique.
      symbols: '[sessionId+id]',
      triples: '[sessionId+subject+predicate+object]',
      provenance: '++id, sessionId, kind',
      documents: '++id, sessionId, name',
      artifacts: '++id, sessionId',
      // The agent (filled by the agent issue).
      goals: '++id, sessionId, [sessionId+status], parentId',
      plans: '++id, sessionId, goalId',
      workingMemory: '++id, sessionId',
      episodes: '++id, sessionId, goalId',
      approvals: '++id, sessionId, status',
      // The psyche: every change is a new row.
      psyches: '++id, sessionId, [sessionId+version]',
      // The persona catalog.
      personas: '++id, &name',
      parts: '++id, type, name',
      traits: '++id, type, name',
      skills: '++id, &name',
      guardrails: '++id, &name',
      arcs: '++id, &name',
      arcStages: '++id, arcId, [arcId+position]',
      personaParts: '[personaId+partId], personaId, partId',
      personaTraits: '[personaId+traitId], personaId',
      personaSkills: '[personaId+skillId], personaId',
      personaGuardrails: '[personaId+guardrailId], personaId',
      stageParts: '[stageId+partId], stageId',
      personaArcs: 'personaId, arcId',
      // Inference and settings.
      models: 'id',
      settings: 'key',
    },
  },
] as const satisfies readonly { version: number; stores: Record<string, string> }[];

export const CURRENT_SCHEMA_VERSION = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1]!.version;

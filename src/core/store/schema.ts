/**
 * Every schema version the database has had, oldest first; each lists only the tables it adds,
 * changes or (with null) deletes. A past version is never edited: a change adds a version (with
 * an upgrade in migrations.ts when data must move), and schema.test.ts opens a database written
 * by each older version with the current code.
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
  {
    version: 2,
    // The knowledge graph moves to packed chunks (see graph-chunks.ts): a reload reads hundreds
    // of records instead of millions. The upgrade in migrations.ts moves version 1's rows.
    stores: {
      symbols: null,
      triples: null,
      symbolChunks: '[sessionId+index]',
      tripleChunks: '[sessionId+index]',
    },
  },
  {
    version: 3,
    // The agent's cycle log: one record per cycle, with every candidate's score.
    stores: { cycles: '[sessionId+cycle]' },
  },
  {
    version: 4,
    // Questions the agent asked the user (user_interact), waiting for or holding the answer.
    stores: { questions: '++id, sessionId, status' },
  },
  {
    version: 5,
    // Plans steer the loop: each cycle reads the session's active plans. Reflections are stored.
    stores: { plans: '++id, sessionId, goalId, [sessionId+status]', reflections: '++id, [sessionId+cycle]' },
  },
  {
    version: 6,
    // The persona catalog arrives: overrides and links find parts and traits by name, so their
    // names become unique (version 1 declared the tables, and nothing wrote them before).
    stores: { parts: '++id, &name, type', traits: '++id, &name, type' },
  },
  {
    version: 7,
    // No table changes: symbols an older Anima numbered (Mammal-2) get their names (migrations.ts).
    stores: {},
  },
  {
    version: 8,
    // Embeddings of texts (episode summaries, symbol labels) by the bound embedder, kept so a cycle
    // embeds only what is new; the device's, like the models (a cache: never exported).
    stores: { embeddings: '[embedder+digest], storedAt' },
  },
  {
    version: 9,
    // The background jobs tools defer, found by session and status when a session opens.
    stores: { jobs: '++id, sessionId, [sessionId+status]' },
  },
  {
    version: 10,
    // Artifacts of every kind (text, JSON, images, files) with their provenance, listed per goal;
    // their bytes in a table of their own, so listing them never reads their content. The
    // upgrade in migrations.ts turns version 9's Markdown notes into text artifacts.
    stores: { artifacts: '++id, sessionId, [sessionId+goalId]', artifactBytes: 'id, sessionId' },
  },
] as const satisfies readonly { version: number; stores: Record<string, string | null> }[];

export const CURRENT_SCHEMA_VERSION = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1]!.version;

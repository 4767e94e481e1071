import { packedValues } from './packed-values.ts';
import { RowMirror } from './row-mirror.ts';
import { type Collection, Dexie, type DexieOptions, type EntityTable, type Table } from 'dexie';
import type { CycleRecord } from '#core/records/cycle.ts';
import type { Episode } from '#core/records/episode.ts';
import type { Goal } from '#core/records/goal.ts';
import type { MemoryEntry } from '#core/records/memory-entry.ts';
import type { Approval } from '#core/records/approval.ts';
import type { Question } from '#core/records/question.ts';
import type { DocumentRecord } from '#core/kg/document.ts';
import type { Artifact, ArtifactBytesRecord } from '#core/records/artifact.ts';
import type { Plan } from '#core/records/plan.ts';
import type { Reflection } from '#core/records/reflection.ts';
import type { PsycheVersion } from '#core/records/psyche-version.ts';
import type { GgufModelRecord } from '#core/records/gguf-model.ts';
import type { WebLlmModelRecord } from '#core/records/webllm-model.ts';
import type { EmbeddingRecord } from '#core/records/embedding.ts';
import type { Job } from '#core/records/job.ts';
import type {
  ArcRecord,
  ArcStageRecord,
  GuardrailRecord,
  PartRecord,
  PersonaArcRecord,
  PersonaGuardrailLink,
  PersonaPartLink,
  PersonaRecord,
  PersonaSkillLink,
  PersonaTraitLink,
  SkillRecord,
  StagePartLink,
  TraitRecord,
} from '#core/records/persona-catalog.ts';
import type { SymbolChunkRecord, TripleChunkRecord } from './graph-chunks.ts';
import { UPGRADES } from './migrations.ts';
import type { ProvenanceInsert, ProvenanceRecord } from '#core/kg/provenance.ts';
import { SCHEMA_VERSIONS } from './schema.ts';
import { endpointKeySetting } from '#core/records/sparql-endpoint.ts';
import { toolServerKeySetting } from '#core/records/tool-server.ts';
import type { SessionRecord } from './session.ts';

/** A key-value setting. */
export type SettingRecord = { key: string; value: unknown };

/** A table of the database, named for the areas above store/ so only store/ imports Dexie. */
export type StoreTable<Row, Key> = Table<Row, Key>;

/** Options for opening the database; Node passes fake-indexeddb here. */
export type DatabaseOptions = Pick<DexieOptions, 'indexedDB' | 'IDBKeyRange'>;

/**
 * Anima's IndexedDB database. Only the agent worker (and the CLI) write to it. Tables that later
 * issues fill are declared already, so their arrival needs no schema change.
 */
export class AnimaDatabase extends Dexie {
  sessions!: EntityTable<SessionRecord, 'id'>;
  symbolChunks!: Table<SymbolChunkRecord, [string, number]>;
  tripleChunks!: Table<TripleChunkRecord, [string, number]>;
  /** Added with an inference's derivations in columns already, or listed; read listed (see packed-values.ts). */
  provenance!: EntityTable<ProvenanceRecord, 'id', ProvenanceInsert>;
  goals!: EntityTable<Goal, 'id'>;
  workingMemory!: EntityTable<MemoryEntry, 'id'>;
  episodes!: EntityTable<Episode, 'id'>;
  cycles!: Table<CycleRecord, [string, number]>;
  psyches!: EntityTable<PsycheVersion, 'id'>;
  approvals!: EntityTable<Approval, 'id'>;
  questions!: EntityTable<Question, 'id'>;
  documents!: EntityTable<DocumentRecord, 'id'>;
  /** What tools gave the user (a goal's notes, images, files): what each is; its bytes are in artifactBytes. */
  artifacts!: EntityTable<Artifact, 'id'>;
  artifactBytes!: Table<ArtifactBytesRecord, number>;
  settings!: EntityTable<SettingRecord, 'key'>;
  plans!: EntityTable<Plan, 'id'>;
  reflections!: EntityTable<Reflection, 'id'>;
  // The persona catalog (the device's, shared by sessions).
  personas!: EntityTable<PersonaRecord, 'id'>;
  parts!: EntityTable<PartRecord, 'id'>;
  traits!: EntityTable<TraitRecord, 'id'>;
  skills!: EntityTable<SkillRecord, 'id'>;
  guardrails!: EntityTable<GuardrailRecord, 'id'>;
  arcs!: EntityTable<ArcRecord, 'id'>;
  arcStages!: EntityTable<ArcStageRecord, 'id'>;
  personaParts!: Table<PersonaPartLink, [number, number]>;
  personaTraits!: Table<PersonaTraitLink, [number, number]>;
  personaSkills!: Table<PersonaSkillLink, [number, number]>;
  personaGuardrails!: Table<PersonaGuardrailLink, [number, number]>;
  stageParts!: Table<StagePartLink, [number, number]>;
  personaArcs!: Table<PersonaArcRecord, number>;
  /** The models added here: GGUF models for the CPU engine (their files are the GgufHost's) and WebLLM models not in its list. */
  models!: EntityTable<GgufModelRecord | WebLlmModelRecord, 'id'>;
  /** Texts' embeddings by the embedders bound here: a bounded cache (see llm/embedding-cache.ts), the device's, never exported. */
  embeddings!: Table<EmbeddingRecord, [string, string]>;
  /** Background work tools deferred; a session's own (deleted with it, carried by its snapshots). */
  jobs!: EntityTable<Job, 'id'>;
  /** The rows a cycle reads before it decides, kept in memory from this object's own writes. */
  readonly mirror = new RowMirror();

  constructor(name: string, options: DatabaseOptions = {}) {
    // No liveQuery reads the database and no hook watches it: Dexie's bookkeeping for them (the
    // keys each write touched, broadcast at each commit; the hooks looked up per write) cost a
    // cycle's commit about a third of a millisecond.
    super(name, { ...options, cache: 'disabled' });
    this.unuse({ stack: 'dbcore', name: 'Observability' });
    this.unuse({ stack: 'dbcore', name: 'HooksMiddleware' });
    for (const { version, stores } of SCHEMA_VERSIONS) {
      const declared = this.version(version).stores(stores);
      const upgrade = UPGRADES[version];
      if (upgrade) declared.upgrade(upgrade);
    }
    // Under the packing: the mirror is given values as they are stored (long lists packed).
    this.use(this.mirror.middleware);
    this.use(packedValues);
  }
}

/** The name of the app's database in the browser. */
export const DATABASE_NAME = 'anima';

/** The setting that names the session the app (or CLI) works in. */
export const ACTIVE_SESSION_KEY = 'activeSessionId';

/** The setting that says whether a session's starter graph is loaded ('pending' until it is). */
export const starterGraphKey = (sessionId: string) => `starterGraph:${sessionId}`;

/** A session's chunks (symbols or triples), in index order. */
export function chunksOfSession<T>(
  table: Table<T, [string, number]>,
  sessionId: string,
): Collection<T, [string, number]> {
  return table.where('[sessionId+index]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]);
}

/** Every table that holds a session's own rows (the catalog, models and settings are the device's). */
export function sessionTables(db: AnimaDatabase): Table[] {
  return [
    db.sessions,
    db.symbolChunks,
    db.tripleChunks,
    db.provenance,
    db.goals,
    db.workingMemory,
    db.cycles,
    db.episodes,
    db.psyches,
    db.approvals,
    db.questions,
    db.documents,
    db.artifacts,
    db.artifactBytes,
    db.plans,
    db.reflections,
    db.jobs,
  ];
}

/** Every row a session owns besides its session record, as one collection per table. */
export function sessionRows(db: AnimaDatabase, sessionId: string): Collection<unknown>[] {
  return [
    chunksOfSession(db.symbolChunks, sessionId),
    chunksOfSession(db.tripleChunks, sessionId),
    ...sessionRowsBesideGraph(db, sessionId),
  ];
}

/** The rows of {@link sessionRows} but its graph's chunks. */
export function sessionRowsBesideGraph(db: AnimaDatabase, sessionId: string): Collection<unknown>[] {
  const everyCycle = [
    [sessionId, 0],
    [sessionId, Number.MAX_SAFE_INTEGER],
  ] as const;
  return [
    db.cycles.where('[sessionId+cycle]').between(...everyCycle),
    (db.reflections as Table).where('[sessionId+cycle]').between(...everyCycle),
    ...[
      db.provenance,
      db.goals,
      db.workingMemory,
      db.episodes,
      db.psyches,
      db.approvals,
      db.questions,
      db.documents,
      db.artifacts,
      db.artifactBytes,
      db.plans,
      db.jobs,
    ].map((table: Table) => table.where('sessionId').equals(sessionId)),
  ];
}

/** Deletes a session and every row of it; call it inside a transaction over {@link sessionTables} and settings. */
export async function deleteSessionRows(db: AnimaDatabase, sessionId: string): Promise<void> {
  await Promise.all([
    db.sessions.delete(sessionId),
    ...sessionRows(db, sessionId).map((rows) => rows.delete()),
    db.settings.delete(starterGraphKey(sessionId)),
    db.settings.delete(endpointKeySetting(sessionId)),
    db.settings.delete(toolServerKeySetting(sessionId)),
  ]);
}

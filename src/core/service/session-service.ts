import type { AgentServiceImplementation } from '#core/api.ts';
import { hasGoalEnded } from '#core/records/goal.ts';
import type { Problem } from '#core/result.ts';
import { READ_ONLY_MESSAGE, type ServiceContext } from './service-context.ts';
import { bundleText, isSameBundle, type PersonaBundle } from '#core/personas/persona-bundle.ts';
import { personaBundleOf } from '#core/personas/persona-catalog-read.ts';
import { ACTIVE_SESSION_KEY, deleteSessionRows, sessionRows, sessionTables } from '#core/store/database.ts';
import { addSession, FIRST_SESSION_NAME } from './add-session.ts';
import { isQuotaExceeded, storageFull } from '#core/store/quota.ts';
import { checkSession } from '#core/sessions/session-check.ts';
import type { SessionRecord } from '#core/store/session.ts';
import { storedSecrets } from '#core/llm/stored-secrets.ts';
import { exportCheckedSnapshot, exportSnapshot } from '#core/sessions/snapshot.ts';
import { restoreSnapshot } from '#core/sessions/snapshot-restore.ts';
import { readSnapshotFile, snapshotFileBytes, snapshotFileName } from '#core/sessions/snapshot-encoding.ts';
import type { SessionView } from '#core/api/session-contract.ts';

type SessionMethods =
  | 'sessionList'
  | 'sessionCreate'
  | 'sessionRename'
  | 'sessionDuplicate'
  | 'sessionDelete'
  | 'sessionSwitch'
  | 'sessionExport'
  | 'sessionImportCheck'
  | 'sessionImport'
  | 'sessionCheck';
/** What importing a snapshot's persona needs of the catalog service. */
type PersonaAccess = Pick<AgentServiceImplementation, 'personaImport' | 'sessionPersonaSet'>;

type Failure = {
  ok: false;
  reason: 'invalid' | 'not-found' | 'read-only' | 'busy' | 'exists' | 'storage-full';
  problems: Problem[];
};
const fail = (reason: Failure['reason'], message: string, path?: string): Failure => ({
  ok: false,
  reason,
  problems: [{ ...(path !== undefined ? { path } : {}), message }],
});

/** How many of the latest cycles are searched for the model a session used. */
const MODEL_LOOKBACK = 200;

/** Sessions: the list with what each holds, making, renaming, copying, deleting and switching them, and their snapshot files. */
export function sessionService(
  context: ServiceContext,
  personas: PersonaAccess,
): Pick<AgentServiceImplementation, SessionMethods> {
  const { db, now, newId, exclusively, canWrite, graphs, forgetDocuments, isBusy, dependencies } = context;

  const viewOf = async (session: SessionRecord, activeId: unknown): Promise<SessionView> => {
    const [goals, persona, psyche, recent, sizeBytes] = await Promise.all([
      db.goals.where('sessionId').equals(session.id).toArray(),
      session.personaId !== undefined ? db.personas.get(session.personaId) : undefined,
      db.psyches.where('[sessionId+version]').between([session.id, 0], [session.id, Number.MAX_SAFE_INTEGER]).last(),
      db.cycles
        .where('[sessionId+cycle]')
        .between([session.id, 0], [session.id, Number.MAX_SAFE_INTEGER])
        .reverse()
        .limit(MODEL_LOOKBACK)
        .toArray(),
      sizeOf(session.id),
    ]);
    const used = recent.find((record) => record.model)?.model;
    return {
      id: session.id,
      name: session.name,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
      cycle: session.cycle,
      goals: { total: goals.length, open: goals.filter((goal) => !hasGoalEnded(goal.status)).length },
      ...(persona ? { persona: persona.name } : {}),
      psycheVersion: psyche?.version ?? 0,
      ...(used ? { model: `${used.provider} ${used.model}` } : {}),
      sizeBytes,
      isActive: session.id === activeId,
    };
  };

  /** Roughly what a session takes: its graph's packed chunks, and the JSON of every other row. */
  const sizeOf = async (sessionId: string): Promise<number> => {
    let bytes = 0;
    const count = (row: unknown) => {
      bytes += JSON.stringify(row, (_key, value: unknown) =>
        ArrayBuffer.isView(value) ? `${value.byteLength}` : value,
      ).length;
      for (const value of Object.values(row as object)) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
    };
    await db.transaction('r', sessionTables(db), () =>
      Promise.all(sessionRows(db, sessionId).map((rows) => rows.each(count))),
    );
    return bytes;
  };

  const activeIdOf = async () => (await db.settings.get(ACTIVE_SESSION_KEY))?.value;
  const viewById = async (sessionId: string) => viewOf((await db.sessions.get(sessionId))!, await activeIdOf());
  /** Drops what the worker holds in memory of a session that was replaced or deleted. */
  const forget = (sessionId: string) => {
    graphs.delete(sessionId);
    forgetDocuments(sessionId);
  };
  const busy = () =>
    isBusy()
      ? fail('busy', 'a run, an import or a download is in progress; wait for it to end or cancel it first')
      : undefined;
  /** A change, one at a time; a full storage refuses it whole (each change is one transaction). */
  const change = async <T>(work: () => Promise<T>): Promise<T | Failure> => {
    if (!canWrite()) return fail('read-only', READ_ONLY_MESSAGE);
    try {
      return await exclusively(work);
    } catch (error) {
      if (isQuotaExceeded(error)) return storageFull();
      throw error;
    }
  };

  /** Wears the snapshot's persona again: the catalog's of that name when it is the same, else imported; warnings say when it cannot be. */
  const wearPersona = async (sessionId: string, bundle: PersonaBundle): Promise<Problem[]> => {
    const name = bundle.persona.name;
    const stored = await db.personas.where('name').equals(name).first();
    if (stored && !isSameBundle(await personaBundleOf(db, stored), bundle))
      return [
        {
          path: 'persona',
          message: `the session wore the persona "${name}", which this device's catalog has with other content; the session was imported without a persona: wear one on the Personas screen`,
        },
      ];
    if (!stored) {
      const imported = await personas.personaImport({
        fileName: 'session-snapshot.persona.json',
        data: bundleText(bundle),
      });
      if (!imported.ok)
        return imported.problems.map((problem) => ({
          ...problem,
          message: `the session's persona "${name}" could not join the catalog (${problem.message}); the session was imported without it`,
        }));
    }
    const worn = await personas.sessionPersonaSet({ sessionId, persona: name });
    return worn.ok ? [] : worn.problems;
  };

  return {
    async sessionList() {
      const [sessions, activeId] = await Promise.all([
        db.sessions.orderBy('updatedAt').reverse().toArray(),
        activeIdOf(),
      ]);
      return { sessions: await Promise.all(sessions.map((session) => viewOf(session, activeId))) };
    },

    async sessionCreate({ name, start }) {
      return change(async () => {
        const session = await addSession(context, name, { activate: false, isEmpty: start === 'empty' });
        return { ok: true as const, session: await viewById(session.id) };
      });
    },

    async sessionRename({ sessionId, name }) {
      return change(async () => {
        const updated = await db.sessions.update(sessionId, { name, updatedAt: now() });
        return updated
          ? { ok: true as const, session: await viewById(sessionId) }
          : fail('not-found', `there is no session ${sessionId}`, 'sessionId');
      });
    },

    async sessionDuplicate({ sessionId, name }) {
      return change(async () => {
        const source = await db.sessions.get(sessionId);
        if (!source) return fail('not-found', `there is no session ${sessionId}`, 'sessionId');
        const snapshot = await exportSnapshot(db, sessionId);
        const copyId = await restoreSnapshot(db, snapshot, {
          sessionId: newId(),
          name,
          madeAt: now(),
          activate: false,
          ...(source.personaId !== undefined ? { personaId: source.personaId } : {}),
        });
        return { ok: true as const, session: await viewById(copyId) };
      });
    },

    async sessionDelete({ sessionId }) {
      return change(async () => {
        if (!(await db.sessions.get(sessionId)))
          return fail('not-found', `there is no session ${sessionId}`, 'sessionId');
        const isActive = (await activeIdOf()) === sessionId;
        if (isActive) {
          const refusal = busy();
          if (refusal) return refusal;
        }
        const activeId = await db.transaction('rw', [...sessionTables(db), db.settings], async () => {
          await deleteSessionRows(db, sessionId);
          if (!isActive) return (await activeIdOf()) as string;
          const next = await db.sessions.orderBy('updatedAt').last();
          if (next) {
            await db.settings.put({ key: ACTIVE_SESSION_KEY, value: next.id });
            return next.id;
          }
          return (await addSession(context, FIRST_SESSION_NAME, { activate: true })).id;
        });
        forget(sessionId);
        return { ok: true as const, activeId };
      });
    },

    async sessionSwitch({ sessionId }) {
      return change(async () => {
        if (!(await db.sessions.get(sessionId)))
          return fail('not-found', `there is no session ${sessionId}`, 'sessionId');
        if ((await activeIdOf()) !== sessionId) {
          const refusal = busy();
          if (refusal) return refusal;
          await db.settings.put({ key: ACTIVE_SESSION_KEY, value: sessionId });
        }
        return { ok: true as const, session: await viewById(sessionId) };
      });
    },

    async sessionExport({ sessionId, gzip }) {
      const session = await db.sessions.get(sessionId);
      if (!session) return fail('not-found', `there is no session ${sessionId}`, 'sessionId');
      // A snapshot the reader would refuse (too large, a field too long) or that would carry a secret is not written: the reader's words say why.
      const snapshot = await exportCheckedSnapshot(db, sessionId);
      const bytes = snapshot.ok
        ? await snapshotFileBytes(snapshot.value, {
            gzip,
            secrets: await storedSecrets(db),
            limits: dependencies.snapshotLimits,
          })
        : snapshot;
      if (!bytes.ok) return { ok: false as const, reason: 'invalid' as const, problems: bytes.error };
      return {
        ok: true as const,
        fileName: snapshotFileName(session.name, { gzip }),
        mediaType: gzip ? 'application/gzip' : 'application/json',
        bytes: bytes.value,
      };
    },

    async sessionImportCheck({ bytes }) {
      const read = await readSnapshotFile(bytes, dependencies.snapshotLimits);
      if (!read.ok) return { ok: false as const, reason: 'invalid' as const, problems: read.error };
      const { snapshot, fileVersion } = read.value;
      return {
        ok: true as const,
        preview: {
          id: snapshot.session.id,
          name: snapshot.session.name,
          cycle: snapshot.session.cycle,
          goals: snapshot.goals.length,
          triples: snapshot.triples.length,
          ...(snapshot.persona ? { persona: snapshot.persona.persona.name } : {}),
          fileVersion,
          exists: (await db.sessions.get(snapshot.session.id)) !== undefined,
        },
      };
    },

    async sessionImport({ bytes, as, name }) {
      const read = await readSnapshotFile(bytes, dependencies.snapshotLimits);
      if (!read.ok) return { ok: false as const, reason: 'invalid' as const, problems: read.error };
      const { snapshot } = read.value;
      const restored = await change(async () => {
        const exists = (await db.sessions.get(snapshot.session.id)) !== undefined;
        if (exists && as === undefined)
          return fail(
            'exists',
            `the session "${snapshot.session.name}" is on this device already: import it as a copy, or replace it`,
          );
        if (exists && as === 'replace' && (await activeIdOf()) === snapshot.session.id) {
          const refusal = busy();
          if (refusal) return refusal;
        }
        const sessionId = exists && as === 'copy' ? newId() : snapshot.session.id;
        await restoreSnapshot(db, snapshot, { sessionId, activate: false, ...(name !== undefined ? { name } : {}) });
        forget(sessionId);
        return { ok: true as const, sessionId };
      });
      if (!restored.ok) return restored;
      const warnings = snapshot.persona ? await wearPersona(restored.sessionId, snapshot.persona) : [];
      return { ok: true as const, session: await viewById(restored.sessionId), warnings };
    },

    async sessionCheck({ sessionId }) {
      return { problems: await checkSession(db, sessionId) };
    },
  };
}

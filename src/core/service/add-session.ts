import type { ServiceContext } from './service-context.ts';
import { ACTIVE_SESSION_KEY, starterGraphKey } from '#core/store/database.ts';
import type { SessionRecord } from '#core/store/session.ts';

/** The name of the session made when there is none. */
export const FIRST_SESSION_NAME = 'My session';

/**
 * Adds a new, empty session, active when asked; in the app its starter graph (unless it is to
 * start empty) is marked pending in the same transaction, so a tab closed mid-load loads it again
 * on the next start.
 */
export async function addSession(
  context: Pick<ServiceContext, 'db' | 'now' | 'newId' | 'dependencies'>,
  name: string,
  options: { activate: boolean; isEmpty?: boolean },
): Promise<SessionRecord> {
  const { db, now, newId, dependencies } = context;
  const session: SessionRecord = { id: newId(), name, cycle: 0, createdAt: now(), updatedAt: now() };
  await db.transaction('rw', db.sessions, db.settings, async () => {
    await db.sessions.add(session);
    if (options.activate) await db.settings.put({ key: ACTIVE_SESSION_KEY, value: session.id });
    if (dependencies.loadStarterGraph && !options.isEmpty)
      await db.settings.put({ key: starterGraphKey(session.id), value: 'pending' });
  });
  return session;
}

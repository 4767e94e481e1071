import type { AgentServiceImplementation } from '#core/api.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import { DEFAULT_WEB_ACCESS, WEB_ACCESS_KEY, parseWebAccess, webAccessSchema } from '#core/tools/web-access.ts';

/** The web access slice of the AgentService: what the user allows http_fetch (a device setting). */
export function webAccessService(
  context: ServiceContext,
): Pick<AgentServiceImplementation, 'webAccessGet' | 'webAccessSet'> {
  const { db, exclusively, canWrite } = context;
  return {
    async webAccessGet() {
      const stored = await db.settings.get(WEB_ACCESS_KEY);
      return webAccessSchema.safeParse(stored?.value).data ?? DEFAULT_WEB_ACCESS;
    },

    async webAccessSet({ webAccess }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const parsed = parseWebAccess(webAccess);
      if (!parsed.ok) return { ok: false, problems: parsed.error };
      await exclusively(() => db.settings.put({ key: WEB_ACCESS_KEY, value: parsed.value }));
      return { ok: true, webAccess: parsed.value };
    },
  };
}

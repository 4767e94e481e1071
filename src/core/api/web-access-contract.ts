import { z } from 'zod';
import { problemSchema } from '#core/result.ts';

export { MAX_FINDINGS } from '#core/records/goal.ts';
import { webAccessSchema } from '#core/tools/web-access.ts';
export { webAccessSchema };
export type { WebAccess } from '#core/tools/web-access.ts';

/** Which addresses the agent may fetch. */
export const webAccessContract = {
  webAccessGet: { args: z.object({}), result: webAccessSchema },
  /** Changes it; each prefix must be an http(s) address. */
  webAccessSet: {
    args: z.object({ webAccess: webAccessSchema }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), webAccess: webAccessSchema }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
} as const;

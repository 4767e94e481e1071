import type { Archetype } from '../tools/tool.ts';

/** The default archetype weights of DESIGN section 7, until a psyche is loaded (the psyche issue). */
export const DEFAULT_ARCHETYPE_WEIGHTS: Record<Archetype, number> = { sage: 0.7, healer: 0.5, explorer: 0.5, guardian: 0.4 };

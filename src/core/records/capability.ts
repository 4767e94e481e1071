import { z } from 'zod';

/** How much harm a tool can do, in increasing order (a shadow pattern's threshold compares on this order). */
export const DANGER_LEVELS = ['safe', 'cautious', 'dangerous', 'critical'] as const;
export const dangerLevelSchema = z.enum(DANGER_LEVELS);
export type DangerLevel = z.infer<typeof dangerLevelSchema>;

/** What a tool touches; shadow patterns can trigger on these. */
export const CAPABILITIES = [
  'readKg',
  'writeKg',
  'readFiles',
  'writeFiles',
  'network',
  'processExec',
  'user',
  'reason',
  'similarity',
  'provenance',
  'memory',
  'llm',
] as const;
export const capabilitySchema = z.enum(CAPABILITIES);
export type Capability = z.infer<typeof capabilitySchema>;

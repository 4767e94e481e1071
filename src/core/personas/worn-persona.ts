import type { Psyche, ShadowPattern } from '#core/records/psyche.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { assemblePersona } from './assemble.ts';
import type { GuardrailRecord } from '#core/records/persona-catalog.ts';
import { catalogTables, readDefinition } from './persona-catalog-read.ts';

/** What a session's agent takes from the persona it wears: its name, its guardrails, and its prompt for a bound model. */
export type WornPersona = { name: string; guardrails: GuardrailRecord[]; prompt: string };

/**
 * Reads the persona a session wears, or undefined when it wears none. The prompt is the compiled
 * summary when the persona was compiled (what compile published), else the summary assembled now.
 */
export async function readWornPersona(db: AnimaDatabase, sessionId: string): Promise<WornPersona | undefined> {
  return db.transaction('r', catalogTables(db), async () => {
    const session = await db.sessions.get(sessionId);
    const persona = session?.personaId !== undefined ? await db.personas.get(session.personaId) : undefined;
    if (!persona) return undefined;
    const definition = await readDefinition(db, persona);
    const assembled = assemblePersona(definition, { detail: false });
    const prompt = persona.compiledSummary ?? (assembled.ok ? assembled.value.text : '');
    return { name: persona.name, guardrails: definition.guardrails, prompt };
  });
}

/** A guardrail as a shadow veto pattern: its triggers fire it, its description explains the veto. */
export function guardrailPattern(guardrail: GuardrailRecord): ShadowPattern {
  const explanation = (guardrail.description.trim() !== '' ? guardrail.description : guardrail.content).slice(0, 2000);
  return {
    name: `guardrail: ${guardrail.name}`,
    triggers: guardrail.triggers,
    capabilityTriggers: [],
    severity: guardrail.severity,
    explanation: explanation || `The persona's guardrail "${guardrail.name}".`,
    requireApproval: guardrail.requireApproval,
  };
}

/**
 * The psyche as the agent wearing a persona acts with: the persona's name, and its guardrails
 * among the shadow's veto patterns. Only decisions and write-ups see it; the stored psyche (its
 * history, its export) stays the user's own.
 */
export function wearPersona(psyche: Psyche, worn: WornPersona | undefined): Psyche {
  if (!worn) return psyche;
  return {
    ...psyche,
    persona: { ...psyche.persona, name: worn.name },
    shadow: {
      ...psyche.shadow,
      vetoPatterns: [...psyche.shadow.vetoPatterns, ...worn.guardrails.map(guardrailPattern)],
    },
  };
}

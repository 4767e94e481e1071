import type { AgentApi } from '#core/api.ts';

/** Fails the test with the refusal when a catalog call is refused. */
export function expectAccepted<T extends { ok: boolean }>(result: T): Extract<T, { ok: true }> {
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result as Extract<T, { ok: true }>;
}

/**
 * A small persona catalog for tests, made through the service as the app makes it: a mentor with
 * three parts (identity, a warm tone, a goal with detail), a trait, a skill and a guardrail; two
 * other tones in the library; and a growth arc (novice, stern, master) whose "stern" stage brings
 * the stern tone.
 */
export async function buildMentorCatalog(service: AgentApi): Promise<void> {
  expectAccepted(
    await service.personaCreate({ fields: { name: 'Mentor', summary: 'A patient teacher.', tags: ['teaching'] } }),
  );
  expectAccepted(
    await service.partCreate({ fields: { name: 'mentor-identity', type: 'identity', summary: 'You are a mentor.' } }),
  );
  expectAccepted(await service.partCreate({ fields: { name: 'warm-tone', type: 'tone', summary: 'Speak warmly.' } }));
  expectAccepted(await service.partCreate({ fields: { name: 'stern-tone', type: 'tone', summary: 'Speak sternly.' } }));
  expectAccepted(
    await service.partCreate({ fields: { name: 'playful-tone', type: 'tone', summary: 'Speak playfully.' } }),
  );
  expectAccepted(
    await service.partCreate({
      fields: {
        name: 'teach-goal',
        type: 'goal',
        summary: 'Help the learner understand.',
        content: 'Help the learner understand, one step at a time.',
      },
    }),
  );
  expectAccepted(
    await service.traitCreate({ fields: { name: 'patient', type: 'emotional', description: 'Never rushes.' } }),
  );
  expectAccepted(await service.skillCreate({ fields: { name: 'socratic', description: 'Asks questions.' } }));
  expectAccepted(
    await service.guardrailCreate({
      fields: { name: 'no-deletions', description: 'Never deletes knowledge.', triggers: ['kg_mutate'], severity: 0.9 },
    }),
  );
  for (const name of ['mentor-identity', 'warm-tone', 'teach-goal'])
    expectAccepted(await service.personaLink({ persona: 'Mentor', kind: 'part', name }));
  expectAccepted(await service.personaLink({ persona: 'Mentor', kind: 'trait', name: 'patient' }));
  expectAccepted(await service.personaLink({ persona: 'Mentor', kind: 'skill', name: 'socratic' }));
  expectAccepted(await service.personaLink({ persona: 'Mentor', kind: 'guardrail', name: 'no-deletions' }));
  expectAccepted(
    await service.arcCreate({
      fields: { name: 'growth' },
      stages: [{ name: 'novice' }, { name: 'stern' }, { name: 'master' }],
    }),
  );
  expectAccepted(await service.stagePartAdd({ arc: 'growth', stage: 'stern', part: 'stern-tone' }));
}

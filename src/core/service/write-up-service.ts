import type { AgentServiceImplementation } from '#core/api.ts';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { runQuery, triplesOfAnswer } from '#core/kg/query.ts';
import { singular } from '#core/kg/sentence-facts.ts';
import type { ServiceContext } from './service-context.ts';
import { currentPsyche } from '#core/psyche/psyche-store.ts';
import { readWornPersona, wearPersona } from '#core/personas/worn-persona.ts';
import { derivationOfFact, type ProvenanceRecord } from '#core/kg/provenance.ts';
import { BUILT_IN_GRAMMARS } from '#core/synthesis/built-in-grammars.ts';
import type { SynthesisFinding, SynthesisInput } from '#core/synthesis/synthesis-input.ts';
import { grammarNamed, synthesize } from '#core/synthesis/synthesize.ts';
import { findingLine, writeInVoice } from '#core/synthesis/voiced-findings.ts';
import { bindChosenProvider, sessionModelSettings } from './inference-service.ts';
import { inferenceSettingsOf } from '#core/llm/inference-settings.ts';
import { UsageBudget } from '#core/llm/usage-budget.ts';
import { criteriaOfGoal } from '#core/goals/goal.ts';
import type { Goal } from '#core/records/goal.ts';

/** How a fact came to be, from the provenance it points to. */
function originOf(
  record: ProvenanceRecord | undefined,
  fact: readonly [number, number, number],
): Pick<SynthesisFinding, 'origin' | 'rule'> {
  if (record?.kind === 'inference') {
    const rule =
      derivationOfFact(record, fact)?.rule ??
      record.sources.find((source) => source.startsWith('rule:'))?.slice('rule:'.length);
    return { origin: 'derived', ...(rule ? { rule } : {}) };
  }
  return { origin: record?.kind === 'analogy' ? 'proposed' : 'stated' };
}

const wordsOf = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u);

/**
 * What synthesis renders for a goal: its findings with labels, confidence and origin, the answers
 * to its criteria first, and the criteria keywords nothing was found for.
 */
async function synthesisInputOf(
  context: ServiceContext,
  graph: KnowledgeGraph,
  goal: Goal,
  persona: SynthesisInput['persona'],
): Promise<SynthesisInput> {
  const triples = goal.findings.flatMap(
    ([subject, predicate, object]) => graph.triple(subject, predicate, object) ?? [],
  );
  const provenanceIds = [
    ...new Set(triples.flatMap((triple) => (triple.provenanceId !== undefined ? [triple.provenanceId] : []))),
  ];
  const records = await context.db.provenance.bulkGet(provenanceIds);
  const recordById = new Map(
    records.flatMap((record) => (record?.id !== undefined ? [[record.id, record] as const] : [])),
  );
  const criteria = criteriaOfGoal(goal, graph);
  const label = (id: number) => graph.symbol(id)?.label ?? `#${id}`;

  let isAnswer: (triple: (typeof triples)[number]) => boolean;
  let missing: string[];
  if (criteria.kind === 'pattern') {
    const answer = runQuery(graph, criteria.patterns, 2000);
    const answerKeys = new Set(
      answer.rows.flatMap((row) => triplesOfAnswer(graph, criteria.patterns, row)).map((fact) => fact.join(' ')),
    );
    isAnswer = (triple) => answerKeys.has(`${triple.subject} ${triple.predicate} ${triple.object}`);
    missing =
      answer.rows.length >= criteria.minCount
        ? []
        : [`${criteria.minCount - answer.rows.length} more answers to ${criteria.text}`];
  } else {
    // Singular on both sides, as the goal's evaluation compares them.
    const wanted = new Set(criteria.keywords.map(singular));
    const found = new Set<string>();
    isAnswer = (triple) => {
      const matched = [triple.subject, triple.predicate, triple.object]
        .flatMap((id) => wordsOf(label(id)).map(singular))
        .filter((word) => wanted.has(word));
      for (const word of matched) found.add(word);
      return matched.length > 0;
    };
    for (const triple of triples) isAnswer(triple);
    missing = criteria.keywords.filter((keyword) => !found.has(singular(keyword)));
  }
  const findings = triples.map((triple): SynthesisFinding => ({
    subject: label(triple.subject),
    predicate: label(triple.predicate),
    object: label(triple.object),
    confidence: triple.confidence,
    ...originOf(triple.provenanceId !== undefined ? recordById.get(triple.provenanceId) : undefined, [
      triple.subject,
      triple.predicate,
      triple.object,
    ]),
    isAnswer: isAnswer(triple),
  }));
  return {
    goal: {
      description: goal.description,
      criteria: goal.successCriteria,
      status: goal.status,
      ...(goal.statusReason !== undefined ? { statusReason: goal.statusReason } : {}),
    },
    // Answers first, each group in the order found.
    findings: [...findings.filter((finding) => finding.isAnswer), ...findings.filter((finding) => !finding.isAnswer)],
    missing,
    persona,
  };
}

/** The write-up slice of the AgentService: a goal's findings in the persona's voice. */
export function writeUpService(
  context: ServiceContext,
): Pick<AgentServiceImplementation, 'synthesize' | 'synthesizeInVoice'> {
  const { db, graphOf, operations } = context;
  return {
    async synthesizeInVoice({ sessionId, goalId, operationId }) {
      const graph = await graphOf(sessionId);
      const goal = await db.goals.get(goalId);
      if (!goal || goal.sessionId !== sessionId)
        return { ok: false, reason: 'not-found', problems: [{ message: `there is no goal ${goalId}` }] };
      const settings = await inferenceSettingsOf(context);
      if (settings.provider === 'none')
        return {
          ok: false,
          reason: 'no-model',
          problems: [
            {
              message:
                "no language model is chosen; choose one in Settings to have the findings written in the persona's voice",
            },
          ],
        };
      const controller = new AbortController();
      operations.set(operationId, controller);
      try {
        const binding = await bindChosenProvider(context, settings, controller.signal);
        if (!binding.provider)
          return {
            ok: false,
            reason: 'unavailable',
            problems: [{ message: binding.unavailable?.because ?? 'the chosen model cannot be reached' }],
          };
        const worn = await readWornPersona(db, sessionId);
        const { persona } = wearPersona((await currentPsyche(db, sessionId)).psyche, worn);
        const input = await synthesisInputOf(context, graph, goal, {
          name: persona.name,
          traits: persona.traits,
          tone: persona.tone,
        });
        const written = await writeInVoice(binding.provider, input, {
          ...(worn ? { personaPrompt: worn.prompt } : {}),
          budget: new UsageBudget(settings.limits, context.now),
          settings: await sessionModelSettings(context, sessionId),
          signal: controller.signal,
        });
        if (!written.ok)
          return {
            ok: false,
            reason: 'bottleneck',
            problems: [
              { message: `the model did not write it (${written.bottleneck.kind}): ${written.bottleneck.detail}` },
            ],
            model: written.use,
          };
        return {
          ok: true,
          persona: persona.name,
          text: written.text,
          findings: input.findings.map(findingLine),
          cites: written.cites,
          model: written.use,
        };
      } catch (error) {
        if (controller.signal.aborted)
          return { ok: false, reason: 'cancelled', problems: [{ message: 'the write-up was cancelled' }] };
        throw error;
      } finally {
        operations.delete(operationId);
      }
    },

    async synthesize({ sessionId, goalId, grammar: asked }) {
      const graph = await graphOf(sessionId);
      const goal = await db.goals.get(goalId);
      if (!goal || goal.sessionId !== sessionId)
        return { ok: false, problems: [{ message: `there is no goal ${goalId}` }] };
      const psyche = wearPersona((await currentPsyche(db, sessionId)).psyche, await readWornPersona(db, sessionId));
      const grammars = [...Object.keys(BUILT_IN_GRAMMARS), ...(psyche.grammar ? [psyche.grammar.name] : [])];
      const preference = asked ?? psyche.persona.grammarPreference;
      let chosen = grammarNamed(preference, psyche.grammar);
      // A preference the psyche cannot honour (a grammar file not attached) falls back to narrative; an explicit ask does not.
      let name = preference;
      if (!chosen.ok && asked === undefined) {
        chosen = grammarNamed('narrative');
        name = 'narrative';
      }
      if (!chosen.ok) return { ok: false, problems: chosen.error };
      const { name: personaName, traits, tone } = psyche.persona;
      const input = await synthesisInputOf(context, graph, goal, { name: personaName, traits, tone });
      return { ok: true, grammar: name, text: synthesize(input, chosen.value), grammars };
    },
  };
}

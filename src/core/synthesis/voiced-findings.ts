import { z } from 'zod';
import type { ModelSettings } from '#core/records/model-settings.ts';
import type { LlmProvider } from '#core/llm/provider.ts';
import { structuredCall } from '#core/llm/structured-call.ts';
import { type Bottleneck, bottleneckSchema } from '#core/records/model-use.ts';
import type { UsageBudget } from '#core/llm/usage-budget.ts';
import { modelUseOf } from '#core/tools/model-facts.ts';
import type { ModelUse } from '#core/records/model-use.ts';
import type { SynthesisInput } from './synthesis-input.ts';

const MAX_PROSE_CHARS = 6000;

/** A finding as the model reads it and as the write-up lists it under the prose: `Dog -> is-a -> Mammal [0.95]`. */
export function findingLine(finding: SynthesisInput['findings'][number]): string {
  return `${finding.subject} -> ${finding.predicate} -> ${finding.object} [${finding.confidence.toFixed(2)}]`;
}

/**
 * The model's answer: prose that cites the numbered findings it uses, or a truthful bottleneck.
 * A citation of a finding that does not exist is invalid output (sent back to the model).
 */
export function voicedAnswerSchema(findingCount: number) {
  const exists = (number: number) => number >= 1 && number <= findingCount;
  const noSuchFinding = (number: number) =>
    findingCount === 0
      ? `there are no findings to cite, so not [${number}]`
      : `there are only ${findingCount} findings, so not [${number}]`;
  return z.discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('final'),
        text: z
          .string()
          .trim()
          .min(1, 'the text is empty')
          .max(MAX_PROSE_CHARS, `the text is longer than ${MAX_PROSE_CHARS} characters`),
        cites: z.array(z.number().int()).max(200),
      })
      .superRefine((answer, context) => {
        // Citations in the prose count as much as the list: each must name a finding, and be listed.
        const inText = [...answer.text.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
        for (const number of new Set([...answer.cites, ...inText]))
          if (!exists(number))
            context.addIssue({
              code: 'custom',
              path: inText.includes(number) ? ['text'] : ['cites'],
              message: noSuchFinding(number),
            });
        for (const number of new Set(inText))
          if (exists(number) && !answer.cites.includes(number))
            context.addIssue({
              code: 'custom',
              path: ['cites'],
              message: `[${number}] is cited in the text: list it in cites`,
            });
      }),
    z.object({ kind: z.literal('bottleneck'), bottleneck: bottleneckSchema }),
  ]);
}

/** Who writes: the worn persona's prompt, else the psyche's persona in a sentence. */
export function writerOf(input: SynthesisInput, personaPrompt: string | undefined): string {
  if (personaPrompt && personaPrompt.trim() !== '') return personaPrompt;
  const { name, traits, tone } = input.persona;
  return [
    `You are ${name}.`,
    traits.length > 0 ? `You are ${traits.join(', ')}.` : '',
    tone.length > 0 ? `Your tone is ${tone.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

const INSTRUCTIONS = [
  'Write up, in your own voice, what the agent found for its goal: a short report of a few paragraphs.',
  'Use only the numbered findings you are given; cite each one you use by its number in brackets, like [2], and list those numbers in "cites".',
  'Never state a fact that is not among the findings. Mention what is still missing, if anything.',
  'When there is nothing to write from, answer with a bottleneck instead.',
].join('\n');

/** The prompt: the goal, its state, the numbered findings, and the gaps. */
export function voicedPrompt(input: SynthesisInput): string {
  const { goal, findings, missing } = input;
  return [
    `Goal: ${goal.description}`,
    ...(goal.criteria.trim() !== '' ? [`Done when: ${goal.criteria}`] : []),
    `State: ${goal.status}${goal.statusReason ? ` (${goal.statusReason})` : ''}`,
    findings.length > 0
      ? `Findings:\n${findings.map((finding, index) => `[${index + 1}] ${findingLine(finding)}${finding.origin !== 'stated' ? ` (${finding.origin})` : ''}`).join('\n')}`
      : 'Findings: none.',
    missing.length > 0 ? `Still missing: ${missing.join(', ')}` : 'Nothing is missing.',
  ].join('\n');
}

export type VoicedFindings =
  { ok: true; text: string; cites: number[]; use: ModelUse } | { ok: false; bottleneck: Bottleneck; use: ModelUse };

/**
 * Has the bound model write a goal's findings in the persona's voice. The facts stay the
 * findings': the model only writes prose around numbered findings, its citations are checked, and
 * the write-up lists the findings themselves beneath it.
 */
export async function writeInVoice(
  provider: LlmProvider,
  input: SynthesisInput,
  options: { personaPrompt?: string; budget?: UsageBudget; settings?: ModelSettings; signal?: AbortSignal },
): Promise<VoicedFindings> {
  const outcome = await structuredCall(provider, voicedAnswerSchema(input.findings.length), {
    name: 'write_up',
    system: `${writerOf(input, options.personaPrompt)}\n\n${INSTRUCTIONS}`,
    prompt: voicedPrompt(input),
    maxTokens: 1500,
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const use = modelUseOf(provider, outcome.attempts);
  if (!outcome.ok)
    return { ok: false, bottleneck: outcome.bottleneck, use: { ...use, bottleneck: outcome.bottleneck } };
  if (outcome.value.kind === 'bottleneck')
    return { ok: false, bottleneck: outcome.value.bottleneck, use: { ...use, bottleneck: outcome.value.bottleneck } };
  return {
    ok: true,
    text: outcome.value.text,
    cites: [...new Set(outcome.value.cites)].sort((left, right) => left - right),
    use,
  };
}

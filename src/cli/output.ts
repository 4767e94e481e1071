import {
  type AgentApi,
  type CycleRecord,
  type Fact,
  type GoalView,
  choiceInWords,
  scoreInWords,
  toolAction,
} from '#core/api.ts';
import type { Plan } from '#core/records/plan.ts';
import type { Reflection } from '#core/records/reflection.ts';
import { describeProblem, type Problem } from '#core/result.ts';

/** Where the CLI writes; tests pass their own. */
export type CliOutput = { out: (text: string) => void; error: (text: string) => void };

export const standardOutput: CliOutput = {
  out: (text) => process.stdout.write(text),
  error: (text) => process.stderr.write(text),
};

/** A fact as the CLI prints it in JSON: labels, not ids. */
export function labelsOf(fact: Fact) {
  return {
    subject: fact.subject.label,
    predicate: fact.predicate.label,
    object: fact.object.label,
    confidence: fact.confidence,
  };
}

const sourceKey = (finding: GoalView['findings'][number]) =>
  `${finding.provenanceId} ${finding.subject.id} ${finding.predicate.id} ${finding.object.id}`;

/** The last line of `--json` output: each goal with its findings as labels. */
export async function goalsSummary(service: AgentApi, sessionId: string, goals: GoalView[]) {
  // Where each finding came from: its provenance's kind and sources (`sparql http://...`, `import zoo.ttl`,
  // a derived fact's rule and premises).
  const sources = new Map<string, string>();
  for (const finding of goals.flatMap((goal) => goal.findings)) {
    const key = sourceKey(finding);
    if (finding.provenanceId === undefined || sources.has(key)) continue;
    const fact: [number, number, number] = [finding.subject.id, finding.predicate.id, finding.object.id];
    const found = await service.kgProvenance({ sessionId, provenanceId: finding.provenanceId, fact });
    if (found.isFound) sources.set(key, [found.record.kind, ...found.record.sources].join(' '));
  }
  return {
    goals: goals.map((goal) => ({
      description: goal.description,
      status: goal.status,
      cycles: goal.cyclesWorked,
      ...(goal.answer ? { answer: goal.answer } : {}),
      findings: goal.findings.map((finding) => ({
        ...labelsOf(finding),
        ...(sources.has(sourceKey(finding)) ? { from: sources.get(sourceKey(finding)) } : {}),
      })),
    })),
  };
}

/** A plan as lines: its strategy, then each step with its status, input, why, and how it ended. */
export function planText(plan: Pick<Plan, 'strategy' | 'steps'>): string {
  const steps = plan.steps.map((step, index) => {
    const ended =
      step.result === undefined ? '' : ` -> ${step.result}${step.cycle === undefined ? '' : ` (cycle ${step.cycle})`}`;
    return `  ${index + 1}. [${step.status}] ${step.tool} ${JSON.stringify(step.input)}: ${step.rationale}${ended}\n`;
  });
  return `${plan.strategy}\n${steps.join('')}`;
}

/** A reflection as lines: what it looked at, what it changed and why, and how the psyche evolved. */
export function reflectionText(reflection: Reflection): string {
  const lines = [
    `reflection at cycle ${reflection.cycle} (${reflection.trigger === 'interval' ? 'every few cycles' : 'asked for'}; cycles ${reflection.sinceCycle + 1} to ${reflection.cycle})`,
  ];
  for (const stat of reflection.toolStats)
    lines.push(`  tool ${stat.tool}: ${stat.successes} of ${stat.uses} uses advanced a goal`);
  for (const goal of reflection.goals)
    lines.push(
      `  goal ${goal.goalId} "${goal.description}": ${goal.progressed ? 'progressed' : `no progress for ${goal.stagnantFor} of its cycles`}`,
    );
  lines.push(`  memory ${Math.round(reflection.memoryPressure * 100)}% full`);
  for (const adjustment of reflection.adjustments)
    lines.push(
      `  ${adjustment.kind}${adjustment.goalId === undefined ? '' : ` goal ${adjustment.goalId}`}${adjustment.to === undefined ? '' : ` ${adjustment.from} -> ${adjustment.to}`}: ${adjustment.reason}`,
    );
  if (reflection.adjustments.length === 0) lines.push('  nothing to adjust');
  for (const change of reflection.psycheChanges) lines.push(`  psyche: ${change}`);
  if (reflection.psycheVersion !== undefined) lines.push(`  the psyche is now version ${reflection.psycheVersion}`);
  return `${lines.join('\n')}\n`;
}

/** Problems and warnings of a psyche file, one per line, located by line and key path. */
export function psycheReport(file: string, report: { problems?: Problem[]; warnings: Problem[] }): string {
  return [
    ...(report.problems ?? []).map((problem) => `${file}: error: ${describeProblem(problem)}`),
    ...report.warnings.map((warning) => `${file}: warning: ${describeProblem(warning)}`),
  ]
    .map((line) => `${line}\n`)
    .join('');
}

/** Problems as indented lines under a heading, the form every "nothing changed" error takes. */
export function problemLines(heading: string, problems: Problem[]): string {
  return [heading, ...problems.map((problem) => `  ${describeProblem(problem)}`)].join('\n');
}

/**
 * A cycle's choice for the plain log's --verbose, in the words the cycle log of the app uses: why
 * its tool was chosen, then every tool considered with its score in words (or why it was skipped)
 * and the exact breakdown `--json` has. Each line is indented under the cycle's own line.
 */
export function cycleChoiceLines(record: Pick<CycleRecord, 'tool' | 'candidates'>): string {
  const lines = [`\twhy: ${choiceInWords(record)}`];
  for (const candidate of record.candidates) {
    const tool = `${toolAction(candidate.tool)} (${candidate.tool})`;
    if (candidate.skippedBecause !== undefined) lines.push(`\t${tool}: skipped, ${candidate.skippedBecause}`);
    else if (candidate.breakdown !== undefined)
      lines.push(`\t${tool}: ${scoreInWords(candidate.breakdown)}`, `\t\t${candidate.breakdown}`);
  }
  return `${lines.join('\n')}\n`;
}

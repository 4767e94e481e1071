import type { ApprovalView } from '#core/api.ts';
import { readJson } from '#core/safe-json.ts';
import { describeProblem } from '#core/result.ts';
import { idOperand } from '../options.ts';
import { problemLines } from '../output.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';

/** `anima approvals`, `approve` and `deny`: the actions the shadow held for the user, and the user's decision. */
export const APPROVAL_COMMANDS: Record<string, SessionCommand> = {
  approvals: { run: approvals },
  approve: { run: (context) => decide(context, 'approve') },
  deny: { run: (context) => decide(context, 'deny') },
};

async function approvals({ values, service, sessionId, output }: SessionContext): Promise<number> {
  const { approvals, pendingCount } = await service.approvalList({ sessionId, limit: 1000 });
  if (values.json) output.out(`${JSON.stringify({ approvals, pendingCount })}\n`);
  else if (approvals.length === 0) output.error('anima: no action waits for approval, and none was decided\n');
  else output.out(approvals.map(approvalLine).join(''));
  return 0;
}

/** One line of `anima approvals`: id, status, goal, the action, why it was held. */
function approvalLine(approval: ApprovalView): string {
  const decided = approval.reason ? `\t-> ${approval.reason}` : '';
  return `#${approval.id}\t${approval.status}\tgoal ${approval.goalId}\t${approval.action}\theld by ${approval.pattern}: ${approval.because}${decided}\n${approval.redTeam ? redTeamLines(approval.redTeam) : ''}`;
}

/** What a red team found before the action waited, under its approval: a line per breach path, or why it gave none. */
function redTeamLines(finding: NonNullable<ApprovalView['redTeam']>): string {
  if (finding.bottleneck)
    return `\tred team: no finding (${finding.bottleneck.kind.replace(/_/g, ' ')}: ${finding.bottleneck.detail})\n`;
  const paths = finding.breachPaths ?? [];
  return paths.length === 0
    ? '\tred team: no breach path found\n'
    : paths.map((breach) => `\tred team: ${breach.severity}: ${breach.path}\n`).join('');
}

async function decide(
  { name, operands, values, service, sessionId, output, save }: SessionContext,
  decision: 'approve' | 'deny',
): Promise<number> {
  const approvalId = idOperand(operands[0], 'APPROVAL_ID');
  if (Number.isNaN(approvalId))
    throw new CliError(`${name}: which action? e.g. anima ${name} 1 --snapshot S (\`anima approvals\` lists them)`, 2);
  if (values.input !== undefined && decision === 'deny')
    throw new CliError('deny: --input belongs to approve (the edited input to run)', 2);
  const input = values.input === undefined ? undefined : inputOption(values.input);
  const decided = await service.approvalDecide({
    sessionId,
    approvalId,
    decision,
    ...(values.reason !== undefined ? { reason: values.reason } : {}),
    ...(input !== undefined ? { input: input.value } : {}),
  });
  if (!decided.ok) throw new CliError(problemLines(`${name}: nothing changed:`, decided.problems));
  await save();
  output.out(
    decision === 'approve'
      ? `approved #${approvalId}: ${decided.approval.action}; its goal runs it next (\`anima resume\`)\n`
      : `denied #${approvalId}: ${decided.approval.action}; its goal goes on without it (\`anima resume\`)\n`,
  );
  return 0;
}

/** `--input JSON`: the edited input, as JSON; whether the tool takes it, the service says. */
function inputOption(text: string): { value: unknown } {
  const read = readJson(text, { maxBytes: 100_000 });
  if (!read.ok) throw new CliError(`approve: --input is not JSON: ${read.error.map(describeProblem).join('; ')}`, 2);
  return { value: read.value };
}

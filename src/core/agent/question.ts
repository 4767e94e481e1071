import { actionDigest } from '#core/tools/action-digest.ts';
import type { AgentTool } from '#core/tools/tool.ts';

/** What a question is bound to, like an approval: the asking tool's definition and its input (the question). */
export function questionDigest(tool: Pick<AgentTool, 'definition'>, question: string): Promise<string> {
  return actionDigest(tool, { question });
}

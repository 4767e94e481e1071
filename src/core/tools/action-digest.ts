import type { AgentTool } from './tool.ts';

/**
 * SHA-256 (hex) of a tool's definition and an input: what an approval is bound to, so a changed
 * tool or a changed input is never carried out on an old approval.
 */
export async function actionDigest(tool: Pick<AgentTool, 'definition'>, input: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(`${tool.definition}\n${JSON.stringify(input) ?? 'undefined'}`);
  const hash = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(hash)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

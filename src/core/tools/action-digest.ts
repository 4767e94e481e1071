import type { AgentTool } from './tool.ts';

/**
 * SHA-256 (hex) of a tool's definition and an input: what an approval is bound to, so a changed
 * tool or a changed input is never carried out on an old approval.
 */
export async function actionDigest(tool: Pick<AgentTool, 'definition'>, input: unknown): Promise<string> {
  return sha256Hex(`${tool.definition}\n${JSON.stringify(input) ?? 'undefined'}`);
}

/** SHA-256 (hex) of an input as sent (its JSON): what a tool server call's provenance names it by. */
export const inputDigest = (input: unknown): Promise<string> => sha256Hex(JSON.stringify(input) ?? 'undefined');

async function sha256Hex(text: string): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(hash)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

import { main } from '../main.ts';

/** Runs the CLI in this process as a user would call it, and gives back its exit code and what it printed. */
export async function anima(...argv: string[]): Promise<{ code: number; out: string; error: string }> {
  let out = '';
  let error = '';
  const code = await main(argv, { out: (text) => (out += text), error: (text) => (error += text) });
  return { code, out, error };
}

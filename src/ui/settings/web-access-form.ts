import type { AgentApi, WebAccess } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';

/** The web access setting as the form holds it: one address prefix per line. */
export type WebAccessForm = { prefixes: string; timeoutSeconds: number; maxKilobytes: number };

export const WEB_ACCESS_READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can change settings: close it to change web access here.';

export function formOf(webAccess: WebAccess): WebAccessForm {
  return {
    prefixes: webAccess.allowedPrefixes.join('\n'),
    timeoutSeconds: webAccess.timeoutSeconds,
    maxKilobytes: webAccess.maxKilobytes,
  };
}

/** The setting a form asks for: its non-blank lines are the prefixes. */
export function webAccessOf(form: WebAccessForm): WebAccess {
  return {
    allowedPrefixes: form.prefixes
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
    timeoutSeconds: form.timeoutSeconds,
    maxKilobytes: form.maxKilobytes,
  };
}

/** How a save went, in words: prefixes are named by their line in the form. */
export function describeSave(
  result: Awaited<ReturnType<AgentApi['webAccessSet']>>,
): { tone: 'success'; message: string } | { tone: 'failure'; message: string; problems: string[] } {
  if (!result.ok)
    return {
      tone: 'failure',
      message: 'Web access was not changed:',
      problems: result.problems.map((problem) => {
        const index = /^allowedPrefixes\.(\d+)$/.exec(problem.path ?? '');
        return index ? `line ${Number(index[1]) + 1}: ${problem.message}` : describeProblem(problem);
      }),
    };
  const count = result.webAccess.allowedPrefixes.length;
  return {
    tone: 'success',
    message:
      count === 0
        ? 'Saved: the agent stays off the web.'
        : `Saved: the agent may fetch from ${count === 1 ? '1 address prefix' : `${count} address prefixes`}, each fetch waiting for your approval unless the psyche says otherwise.`,
  };
}

import type { AgentApi } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';

/** Where a write-up in the persona's voice stands. */
export type VoicedState =
  | { status: 'idle' }
  | { status: 'writing'; operationId: string }
  | {
      status: 'written';
      persona: string;
      model: string;
      text: string;
      findings: { number: number; line: string; isCited: boolean }[];
    }
  | { status: 'failed'; message: string; problems: string[] };

/** Why the model did not write, in the user's words. */
const FAILURE_MESSAGES = {
  'not-found': 'This goal is gone.',
  'no-model':
    "No language model is chosen. Choose one under Settings, Language model, to have the findings written in the persona's voice.",
  unavailable: 'The chosen model cannot be used now:',
  bottleneck: 'The model did not write it:',
  cancelled: 'Stopped: nothing was written.',
} as const;

/**
 * A goal's findings written by the bound model in the worn persona's voice. The model writes
 * prose only; the findings it cites are listed beneath, as the graph holds them.
 */
export class VoicedWriteUp {
  readonly #host: { readonly client: AgentApi; readonly sessionId: string };
  readonly #goalId: number;
  readonly #generateId: () => string;

  state = $state<VoicedState>({ status: 'idle' });

  constructor(
    host: { readonly client: AgentApi; readonly sessionId: string },
    goalId: number,
    generateId: () => string = () => crypto.randomUUID(),
  ) {
    this.#host = host;
    this.#goalId = goalId;
    this.#generateId = generateId;
  }

  /** Asks the model to write. Never rejects. */
  async write(): Promise<void> {
    if (this.state.status === 'writing') return;
    const operationId = this.#generateId();
    this.state = { status: 'writing', operationId };
    try {
      const result = await this.#host.client.synthesizeInVoice({
        sessionId: this.#host.sessionId,
        goalId: this.#goalId,
        operationId,
      });
      if (!result.ok) {
        const wantsDetail = result.reason === 'unavailable' || result.reason === 'bottleneck';
        this.state = {
          status: 'failed',
          message: FAILURE_MESSAGES[result.reason],
          problems: wantsDetail ? result.problems.map(describeProblem) : [],
        };
        return;
      }
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never changed
      const cited = new Set(result.cites);
      this.state = {
        status: 'written',
        persona: result.persona,
        model: result.model.model,
        text: result.text,
        findings: result.findings.map((line, index) => ({ number: index + 1, line, isCited: cited.has(index + 1) })),
      };
    } catch (error) {
      this.state = {
        status: 'failed',
        message: `The model did not write it: ${error instanceof Error ? error.message : String(error)}`,
        problems: [],
      };
    }
  }

  /** Stops the model mid-write. */
  async stop(): Promise<void> {
    if (this.state.status === 'writing') await this.#host.client.cancel({ operationId: this.state.operationId });
  }
}

import type { AgentApi } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { grammarChoices } from './synthesis-messages.ts';

/** What a write-up needs of the app's agent state. */
export type SynthesisHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
};

/** Where a goal's write-up stands: being written, written in a grammar, or why it could not be. */
export type SynthesisState =
  | { status: 'idle' }
  | { status: 'writing' }
  | { status: 'written'; grammar: string; text: string }
  | { status: 'failed'; message: string; problems: string[] };

/**
 * A goal's findings written up by the agent in a grammar (its persona's preference until the
 * user picks another). Only the answer to the latest request is shown.
 */
export class GoalSynthesis {
  readonly #host: SynthesisHost;
  readonly #goalId: number;

  state = $state<SynthesisState>({ status: 'idle' });
  /** The grammars to choose from: the built-in ones and those the agent named. */
  grammars = $state<string[]>(grammarChoices([]));
  /** The grammar of the latest write-up, or the one asked for; undefined until the first answer (the persona's preference). */
  grammar = $state<string | undefined>();

  #ticket = 0;

  constructor(host: SynthesisHost, goalId: number) {
    this.#host = host;
    this.#goalId = goalId;
  }

  /** Writes the findings up in a grammar, or in the persona's preference when none is given. Never rejects. */
  async write(grammar?: string): Promise<void> {
    const ticket = ++this.#ticket;
    if (grammar !== undefined) this.grammar = grammar;
    this.state = { status: 'writing' };
    try {
      const result = await this.#host.client.synthesize({
        sessionId: this.#host.sessionId,
        goalId: this.#goalId,
        ...(grammar !== undefined ? { grammar } : {}),
      });
      if (ticket !== this.#ticket) return;
      if (!result.ok) {
        this.state = {
          status: 'failed',
          message: 'The findings could not be written up:',
          problems: result.problems.map(describeProblem),
        };
        return;
      }
      this.grammars = grammarChoices(result.grammars);
      this.grammar = result.grammar;
      this.state = { status: 'written', grammar: result.grammar, text: result.text };
    } catch (error) {
      if (ticket !== this.#ticket) return;
      this.state = {
        status: 'failed',
        message: `The findings could not be written up: ${error instanceof Error ? error.message : String(error)}`,
        problems: [],
      };
    }
  }
}

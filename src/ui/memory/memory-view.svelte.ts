import type { AgentApi } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { messageOf } from '../common/error-message.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { consolidateBlockedReason, consolidationText } from './memory-messages.ts';

/** What the memory view needs of the app's agent state. */
export type MemoryHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
  readonly canWrite: boolean;
};

/** Working memory and the episodes, as the agent lists them for the Memory screen. */
export type MemorySnapshot = Awaited<ReturnType<AgentApi['memoryList']>>;
export type MemoryEntryView = MemorySnapshot['entries'][number];
export type EpisodeView = MemorySnapshot['episodes'][number];
export type RecalledEpisode = Awaited<ReturnType<AgentApi['memoryRecall']>>['episodes'][number];

/** Where the memory lists stand. */
export type MemoryLoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** Where "Consolidate now" stands: what the last consolidation did, or why it failed. */
export type ConsolidationState =
  | { status: 'idle' }
  | { status: 'consolidating' }
  | { status: 'ended'; message: string }
  | { status: 'failed'; message: string; problems: string[] };

/** Where a recall stands: the episodes it found for a text, best first. */
export type RecallState =
  | { status: 'idle' }
  | { status: 'recalling'; text: string }
  | { status: 'ended'; text: string; episodes: RecalledEpisode[] }
  | { status: 'failed'; message: string };

/** How many recalled episodes a search lists. */
export const RECALL_LIMIT = 5;

/**
 * The Memory screen's state: the agent's working memory and episodes, fetched again on demand
 * (when the screen opens, after each cycle, after a consolidation), consolidation and recall.
 * Fetches never overlap: one asked for while another is in flight runs once after it, so the
 * lists always end up showing the latest state.
 */
export class MemoryView {
  readonly #host: MemoryHost;
  /** Fetches never pile up (see CoalescedFetch). */
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());

  snapshot = $state<MemorySnapshot | undefined>();
  status = $state<MemoryLoadStatus>('idle');
  errorMessage = $state<string | undefined>();
  consolidation = $state<ConsolidationState>({ status: 'idle' });
  recall = $state<RecallState>({ status: 'idle' });

  readonly entryCount = $derived(this.snapshot?.entries.length ?? 0);

  /** Orders recalls: an answer to an older search is dropped. */
  #recallTicket = 0;

  constructor(host: MemoryHost) {
    this.#host = host;
  }

  /** Why "Consolidate now" is disabled, or undefined when it can run. */
  get consolidateBlockedReason(): string | undefined {
    return consolidateBlockedReason({
      canWrite: this.#host.canWrite,
      isLoaded: this.snapshot !== undefined,
      entryCount: this.entryCount,
    });
  }

  /** Fetches working memory and the episodes again. Never rejects: a failure shows as status 'error'. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  /** Consolidates working memory into episodes now, reports what it did, and fetches the lists again. Never rejects. */
  async consolidate(): Promise<void> {
    if (this.consolidation.status === 'consolidating' || this.consolidateBlockedReason !== undefined) return;
    this.consolidation = { status: 'consolidating' };
    try {
      const result = await this.#host.client.memoryConsolidate({ sessionId: this.#host.sessionId });
      this.consolidation = result.ok
        ? { status: 'ended', message: consolidationText(result) }
        : {
            status: 'failed',
            message: 'Working memory was not consolidated:',
            problems: result.problems.map(describeProblem),
          };
    } catch (error) {
      this.consolidation = {
        status: 'failed',
        message: `Working memory was not consolidated: ${messageOf(error)}`,
        problems: [],
      };
    }
    await this.load();
  }

  /** Recalls the episodes that best match a text, best first. Never rejects. */
  async recallText(text: string): Promise<void> {
    const trimmed = text.trim();
    if (trimmed === '') return;
    const ticket = ++this.#recallTicket;
    this.recall = { status: 'recalling', text: trimmed };
    try {
      const { episodes } = await this.#host.client.memoryRecall({
        sessionId: this.#host.sessionId,
        text: trimmed,
        k: RECALL_LIMIT,
      });
      if (ticket === this.#recallTicket) this.recall = { status: 'ended', text: trimmed, episodes };
    } catch (error) {
      if (ticket === this.#recallTicket) this.recall = { status: 'failed', message: messageOf(error) };
    }
  }

  async #fetch(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    try {
      this.snapshot = await this.#host.client.memoryList({ sessionId: this.#host.sessionId });
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}

import { z } from 'zod';
import type { Tool } from './tool.ts';

/**
 * Consolidates working memory into episodes when it is fuller than the session's threshold: what
 * each goal tried, on which symbols, and how it went becomes long-term memory, and working memory
 * has room again (the memory-pressure term of the score favours it then). The cycle's transaction
 * does the move; the tool only asks for it.
 */
export const memoryConsolidate: Tool<Record<string, never>> = {
  name: 'memory_consolidate',
  description: 'move working memory into episodes when it is nearly full',
  archetype: 'guardian',
  danger: 'safe',
  capabilities: ['memory'],
  input: z.object({}).strict(),
  unavailableBecause: (state) => {
    const memory = state.memory;
    if (!memory) return 'working memory is not known here';
    return memory.pressure > memory.threshold
      ? undefined
      : `working memory is ${Math.round(memory.pressure * 100)}% full; it is consolidated above ${Math.round(memory.threshold * 100)}%`;
  },
  baseScore: () => 0.5,
  proposeInput: () => ({}),
  run: (_input, state) => ({
    ok: true,
    summary: `working memory ${Math.round((state.memory?.pressure ?? 0) * 100)}% full: its earlier entries become episodes`,
    facts: [],
    symbols: [],
    consolidation: true,
  }),
};

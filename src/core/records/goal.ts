import { z } from 'zod';
import { goalTextSchema } from '#core/names.ts';
import { answerSchema } from './answer.ts';

/** `failed`: it cannot be met (refused, or cancelled by the user); `abandoned`: the agent gave up on it (seed 000). */
export const goalStatusSchema = z.enum(['active', 'suspended', 'waiting', 'completed', 'failed', 'abandoned']);
export type GoalStatus = z.infer<typeof goalStatusSchema>;

/** Whether a goal has ended: nothing works on it any more, and its status stays. */
export function hasGoalEnded(status: GoalStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'abandoned';
}

/** A fact found for a goal, as symbol ids (the graph holds its confidence and provenance). */
/** A goal keeps at most this many findings: a count that reaches it is a cap ("at least"). */
export const MAX_FINDINGS = 2000;

export const findingSchema = z.tuple([z.number().int(), z.number().int(), z.number().int()]);

/**
 * A symbol the user chose for words of a goal's question that the graph names several ways
 * ("Mercury": the planet, not the element). The reading takes it over its own guess.
 */
export const chosenSymbolSchema = z.object({
  words: z.string().min(1).max(200),
  symbol: z.number().int().nonnegative(),
});
export type ChosenSymbol = z.infer<typeof chosenSymbolSchema>;

/** A symbol chosen for words of a question as a person or the UI names it: by id, or by its name or IRI. */
export const symbolChoiceSchema = z.object({
  words: z.string().max(1_000),
  symbol: z.union([z.number().int(), z.string().max(2_000)]),
});
export type SymbolChoice = z.infer<typeof symbolChoiceSchema>;

/** The most symbols a goal's question may have chosen: one per word it has at most (a goal is 1,000 characters). */
export const MAX_CHOSEN_SYMBOLS = 20;

/** What the agent pursues. Criteria are keywords, or a pattern with a minimum count (`?x is-a mammal, at least 5`). */
export const goalSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  description: goalTextSchema.min(1),
  successCriteria: goalTextSchema,
  priority: z.number().int().min(0).max(255),
  status: goalStatusSchema,
  parentId: z.number().int().optional(),
  cyclesWorked: z.number().int().nonnegative(),
  lastProgressCycle: z.number().int().nonnegative(),
  stallThreshold: z.number().int().positive(),
  /** Why a goal ended (completed, failed, abandoned) or waits (suspended; waiting: for the user's approval or answer, or a background job). */
  statusReason: z.string().optional(),
  /** The background job it waits for (see job.ts), while it waits. */
  waitingForJob: z.number().int().optional(),
  /** Domain facts its tool calls returned or derived, in the order found, without repeats. */
  findings: z.array(findingSchema),
  /** The graph's triple count when the rules last ran around this goal (unchanged graph: nothing new to infer). */
  inferredAtTripleCount: z.number().int().nonnegative().optional(),
  /** How many of its findings its scratch note holds (a goal that asks for notes; see scratch-note.ts). */
  notedFindings: z.number().int().nonnegative().optional(),
  /** The addresses http_fetch fetched for it (each once). */
  fetchedUrls: z.array(z.string()).optional(),
  /** The goal's own cycle count when it last asked the user a question. */
  askedAtCycle: z.number().int().nonnegative().optional(),
  /** Actions the shadow vetoed for it (as `tool=... input=...`): left out while a veto still forbids them. */
  blockedActions: z.array(z.string()).optional(),
  /** Actions the user denied for it: left out for good. */
  deniedActions: z.array(z.string()).optional(),
  /** How many plans were made for it (the next plan's attempt number), and how many of them failed. */
  plansMade: z.number().int().nonnegative().optional(),
  plansFailed: z.number().int().nonnegative().optional(),
  /** The tools chosen for it, most recent first (the recency and novelty of scoring). */
  toolsUsed: z.array(z.string()),
  /** A goal that asks a question: its answer as the graph gave it, once read (see ../questions/). */
  answer: answerSchema.optional(),
  /** The symbols the user chose for ambiguous words of its question; absent in goals stored before they could be. */
  chosenSymbols: z.array(chosenSymbolSchema).max(MAX_CHOSEN_SYMBOLS).optional(),
  createdAt: z.number(),
});
export type Goal = z.infer<typeof goalSchema>;

import { test as base, type Page } from '@playwright/test';
import type { EngineRequest } from '#core/llm/chat-engine.ts';
import { tinyGguf } from '#core/testing/tiny-gguf.ts';
import type { InferenceHarness } from './harness.ts';

/**
 * The context the tests load models with. llama.cpp caps each request at the model's training
 * context (the tiny model's 256 tokens) however large this is; the rest holds other requests'
 * cached prompts.
 */
export const CONTEXT_TOKENS = 1024;

/** The tiny model's bytes for a seed, as base64 for the page (generated here, in the test process); with pooling, an embedding model. */
export function tinyModel(seed: number, options: { contextLength?: number; pooling?: 'mean' } = {}): string {
  return Buffer.from(tinyGguf(seed, options)).toString('base64');
}

/** A user message alone, as the engine takes it. */
export function userAsks(content: string, options: Omit<EngineRequest, 'messages'> = {}): EngineRequest {
  return { messages: [{ role: 'user', content }], ...options };
}

type HarnessCall = {
  [Name in keyof InferenceHarness]: InferenceHarness[Name] extends (...parameters: infer P) => infer R
    ? (...parameters: P) => Promise<Awaited<R>>
    : never;
};

/**
 * The harness page (tests/inference/harness.ts): each of its functions, called in the page with
 * the arguments given, which must be plain data.
 */
export class InferencePage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/harness.html');
    await this.page.waitForFunction(() => 'inference' in window);
  }

  /** Calls `window.inference[name](...parameters)` in the page. */
  readonly call = new Proxy({} as HarnessCall, {
    get:
      (_target, name: string) =>
      (...parameters: unknown[]) =>
        this.page.evaluate(
          ([functionName, values]) =>
            (window.inference as unknown as Record<string, (...values: unknown[]) => unknown>)[functionName]!(
              ...values,
            ),
          [name, parameters] as const,
        ),
  });
}

/** Each test gets the harness open with the tiny model of seed 1 loaded. */
export const test = base.extend<{ inference: InferencePage }>({
  inference: async ({ page }, use) => {
    const inference = new InferencePage(page);
    await inference.open();
    await inference.call.load(tinyModel(1), CONTEXT_TOKENS);
    await use(inference);
  },
});

export { expect } from '@playwright/test';

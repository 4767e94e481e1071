import type { EngineCompletion } from '#core/llm/chat-engine.ts';
import type { StoreProgress } from '#core/llm/gguf-host.ts';
import { browserGgufHost } from '../../workers/gguf-host.ts';
import { bytesOf, messageOf } from './plain-data.ts';

/** What a round trip through the GGUF host saw, as plain data. */
export type StoreLoadRemoveOutcome = {
  size: number | undefined;
  isSameBytes: boolean;
  progress: StoreProgress[];
  loadProgress: number[];
  isSameEngineOnReload: boolean;
  answer: EngineCompletion;
  isGoneAfterRemove: boolean;
  afterRemove: string;
};

/**
 * The worker's GGUF host on this origin's private file system: stores the model (with progress),
 * reads it back, loads it (twice: the second time is the same engine), asks it, removes it, and
 * asks the removed model's engine again. Runs on the page and in a worker alike.
 */
export async function storeLoadRemove(modelBase64: string, id: string): Promise<StoreLoadRemoveOutcome> {
  const host = browserGgufHost();
  const bytes = bytesOf(modelBase64);
  const progress: StoreProgress[] = [];
  await host.store(id, new Blob([bytes]), { onProgress: (report) => progress.push(report) });
  const stored = await host.file(id);
  const storedBytes = new Uint8Array((await stored?.arrayBuffer()) ?? new ArrayBuffer(0));
  const isSameBytes = storedBytes.length === bytes.length && storedBytes.every((byte, index) => byte === bytes[index]);
  const loadProgress: number[] = [];
  const engine = await host.load(id, {
    contextTokens: 256,
    onProgress: (report) => loadProgress.push(report.fraction),
  });
  const isSameEngineOnReload = engine === (await host.load(id, { contextTokens: 256 }));
  const request = { messages: [{ role: 'user' as const, content: 'Hello' }], max_tokens: 8 };
  const answer = await engine.chat.completions.create(request);
  await host.remove(id);
  const afterRemove = await engine.chat.completions.create(request).then(
    () => 'answered',
    (error: unknown) => messageOf(error),
  );
  return {
    size: stored?.size,
    isSameBytes,
    progress,
    loadProgress,
    isSameEngineOnReload,
    answer,
    isGoneAfterRemove: (await host.file(id)) === undefined,
    afterRemove,
  };
}

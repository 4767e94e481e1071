import type { Result } from './result.ts';

/** Deeper nesting than any real file has; it would overflow the stack of JSON.stringify or structured clone. */
export const MAX_JSON_DEPTH = 64;

/**
 * Parses untrusted JSON text as a result, never throwing: a leading byte order mark is skipped,
 * bad syntax and nesting deeper than MAX_JSON_DEPTH are problems that say so.
 */
export function parseJsonText(text: string): Result<unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    return { ok: false, error: [{ message: `not JSON: ${error instanceof Error ? error.message : String(error)}` }] };
  }
  return depthOf(value) > MAX_JSON_DEPTH ? { ok: false, error: [{ message: `the JSON nests deeper than ${MAX_JSON_DEPTH} levels` }] } : { ok: true, value };
}

/** How deeply arrays and objects nest in a value, counted without recursion. */
function depthOf(root: unknown): number {
  let deepest = 0;
  const pending: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    deepest = Math.max(deepest, depth);
    if (depth > MAX_JSON_DEPTH) break;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth });
  }
  return deepest;
}

/** Decodes UTF-8 bytes strictly: undefined when they are not UTF-8 (a binary file, another encoding). */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Helpers for what crosses into and out of the harness page and its worker: plain data only. */

/** The bytes of a base64 string (the test process hands models over this way). */
export function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}

/** An error's name (AbortError, Error, ...), which tests assert on. */
export function nameOf(error: unknown): string {
  return error instanceof Error || error instanceof DOMException ? error.name : typeof error;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

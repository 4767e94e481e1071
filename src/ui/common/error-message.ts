/** The text of a thrown value: Comlink carries only the message of an Error across threads. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

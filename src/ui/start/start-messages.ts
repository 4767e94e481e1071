import { MAX_NAME_CHARS } from '#core/api.ts';

/** A session's name for a graph file imported into a session of its own: the file's name without its ending ("mammals.ttl": "mammals"). */
export function sessionNameOfFile(fileName: string): string {
  const name = fileName.replace(/\.[^.]*$/, '').trim() || fileName.trim() || 'Imported graph';
  return name.slice(0, MAX_NAME_CHARS);
}

import { stat, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { MAX_DOCUMENT_BYTES } from '#core/api.ts';
import { problemLines } from '../output.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';
import { usageFor } from '../usage.ts';

/** `anima doc ...`: text documents the agent reads (text_ingest) and writes notes from (file_io). */
export const DOCUMENT_COMMANDS: Record<string, SessionCommand> = {
  'doc import': { run: importDocument },
  'doc list': { run: listDocuments },
};

async function importDocument({ operands, service, sessionId, output, save }: SessionContext): Promise<number> {
  const [file] = operands;
  if (!file) throw new CliError(`doc import: which FILE?\n\n${usageFor('doc import')}`, 2);
  let text: string;
  try {
    // The size first: a file far too large is refused without being read.
    const { size } = await stat(file);
    if (size > MAX_DOCUMENT_BYTES)
      throw new CliError(`${file}: nothing imported: it is over 2 MB; a document is at most 2 MB of text`);
    // Decoded as the app decodes a picked file: a byte that is not UTF-8 becomes U+FFFD, which the service finds and places.
    text = new TextDecoder().decode(await readFile(file));
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const imported = await service.documentImport({ sessionId, fileName: basename(file), text });
  if (!imported.ok) throw new CliError(problemLines(`${file}: nothing imported:`, imported.problems));
  await save();
  output.out(
    `${file}: imported as document #${imported.document.id} (${imported.document.size} characters); the agent reads it when a goal needs it\n`,
  );
  return 0;
}

async function listDocuments({ values, service, sessionId, output }: SessionContext): Promise<number> {
  const { documents } = await service.documentList({ sessionId });
  if (values.json) output.out(`${JSON.stringify(documents)}\n`);
  else if (documents.length === 0) output.error('anima: no documents (`anima doc import FILE` adds one)\n');
  else
    for (const document of documents)
      output.out(
        `#${document.id}\t${document.name}\t${document.size} characters\t${document.ingestedAt === undefined ? 'not read yet' : `${document.factsExtracted ?? 0} facts read from it`}\n`,
      );
  return 0;
}

import type { AgentServiceImplementation, DocumentView } from '#core/api.ts';
import type { Problem } from '#core/result.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import { isQuotaExceeded, storageFull } from '#core/store/quota.ts';
import { type DocumentRecord, MAX_DOCUMENT_BYTES } from '#core/kg/document.ts';

type DocumentMethods = 'documentImport' | 'documentList' | 'documentDelete';

const PREVIEW_CHARACTERS = 300;

function viewOf(document: DocumentRecord): DocumentView {
  return {
    id: document.id!,
    name: document.name,
    size: document.text.length,
    createdAt: document.createdAt,
    preview: document.text.slice(0, PREVIEW_CHARACTERS),
    ...(document.ingestedAt !== undefined ? { ingestedAt: document.ingestedAt } : {}),
    ...(document.factsExtracted !== undefined ? { factsExtracted: document.factsExtracted } : {}),
  };
}

/** What is wrong with a document's text, if anything: empty, binary, or too large. */
function problemsOf(fileName: string, text: string): Problem[] {
  if (text.trim() === '') return [{ message: `${fileName} is empty: there is nothing to read` }];
  if (new TextEncoder().encode(text).length > MAX_DOCUMENT_BYTES)
    return [{ message: `${fileName} is over ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB; split it into smaller documents` }];
  if (text.includes('\u0000'))
    return [{ message: `${fileName} is not a text file (it holds NUL bytes); import .txt or .md text` }];
  const replacement = text.indexOf('\uFFFD');
  if (replacement !== -1) {
    const line = text.slice(0, replacement).split('\n').length;
    return [
      {
        line,
        message: `${fileName} is not valid UTF-8 text (an undecodable byte at line ${line}); save it as UTF-8 and import it again`,
      },
    ];
  }
  return [];
}

/** The documents slice of the AgentService: text the agent reads (file_io) and turns into facts (text_ingest). */
export function documentService(context: ServiceContext): Pick<AgentServiceImplementation, DocumentMethods> {
  const { db, now, exclusively, canWrite, sessionOf, documentsOf, forgetDocuments } = context;
  return {
    async documentImport({ sessionId, fileName, text }) {
      if (!canWrite()) return { ok: false, reason: 'read-only', problems: [{ message: READ_ONLY_MESSAGE }] };
      await sessionOf(sessionId);
      const problems = problemsOf(fileName, text);
      if (problems.length > 0) return { ok: false, reason: 'invalid', problems };
      const document: DocumentRecord = { sessionId, name: fileName, text, createdAt: now() };
      try {
        document.id = (await exclusively(async () => {
          const id = await db.documents.add(document);
          forgetDocuments(sessionId);
          return id;
        })) as number;
      } catch (error) {
        if (isQuotaExceeded(error)) return storageFull();
        throw error;
      }
      return { ok: true, document: viewOf(document) };
    },

    async documentList({ sessionId }) {
      await sessionOf(sessionId);
      // From memory: the list is fetched after every cycle, and the texts may be megabytes.
      const documents = await documentsOf(sessionId);
      return { documents: [...documents].reverse().map(viewOf) };
    },

    async documentDelete({ sessionId, documentId }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      return exclusively(async () => {
        const document = await db.documents.get(documentId);
        if (!document || document.sessionId !== sessionId)
          return { ok: false, problems: [{ message: `there is no document ${documentId}` }] };
        await db.documents.delete(documentId);
        forgetDocuments(sessionId);
        return { ok: true };
      });
    },
  };
}

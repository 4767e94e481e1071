import {
  downloadFailureText,
  downloadStatusText,
  freeStorageBytes,
  isNetworkFailure,
  isOffline,
  isStorageFull,
  serverAnswers,
  storageFullText,
  tooLargeForStorageText,
} from '#core/llm/download-failure.ts';
import type { AgentServiceImplementation } from '#core/api.ts';
import { displayUrl, redactSecrets, secretsOfUrl } from '#core/secrets.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import { blobSource, GgufError, readGgufHeader } from '#core/llm/gguf-header.ts';
import { NO_GGUF_HERE } from '#core/llm/gguf-host.ts';
import { ggufIdFor, ggufMemoryBytes } from '#core/llm/gguf-model.ts';
import type { GgufModelRecord } from '#core/records/gguf-model.ts';
import { inferenceSettingsOf } from '#core/llm/inference-settings.ts';

/** The largest model file accepted: the biggest that a browser tab's memory can load on a laptop. */
const MAX_GGUF_BYTES = 16 * 2 ** 30;

// An address is shown without its credentials (a record stored before they were dropped may have them).
const viewOf = (record: GgufModelRecord) => ({
  ...record,
  ...(record.source.kind === 'url' ? { source: { kind: 'url' as const, url: displayUrl(record.source.url) } } : {}),
  memoryBytes: ggufMemoryBytes(record),
});

/** The file name an address ends with (decoded where it can be), or a plain one. */
function fileNameOf(url: string): string {
  const last = new URL(url).pathname.split('/').pop() || 'model.gguf';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The CPU engine's slice of the AgentService: the GGUF models added here, adding one from a file or an address, deleting one. */
export function ggufService(
  context: ServiceContext,
): Pick<AgentServiceImplementation, 'ggufList' | 'ggufAdd' | 'ggufDelete'> {
  const { db, now, operations, canWrite, exclusively } = context;
  const host = () => context.dependencies.providerReach?.gguf;
  // Ids of additions under way: two at once never write to the same file.
  const adding = new Set<string>();

  return {
    async ggufList() {
      const records = await db.models.toArray();
      const settings = await inferenceSettingsOf(context);
      return {
        isAvailable: host() !== undefined,
        ...(host() ? {} : { unavailableBecause: NO_GGUF_HERE }),
        models: records
          .filter((record): record is GgufModelRecord => record.engine === 'gguf')
          .sort((left, right) => left.addedAt - right.addedAt)
          .map(viewOf),
        ...(settings.ggufModel ? { chosen: settings.ggufModel } : {}),
      };
    },

    async ggufAdd({ operationId, source }, onProgress) {
      const gguf = host();
      if (!gguf) return { ok: false, problems: [{ message: NO_GGUF_HERE }] };
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const fileName = source.kind === 'file' ? source.fileName : fileNameOf(source.url);
      // An address's credentials are sent, never shown: not in a message, not in the record.
      const shownUrl = source.kind === 'url' ? displayUrl(source.url) : '';
      const redact = (text: string) =>
        source.kind === 'url' ? redactSecrets(text, secretsOfUrl(source.url, 'the address')) : text;
      const controller = new AbortController();
      operations.set(operationId, controller);
      const id = ggufIdFor(fileName, new Set([...(await db.models.toArray()).map((record) => record.id), ...adding]));
      adding.add(id);
      let isStored = false;
      try {
        let header;
        if (source.kind === 'file') {
          if (source.file.size > MAX_GGUF_BYTES)
            return {
              ok: false,
              problems: [
                {
                  message: `${fileName} is ${(source.file.size / 2 ** 30).toFixed(1)} GB, more than the ${MAX_GGUF_BYTES / 2 ** 30} GB a browser tab can load`,
                },
              ],
            };
          // The header is read before anything is copied: a file that is not a model is refused at once.
          header = await readGgufHeader(blobSource(source.file));
          const freeBytes = await freeStorageBytes();
          if (freeBytes !== undefined && source.file.size > freeBytes)
            return {
              ok: false,
              problems: [{ message: tooLargeForStorageText(fileName, source.file.size, freeBytes) }],
            };
          await gguf.store(id, source.file, {
            totalBytes: source.file.size,
            signal: controller.signal,
            onProgress: (progress) => onProgress?.({ phase: 'storing', ...progress }),
          });
          isStored = true;
        } else {
          const fetcher = context.dependencies.providerReach?.fetch ?? fetch;
          let response: Response;
          try {
            response = await fetcher(source.url, { signal: controller.signal });
          } catch (error) {
            // A request fetch would not make (credentials in the address, say) is told as it is, below.
            if (controller.signal.aborted || !isNetworkFailure(error)) throw error;
            // Asked again without reading the answer: a server that answers refuses other sites (CORS).
            const answered = isOffline() ? undefined : await serverAnswers(fetcher, source.url);
            return { ok: false, problems: [{ message: redact(downloadFailureText(shownUrl, error, answered)) }] };
          }
          if (!response.ok || !response.body)
            return {
              ok: false,
              problems: [{ message: redact(downloadStatusText(shownUrl, response.status, response.statusText)) }],
            };
          const length = Number(response.headers.get('content-length'));
          const totalBytes = Number.isFinite(length) && length > 0 ? length : undefined;
          if (totalBytes !== undefined && totalBytes > MAX_GGUF_BYTES)
            return {
              ok: false,
              problems: [
                {
                  message: `${shownUrl} is ${(totalBytes / 2 ** 30).toFixed(1)} GB, more than the ${MAX_GGUF_BYTES / 2 ** 30} GB a browser tab can load`,
                },
              ],
            };
          const freeBytes = totalBytes === undefined ? undefined : await freeStorageBytes();
          if (totalBytes !== undefined && freeBytes !== undefined && totalBytes > freeBytes) {
            await response.body.cancel().catch(() => undefined);
            return {
              ok: false,
              problems: [{ message: redact(tooLargeForStorageText(shownUrl, totalBytes, freeBytes)) }],
            };
          }
          await gguf.store(id, response.body, {
            ...(totalBytes !== undefined ? { totalBytes } : {}),
            signal: controller.signal,
            onProgress: (progress) => onProgress?.({ phase: 'downloading', ...progress }),
          });
          isStored = true;
          const stored = await gguf.file(id);
          if (!stored) throw new Error('the downloaded file is gone');
          header = await readGgufHeader(blobSource(stored));
        }
        const record: GgufModelRecord = {
          id,
          engine: 'gguf',
          fileName,
          sizeBytes: header.fileBytes,
          architecture: header.architecture,
          ...(header.name !== undefined ? { name: header.name } : {}),
          ...(header.contextLength !== undefined ? { contextLength: header.contextLength } : {}),
          quantisation: header.quantisation,
          parameters: header.parameters,
          source: source.kind === 'file' ? { kind: 'file' } : { kind: 'url', url: shownUrl },
          addedAt: now(),
        };
        await exclusively(() => db.models.put(record));
        return { ok: true, model: viewOf(record) };
      } catch (error) {
        if (isStored) await gguf.remove(id).catch(() => undefined);
        if (controller.signal.aborted)
          return {
            ok: false,
            cancelled: true,
            problems: [{ message: `adding ${fileName} was cancelled; nothing was kept` }],
          };
        if (isStorageFull(error))
          return { ok: false, problems: [{ message: redact(storageFullText(shownUrl || fileName)) }] };
        if (error instanceof GgufError)
          return { ok: false, problems: [{ message: redact(`${fileName}: ${error.message}`) }] };
        return {
          ok: false,
          problems: [
            {
              message: redact(
                `${fileName} could not be added: ${error instanceof Error ? error.message : String(error)}`,
              ),
            },
          ],
        };
      } finally {
        adding.delete(id);
        operations.delete(operationId);
      }
    },

    async ggufDelete({ id }) {
      const gguf = host();
      if (!gguf) return { ok: false, problems: [{ message: NO_GGUF_HERE }] };
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      if ((await db.models.get(id))?.engine !== 'gguf')
        return { ok: false, problems: [{ message: `there is no GGUF model ${id}` }] };
      try {
        await gguf.remove(id);
      } catch (error) {
        return {
          ok: false,
          problems: [
            { message: `${id} could not be deleted: ${error instanceof Error ? error.message : String(error)}` },
          ],
        };
      }
      await exclusively(() => db.models.delete(id));
      return { ok: true, id };
    },
  };
}

/// <reference lib="webworker" />
import { messageOf } from './plain-data.ts';
import { storeLoadRemove } from './round-trip.ts';

/**
 * Runs the GGUF host's round trip in a dedicated worker, as the app's agent worker would;
 * without createWritable, if asked, to take the path of browsers that lack it.
 */
self.onmessage = async (event: MessageEvent<{ modelBase64: string; id: string; withoutCreateWritable: boolean }>) => {
  if (event.data.withoutCreateWritable) Reflect.deleteProperty(FileSystemFileHandle.prototype, 'createWritable');
  try {
    self.postMessage({ ok: true, outcome: await storeLoadRemove(event.data.modelBase64, event.data.id) });
  } catch (error) {
    self.postMessage({ ok: false, message: messageOf(error) });
  }
};

import { type Locator, type Page, expect } from '@playwright/test';

/** The first start loads the starter graph into a fresh database; on a usable GPU, listing also loads WebLLM's code (6 MB). */
const OPEN_TIMEOUT_MS = 45_000;

/**
 * Plays the end of a download, since nothing can be downloaded here: puts what WebLLM checks into
 * its model cache (the weights' index, naming one shard, and that shard), so WebLLM says the model
 * is cached. Deleting the model removes the shard, and WebLLM says it is not cached any more. Call
 * it on a page of the app's origin (the cache is the origin's).
 */
export async function pretendDownloaded(
  page: Page,
  modelId: string,
  modelUrl = `https://huggingface.co/mlc-ai/${modelId}`,
): Promise<void> {
  await page.evaluate(async (base) => {
    const cache = await caches.open('webllm/model');
    await cache.put(
      `${base}tensor-cache.json`,
      new Response(JSON.stringify({ records: [{ dataPath: 'params_shard_0.bin' }] })),
    );
    await cache.put(`${base}params_shard_0.bin`, new Response(new Uint8Array(8)));
  }, `${modelUrl}/resolve/main/`);
}

/**
 * Plays a download that stopped part way: puts the weights' configuration and one shard into
 * WebLLM's caches, without the index that would say the model is all there. Call it on a page of
 * the app's origin.
 */
export async function pretendPartlyDownloaded(
  page: Page,
  modelId: string,
  modelUrl = `https://huggingface.co/mlc-ai/${modelId}`,
): Promise<void> {
  await page.evaluate(async (base) => {
    await (await caches.open('webllm/config')).put(`${base}mlc-chat-config.json`, new Response('{}'));
    await (await caches.open('webllm/model')).put(`${base}params_shard_0.bin`, new Response(new Uint8Array(8)));
  }, `${modelUrl}/resolve/main/`);
}

/** A model's own actions. */
export type ModelAction =
  | 'Download'
  | 'Cancel'
  | 'Try again'
  | 'Repair'
  | 'Use this model'
  | 'Delete'
  | 'Delete the model'
  | 'Remove from list'
  | 'Remove the model'
  | 'Keep it';

/** The fields of the form that adds a model by address, by their labels. */
export type CustomModelFields = {
  'Model id'?: string;
  'Name (optional)'?: string;
  'Weights address'?: string;
  'Model library address (.wasm)'?: string;
  'GPU memory needed (MB)'?: string;
  'Context window (tokens)'?: string;
};

/** The Models screen's form that adds a WebLLM model not in its list. */
export class CustomModelForm {
  readonly region: Locator;
  readonly openButton: Locator;
  readonly addButton: Locator;
  /** What the last addition did. */
  readonly status: Locator;

  constructor(listRegion: Locator) {
    this.region = listRegion.getByRole('group', { name: 'A model not in this list', exact: true });
    this.openButton = this.region.getByRole('button', { name: 'Add a model by address', exact: true });
    this.addButton = this.region.getByRole('button', { name: 'Add the model', exact: true });
    this.status = this.region.getByRole('status');
  }

  field(label: keyof CustomModelFields): Locator {
    return this.region.getByRole('textbox', { name: label, exact: true });
  }

  weights(kind: 'f32 (any GPU)' | 'f16 (needs shader-f16)'): Locator {
    return this.region.getByRole('radio', { name: kind, exact: true });
  }

  /** Fills the fields given (others keep what they hold) and asks to add the model. */
  async add(fields: CustomModelFields): Promise<void> {
    for (const [label, value] of Object.entries(fields)) await this.field(label as keyof CustomModelFields).fill(value);
    await this.addButton.click();
  }

  /** The failure of the last addition. */
  alert(): Locator {
    return this.region.getByRole('alert');
  }
}

/** A GGUF model's own actions. */
export type GgufAction = 'Use this model' | 'Delete' | 'Delete the model' | 'Keep it';

/** A GGUF model's facts, by their labels. */
export type GgufFact = 'Parameters' | 'Quantisation' | 'Context' | 'Architecture' | 'Size' | 'Memory needed' | 'From';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The Models screen's CPU engine section (llama.cpp in WebAssembly): the GGUF models added here, adding one from a file or an address, and each model's actions. */
export class GgufSection {
  readonly page: Page;
  readonly region: Locator;
  /** The models added here. */
  readonly list: Locator;
  readonly fileInput: Locator;
  readonly urlInput: Locator;
  readonly downloadButton: Locator;
  readonly cancelButton: Locator;
  /** The progress of an addition. */
  readonly progress: Locator;
  /** What the last addition or deletion did (or that one is in progress). */
  readonly status: Locator;
  /** The models recommended for the CPU engine, each added in one click. */
  readonly recommended: Locator;

  constructor(page: Page) {
    this.page = page;
    this.region = page.getByRole('region', { name: 'CPU engine (llama.cpp)', exact: true });
    this.list = this.region.getByRole('list', { name: 'GGUF models added', exact: true });
    // A file input has no role: found by its label.
    this.fileInput = this.region.getByLabel('Model file (.gguf)', { exact: true });
    this.urlInput = this.region.getByRole('textbox', { name: 'Model address', exact: true });
    this.downloadButton = this.region.getByRole('button', { name: 'Download', exact: true });
    this.cancelButton = this.region.getByRole('button', { name: 'Cancel', exact: true });
    this.progress = this.region.getByRole('progressbar', { name: /^Adding / });
    this.status = this.region.getByRole('status', { name: 'Last change', exact: true });
    this.recommended = this.region.getByRole('list', { name: 'Recommended models', exact: true });
  }

  /** A recommended model's card, by its name. */
  recommendedModel(name: string): Locator {
    return this.recommended.getByRole('article', { name, exact: true });
  }

  /** Picks a file to add, as a user would in the file chooser. */
  async addFile(name: string, bytes: Uint8Array, mimeType = 'application/octet-stream'): Promise<void> {
    await this.fileInput.setInputFiles({ name, mimeType, buffer: Buffer.from(bytes) });
  }

  /** Asks for a model at an address (without waiting for the outcome). */
  async download(url: string): Promise<void> {
    await this.urlInput.fill(url);
    await this.downloadButton.click();
  }

  /** A model's card, found by its name (general.name, else the file name), then its file name. */
  model(name: string): Locator {
    return this.list.getByRole('article', { name: new RegExp(`^${escapeRegExp(name)} `) });
  }

  fact(name: string, fact: GgufFact): Locator {
    return this.model(name).getByRole('group', { name: fact, exact: true });
  }

  action(name: string, action: GgufAction): Locator {
    return this.model(name).getByRole('button', { name: action, exact: true });
  }

  /** The failure of the last addition, with the agent's problems. */
  addAlert(): Locator {
    return this.region.getByRole('alert').filter({ hasText: 'The model was not added:' });
  }
}

/** The Models screen: the GPU as WebGPU sees it, the WebLLM models with their state and actions, the CPU engine's GGUF models, and this origin's storage. */
export class ModelsPage {
  readonly page: Page;
  readonly gpuRegion: Locator;
  readonly listRegion: Locator;
  readonly storageRegion: Locator;
  /** The models this GPU can run (or, without one, that can run here). */
  readonly runnableList: Locator;
  /** The models this GPU cannot run, listed once the toggle shows them. */
  readonly hiddenList: Locator;
  readonly persistenceStatus: Locator;
  readonly persistButton: Locator;
  readonly gguf: GgufSection;
  readonly customForm: CustomModelForm;

  constructor(page: Page) {
    this.page = page;
    this.gguf = new GgufSection(page);
    this.gpuRegion = page.getByRole('region', { name: 'WebGPU', exact: true });
    this.listRegion = page.getByRole('region', { name: 'WebLLM models', exact: true });
    this.storageRegion = page.getByRole('region', { name: 'Storage', exact: true });
    this.runnableList = this.listRegion.getByRole('list', { name: /^Models (this GPU can run|that can run here)$/ });
    this.hiddenList = this.listRegion.getByRole('list', {
      name: /^Models (this GPU cannot run|that cannot run here)$/,
    });
    this.customForm = new CustomModelForm(this.listRegion);
    this.persistenceStatus = this.storageRegion.getByRole('status', { name: 'Persistence', exact: true });
    this.persistButton = this.storageRegion.getByRole('button', {
      name: 'Keep my data (ask for persistent storage)',
      exact: true,
    });
  }

  /** Opens the Models screen and waits until it has listed the models. */
  async open(): Promise<void> {
    await this.page.goto('/#/models');
    await expect(this.gpuRegion).toBeVisible({ timeout: OPEN_TIMEOUT_MS });
  }

  /** The GPU's detail by its name ("Adapter", "shader-f16", "Largest buffer"). */
  gpuDetail(name: 'Adapter' | 'shader-f16' | 'Largest buffer'): Locator {
    return this.gpuRegion.getByRole('group', { name, exact: true });
  }

  /** The toggle that shows or hides the models this GPU cannot run. */
  hiddenToggle(): Locator {
    return this.listRegion.getByRole('button', {
      name: /^(Show|Hide) \d+ models? (this GPU cannot run|that cannot run here)$/,
    });
  }

  /** A model's card, found by its id (names repeat: a model comes with f16 and f32 weights). */
  model(modelId: string): Locator {
    return this.listRegion.getByRole('article', { name: new RegExp(`${modelId.replace(/[.]/g, '\\.')}$`) });
  }

  action(modelId: string, action: ModelAction): Locator {
    return this.model(modelId).getByRole('button', { name: action, exact: true });
  }

  /** The failure of a model's last change. */
  alert(modelId: string): Locator {
    return this.model(modelId).getByRole('alert');
  }
}

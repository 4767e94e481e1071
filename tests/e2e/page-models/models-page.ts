import { type Locator, type Page, expect } from '@playwright/test';

/** The first start loads the starter graph into a fresh database; on a usable GPU, listing also loads WebLLM's code (6 MB). */
const OPEN_TIMEOUT_MS = 45_000;

/**
 * Plays the end of a download, since nothing can be downloaded here: puts what WebLLM checks into
 * its model cache (the weights' index, naming one shard, and that shard), so WebLLM says the model
 * is cached. Deleting the model removes the shard, and WebLLM says it is not cached any more. Call
 * it on a page of the app's origin (the cache is the origin's).
 */
export async function pretendDownloaded(page: Page, modelId: string): Promise<void> {
  await page.evaluate(async (id) => {
    const base = `https://huggingface.co/mlc-ai/${id}/resolve/main/`;
    const cache = await caches.open('webllm/model');
    await cache.put(`${base}tensor-cache.json`, new Response(JSON.stringify({ records: [{ dataPath: 'params_shard_0.bin' }] })));
    await cache.put(`${base}params_shard_0.bin`, new Response(new Uint8Array(8)));
  }, modelId);
}

/** A model's own actions. */
export type ModelAction = 'Download' | 'Cancel' | 'Try again' | 'Repair' | 'Use this model' | 'Delete' | 'Delete the model' | 'Keep it';

/** The Models screen: the GPU as WebGPU sees it, the WebLLM models with their state and actions, and this origin's storage. */
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

  constructor(page: Page) {
    this.page = page;
    this.gpuRegion = page.getByRole('region', { name: 'WebGPU', exact: true });
    this.listRegion = page.getByRole('region', { name: 'WebLLM models', exact: true });
    this.storageRegion = page.getByRole('region', { name: 'Storage', exact: true });
    this.runnableList = this.listRegion.getByRole('list', { name: /^Models (this GPU can run|that can run here)$/ });
    this.hiddenList = this.listRegion.getByRole('list', { name: /^Models (this GPU cannot run|that cannot run here)$/ });
    this.persistenceStatus = this.storageRegion.getByRole('status', { name: 'Persistence', exact: true });
    this.persistButton = this.storageRegion.getByRole('button', { name: "Keep Anima's data on this device", exact: true });
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
    return this.listRegion.getByRole('button', { name: /^(Show|Hide) \d+ models? (this GPU cannot run|that cannot run here)$/ });
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

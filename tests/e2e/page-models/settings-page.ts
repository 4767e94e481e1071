import { type Locator, type Page, expect } from '@playwright/test';

/** The first start loads the starter graph into a fresh database, which takes longer than a normal expectation. */
const OPEN_TIMEOUT_MS = 45_000;

/** A language model's limits per run, by their field labels. */
export type ModelLimits = Partial<
  Record<'Requests' | 'Tool calls' | 'Input tokens' | 'Output tokens' | 'Wall time (seconds)', number>
>;

/** The provider choices of the Language model section. */
export type ProviderChoice =
  | 'None (symbolic engine alone)'
  | 'OpenAI-compatible endpoint'
  | "WebLLM (on this device's GPU)"
  | 'CPU engine (llama.cpp, any browser)';

/** The Settings screen's Language model section: the provider, its endpoint or model, the limits of each run, and a check. */
export class LanguageModelSection {
  readonly page: Page;
  readonly region: Locator;
  readonly baseUrlInput: Locator;
  readonly modelInput: Locator;
  readonly apiKeyInput: Locator;
  /** "The model sees images": tools' image artifacts are shown to it. */
  readonly visionCheckbox: Locator;
  readonly removeKeyButton: Locator;
  /** The WebLLM model: a choice among the downloaded models. */
  readonly webllmModelSelect: Locator;
  /** The CPU engine's model: a choice among the GGUF models added. */
  readonly ggufModelSelect: Locator;
  readonly modelsScreenLink: Locator;
  readonly confidenceCapInput: Locator;
  readonly saveButton: Locator;
  /** "Saved: …" after a save. */
  readonly saveStatus: Locator;
  /** The alert of a refused save, each problem naming its field. */
  readonly saveAlert: Locator;
  readonly checkButton: Locator;
  readonly cancelCheckButton: Locator;
  /** The check's answer or bottleneck, with its attempts and tokens. */
  readonly checkResult: Locator;
  readonly checkAlert: Locator;

  constructor(page: Page) {
    this.page = page;
    this.region = page.getByRole('region', { name: 'Language model', exact: true });
    this.baseUrlInput = this.region.getByRole('textbox', { name: 'Base URL', exact: true });
    this.modelInput = this.region.getByRole('textbox', { name: 'Model', exact: true });
    // A password field has no role: found by its label.
    this.apiKeyInput = this.region.getByLabel('API key', { exact: true });
    this.visionCheckbox = this.region.getByRole('checkbox', { name: 'The model sees images', exact: true });
    this.removeKeyButton = this.region.getByRole('button', { name: 'Remove the key', exact: true });
    this.webllmModelSelect = this.region.getByRole('combobox', { name: 'WebLLM model', exact: true });
    this.ggufModelSelect = this.region.getByRole('combobox', { name: 'GGUF model', exact: true });
    this.modelsScreenLink = this.region.getByRole('link', { name: /on the Models screen$/ });
    this.confidenceCapInput = this.region.getByRole('spinbutton', {
      name: 'Confidence cap for facts a model adds',
      exact: true,
    });
    this.saveButton = this.region.getByRole('button', { name: 'Save language model', exact: true });
    this.saveStatus = this.region.getByRole('status', { name: 'Save result', exact: true });
    this.saveAlert = this.region.getByRole('alert').filter({ hasText: 'were not changed' });
    const check = this.region.getByRole('group', { name: 'Check', exact: true });
    this.checkButton = check.getByRole('button', { name: 'Check the model', exact: true });
    this.cancelCheckButton = check.getByRole('button', { name: 'Cancel the check', exact: true });
    this.checkResult = check.getByRole('status', { name: 'Check result', exact: true });
    this.checkAlert = check.getByRole('alert');
  }

  provider(choice: ProviderChoice): Locator {
    return this.region.getByRole('radio', { name: choice });
  }

  limit(label: keyof ModelLimits): Locator {
    return this.region
      .getByRole('group', { name: 'Limits of each run', exact: true })
      .getByRole('spinbutton', { name: label, exact: true });
  }

  /** Chooses an OpenAI-compatible endpoint, fills in its fields and limits, and saves (without waiting for the outcome). */
  async saveEndpoint(endpoint: {
    baseUrl: string;
    model: string;
    apiKey?: string;
    limits?: ModelLimits;
  }): Promise<void> {
    await this.provider('OpenAI-compatible endpoint').check();
    await this.baseUrlInput.fill(endpoint.baseUrl);
    await this.modelInput.fill(endpoint.model);
    if (endpoint.apiKey !== undefined) await this.apiKeyInput.fill(endpoint.apiKey);
    for (const [label, value] of Object.entries(endpoint.limits ?? {}))
      await this.limit(label as keyof ModelLimits).fill(String(value));
    await this.saveButton.click();
  }
}

/** The Settings screen's Agent section: planning, the reflection interval, the failed plans a goal may have, and working memory. */
export class SettingsPage {
  readonly page: Page;
  readonly agentRegion: Locator;
  readonly planningCheckbox: Locator;
  readonly reflectionIntervalInput: Locator;
  readonly maxFailedPlansInput: Locator;
  readonly memoryCapacityInput: Locator;
  readonly consolidationThresholdInput: Locator;
  readonly saveAgentButton: Locator;
  readonly agentStatus: Locator;
  readonly agentAlert: Locator;
  readonly languageModel: LanguageModelSection;

  constructor(page: Page) {
    this.page = page;
    this.languageModel = new LanguageModelSection(page);
    this.agentRegion = page.getByRole('region', { name: 'Agent', exact: true });
    this.planningCheckbox = this.agentRegion.getByRole('checkbox', { name: 'Planning', exact: true });
    this.reflectionIntervalInput = this.agentRegion.getByRole('spinbutton', {
      name: 'Reflection interval (cycles)',
      exact: true,
    });
    this.maxFailedPlansInput = this.agentRegion.getByRole('spinbutton', {
      name: 'Failed plans before a goal is abandoned',
      exact: true,
    });
    this.memoryCapacityInput = this.agentRegion.getByRole('spinbutton', {
      name: 'Working memory capacity (entries)',
      exact: true,
    });
    this.consolidationThresholdInput = this.agentRegion.getByRole('spinbutton', {
      name: 'Consolidate working memory above (share full)',
      exact: true,
    });
    this.saveAgentButton = this.agentRegion.getByRole('button', { name: 'Save agent settings', exact: true });
    this.agentStatus = this.agentRegion.getByRole('status');
    this.agentAlert = this.agentRegion.getByRole('alert');
  }

  /** Opens the Settings screen and waits until the agent settings are read. */
  async open(): Promise<void> {
    await this.page.goto('/#/settings');
    await expect(this.reflectionIntervalInput).toBeVisible({ timeout: OPEN_TIMEOUT_MS });
  }
}

import { type Locator, type Page, expect } from '@playwright/test';

/** The first start loads the starter graph into a fresh database, which takes longer than a normal expectation. */
const OPEN_TIMEOUT_MS = 45_000;

/** A value of the current psyche's summary, named by its label. */
export type SummaryLabel =
  | 'Persona'
  | 'Grammar'
  | 'Traits'
  | 'Tone'
  | 'Dominant archetype'
  | 'Sage'
  | 'Healer'
  | 'Explorer'
  | 'Guardian'
  | 'Individuation'
  | 'Shadow encounters'
  | 'Version'
  | 'Made by';

/** The Psyche screen: the summary, the form editor, the psyche.toml editor and the history. */
export class PsychePage {
  readonly page: Page;
  readonly summary: Locator;
  readonly form: Locator;
  readonly nameInput: Locator;
  readonly saveButton: Locator;
  readonly tomlRegion: Locator;
  readonly tomlText: Locator;
  readonly tomlProblems: Locator;
  readonly importButton: Locator;
  readonly exportButton: Locator;
  readonly fileInput: Locator;
  readonly history: Locator;
  readonly chart: Locator;
  readonly versions: Locator;

  constructor(page: Page) {
    this.page = page;
    this.summary = page.getByRole('region', { name: 'Current psyche', exact: true });
    this.form = page.getByRole('region', { name: 'Edit the psyche', exact: true });
    this.nameInput = this.form
      .getByRole('group', { name: 'Persona', exact: true })
      .getByRole('textbox', { name: 'Name', exact: true });
    this.saveButton = this.form.getByRole('button', { name: 'Save as a new version' });
    this.tomlRegion = page.getByRole('region', { name: 'psyche.toml', exact: true });
    this.tomlText = this.tomlRegion.getByRole('textbox', { name: 'psyche.toml text' });
    this.tomlProblems = this.tomlRegion.getByRole('list', { name: 'Problems', exact: true });
    this.importButton = this.tomlRegion.getByRole('button', { name: 'Import', exact: true });
    this.exportButton = this.tomlRegion.getByRole('button', { name: 'Export psyche.toml' });
    this.fileInput = this.tomlRegion.getByLabel('Import psyche.toml…');
    this.history = page.getByRole('region', { name: 'History', exact: true });
    this.chart = this.history.getByRole('img');
    this.versions = this.history.getByRole('list', { name: 'Versions', exact: true });
  }

  /** Opens the Psyche screen and waits until the psyche and its psyche.toml are shown. */
  async open(): Promise<void> {
    await this.page.goto('/#/psyche');
    await this.waitUntilShown();
  }

  /** Waits until the summary and the editable psyche.toml text are shown (after a reload, say). */
  async waitUntilShown(): Promise<void> {
    await expect(this.summary).toBeVisible({ timeout: OPEN_TIMEOUT_MS });
    await expect(this.tomlText).toBeEnabled();
  }

  /** A value of the summary, in a group named by its label. */
  value(label: SummaryLabel): Locator {
    return this.summary.getByRole('group', { name: label, exact: true });
  }

  /** The current version's number, as the summary shows it. */
  async currentVersion(): Promise<number> {
    return Number((await this.value('Version').textContent())?.replace(/\D/g, ''));
  }

  /** Changes the psyche.toml text as typed. */
  async editToml(change: (text: string) => string): Promise<void> {
    await this.tomlText.fill(change(await this.tomlText.inputValue()));
  }

  /** Replaces the psyche.toml text, waits until it is checked valid, and imports it. */
  async importToml(text: string): Promise<void> {
    await this.tomlText.fill(text);
    await expect(this.tomlStatus('Valid: it can be imported.')).toBeVisible();
    await this.importButton.click();
    await expect(this.tomlStatus(/Imported .* as version \d+\./)).toBeVisible();
  }

  /** A status message of the psyche.toml editor: the check's verdict, an import's outcome. */
  tomlStatus(text: RegExp | string): Locator {
    return this.tomlRegion.getByRole('status').filter({ hasText: text });
  }

  /** The preview of a chosen psyche.toml file, before it is imported. */
  filePreview(fileName: string): Locator {
    return this.tomlRegion.getByRole('group', { name: `Preview of ${fileName}`, exact: true });
  }

  /** Chooses a psyche.toml file to import (it is previewed first). */
  async chooseFile(fileName: string, text: string): Promise<void> {
    await this.fileInput.setInputFiles({ name: fileName, mimeType: 'text/plain', buffer: Buffer.from(text) });
  }

  /** A version of the history list: "Version 2", or "Version 3 (current)". */
  version(number: number): Locator {
    return this.versions.getByRole('listitem', { name: new RegExp(`^Version ${number}( \\(current\\))?$`) });
  }

  /** Restores a version, answering yes to the question it asks first. */
  async restore(number: number): Promise<void> {
    await this.history.getByRole('button', { name: `Restore version ${number}`, exact: true }).click();
    await this.history.getByRole('button', { name: 'Yes, restore', exact: true }).click();
  }

  /** A status message of the history: a restore's outcome. */
  historyStatus(text: RegExp | string): Locator {
    return this.history.getByRole('status').filter({ hasText: text });
  }

  /** A status message of the form editor: a save's outcome. */
  formStatus(text: RegExp | string): Locator {
    return this.form.getByRole('status').filter({ hasText: text });
  }
}

import { type Download, type Locator, type Page, expect } from '@playwright/test';

/** The first start loads the starter graph into a fresh database, which takes longer than a normal expectation. */
const OPEN_TIMEOUT_MS = 45_000;

/** Opening a new session loads the starter graph into it, as on a first start. */
export const SESSION_OPEN_TIMEOUT_MS = 45_000;

/** What a session's card shows, each in a group named by its label. */
export type SessionDetail = 'Goals' | 'Cycles' | 'Persona' | 'Psyche' | 'Model' | 'Size' | 'Last changed';

/** A snapshot file as a file input takes it. */
export type SnapshotFile = { name: string; mimeType: string; buffer: Buffer };

/**
 * The Sessions screen: the sessions on this device (the open one marked "Open now"), each with
 * Open, Rename, Duplicate, Export, Check and Delete; a form for a new one; and the import of a
 * snapshot file, previewed first.
 */
export class SessionsPage {
  readonly page: Page;
  readonly listRegion: Locator;
  readonly sessionList: Locator;
  readonly newNameInput: Locator;
  readonly createButton: Locator;
  readonly importRegion: Locator;
  readonly importInput: Locator;
  /** The open session's name in the app's header. */
  readonly openSessionName: Locator;

  constructor(page: Page) {
    this.page = page;
    this.listRegion = page.getByRole('region', { name: 'Sessions on this device', exact: true });
    this.sessionList = this.listRegion.getByRole('list', { name: 'Sessions', exact: true });
    const create = this.listRegion.getByRole('form', { name: 'New session', exact: true });
    this.newNameInput = create.getByRole('textbox', { name: 'Name of a new session', exact: true });
    this.createButton = create.getByRole('button', { name: 'Create', exact: true });
    this.importRegion = page.getByRole('region', { name: 'Import a session', exact: true });
    this.importInput = this.importRegion.getByLabel('Import a snapshot file…');
    this.openSessionName = page.getByRole('banner');
  }

  /** Opens the Sessions screen and waits until the sessions are listed. */
  async open(): Promise<void> {
    await this.page.goto('/#/sessions');
    await expect(this.sessionList.getByRole('article').first()).toBeVisible({ timeout: OPEN_TIMEOUT_MS });
  }

  /** A session's card, named by the session's name. */
  session(name: string): Locator {
    return this.sessionList.getByRole('article', { name, exact: true });
  }

  detail(name: string, detail: SessionDetail): Locator {
    return this.session(name).getByRole('group', { name: detail, exact: true });
  }

  /** Expects a session's card to show a detail's value: "Goals" "2 open of 3", say. */
  async expectDetail(name: string, detail: SessionDetail, value: string): Promise<void> {
    await expect(this.detail(name, detail)).toHaveText(
      new RegExp(`^${detail}\\s*${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    );
  }

  /** A line the list's own status says ("Opened …", "Deleted …"). */
  listStatus(text: string | RegExp): Locator {
    return this.listRegion.getByRole('status').filter({ hasText: text });
  }

  /** A line a session's card says ("Renamed to …", "Whole: no problems found."). */
  cardStatus(name: string, text: string | RegExp): Locator {
    return this.session(name).getByRole('status').filter({ hasText: text });
  }

  action(name: string, label: 'Open' | 'Rename' | 'Duplicate' | 'Export' | 'Check' | 'Delete'): Locator {
    return this.session(name).getByRole('button', { name: label, exact: true });
  }

  async create(name: string): Promise<void> {
    await this.newNameInput.fill(name);
    await this.createButton.click();
    await expect(this.session(name)).toBeVisible();
  }

  /** Opens a session, and waits until the app has it open (a new one loads the starter graph first). */
  async openSession(name: string): Promise<void> {
    await this.action(name, 'Open').click();
    await expect(this.listStatus(`Opened “${name}”.`)).toBeVisible({ timeout: SESSION_OPEN_TIMEOUT_MS });
    await expect(this.session(name).getByText('Open now', { exact: true })).toBeVisible();
  }

  async rename(name: string, newName: string): Promise<void> {
    await this.action(name, 'Rename').click();
    const form = this.session(name).getByRole('form', { name: `Rename ${name}`, exact: true });
    await form.getByRole('textbox', { name: 'New name', exact: true }).fill(newName);
    await form.getByRole('button', { name: 'Save the name', exact: true }).click();
    await expect(this.cardStatus(newName, `Renamed to “${newName}”.`)).toBeVisible();
  }

  /** Opens the Duplicate form of a session: its name field, offered "NAME (copy)". */
  async startDuplicate(name: string): Promise<Locator> {
    await this.action(name, 'Duplicate').click();
    return this.session(name).getByRole('form', { name: `Duplicate ${name}`, exact: true });
  }

  /** Saves a session's snapshot file, as JSON or gzipped, and returns the download. */
  async exportFile(name: string, format: 'JSON' | 'Gzipped'): Promise<Download> {
    await this.action(name, 'Export').click();
    const form = this.session(name).getByRole('form', { name: `Export ${name}`, exact: true });
    await form
      .getByRole('radio', {
        name: format === 'JSON' ? 'JSON (.anima.json)' : 'Gzipped JSON (.anima.json.gz), smaller',
        exact: true,
      })
      .check();
    const download = this.page.waitForEvent('download');
    await form.getByRole('button', { name: 'Save the file', exact: true }).click();
    return download;
  }

  /** The question asked before a session is deleted. */
  deleteQuestion(name: string): Locator {
    return this.session(name)
      .getByRole('group')
      .filter({ hasText: `Delete “${name}”` });
  }

  /** Chooses a snapshot file to import: it is checked, and previewed. */
  async chooseFile(file: SnapshotFile | string): Promise<void> {
    await this.importInput.setInputFiles(file);
  }

  /** The preview of a chosen file. */
  preview(fileName: string): Locator {
    return this.importRegion.getByRole('group', { name: `Preview of ${fileName}`, exact: true });
  }

  importButton(label: 'Import' | 'Import as a copy' | 'Replace the one here' | 'Replace it'): Locator {
    return this.importRegion.getByRole('button', { name: label, exact: true });
  }

  /** What the import said when it was done. */
  importStatus(text: string | RegExp): Locator {
    return this.importRegion.getByRole('status').filter({ hasText: text });
  }

  get importAlert(): Locator {
    return this.importRegion.getByRole('alert');
  }
}

import { type Locator, type Page, expect } from '@playwright/test';
import { KnowledgePage } from './knowledge-page.ts';

/** The Documents panel of the Knowledge screen: import a text file, the list of documents, and deleting one. */
export class DocumentsPage {
  readonly page: Page;
  readonly knowledge: KnowledgePage;
  readonly region: Locator;
  readonly fileInput: Locator;
  readonly status: Locator;
  readonly alert: Locator;
  readonly list: Locator;

  constructor(page: Page) {
    this.page = page;
    this.knowledge = new KnowledgePage(page);
    this.region = page.getByRole('region', { name: 'Documents', exact: true });
    this.fileInput = this.region.getByLabel('Import a document…');
    this.status = this.region.getByRole('status');
    this.alert = this.region.getByRole('alert');
    this.list = this.region.getByRole('list', { name: 'Documents', exact: true });
  }

  /** Opens the Knowledge screen and waits for the agent and the panel. */
  async open(): Promise<void> {
    await this.knowledge.open();
    await expect(this.region).toBeVisible();
  }

  /** Chooses a text file for the import control, without waiting for the outcome. */
  async importText(name: string, text: string): Promise<void> {
    await this.fileInput.setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  }

  /** A listed document: an article named by the document's name. */
  document(name: string): Locator {
    return this.list.getByRole('article', { name, exact: true });
  }

  /** Whether the agent has turned a document into facts yet, in a group named "Status". */
  documentStatus(name: string): Locator {
    return this.document(name).getByRole('group', { name: 'Status', exact: true });
  }

  documentSize(name: string): Locator {
    return this.document(name).getByRole('group', { name: 'Size', exact: true });
  }

  deleteButton(name: string): Locator {
    return this.document(name).getByRole('button', { name: 'Delete', exact: true });
  }

  /** Deletes a document, answering yes to the question asked first; returns that question. */
  async deleteDocument(name: string): Promise<string> {
    let question = '';
    // Answered in the handler: a click that opens a dialog does not end until the dialog is answered.
    this.page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    await this.deleteButton(name).click();
    return question;
  }
}

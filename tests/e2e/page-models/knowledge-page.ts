import { type Locator, type Page, expect } from '@playwright/test';

/** The counts shown at the top of the Knowledge screen. */
export type CountName = 'Triples' | 'Symbols' | 'Entities' | 'Relations' | 'Literals';

/** A file as the import control receives it. */
export type ImportFile = { name: string; mimeType: string; buffer: Buffer };

/** The first start loads the starter graph into a fresh database, which takes longer than a normal expectation. */
const OPEN_TIMEOUT_MS = 45_000;

/** Inference on the starter graph runs for a moment; the first run derives a few thousand facts. */
const INFERENCE_TIMEOUT_MS = 30_000;

/** The Knowledge screen: counts, search, symbol details (graph view, similar symbols, triples), query, inference, import and export. */
export class KnowledgePage {
  readonly page: Page;
  readonly searchBox: Locator;
  readonly searchResults: Locator;
  readonly searchSummary: Locator;
  readonly symbolDetails: Locator;
  readonly outgoingTable: Locator;
  readonly incomingTable: Locator;
  readonly visitedSymbols: Locator;
  readonly similarSymbols: Locator;
  readonly queryRegion: Locator;
  readonly queryInput: Locator;
  readonly runQueryButton: Locator;
  readonly queryResults: Locator;
  readonly inferenceRegion: Locator;
  readonly minConfidenceInput: Locator;
  readonly runInferenceButton: Locator;
  readonly inferenceStatus: Locator;
  readonly derivedFacts: Locator;
  readonly transferRegion: Locator;
  readonly importFormat: Locator;
  readonly importFileInput: Locator;
  readonly previewFileInput: Locator;
  readonly importPreview: Locator;
  readonly linkSameLabels: Locator;
  readonly importStatus: Locator;
  readonly importAlert: Locator;
  readonly exportButton: Locator;

  constructor(page: Page) {
    this.page = page;
    const search = page.getByRole('region', { name: 'Search', exact: true });
    this.searchBox = search.getByRole('searchbox', { name: 'Search symbols' });
    this.searchResults = search.getByRole('list', { name: 'Search results' });
    this.searchSummary = search.getByRole('status');
    this.symbolDetails = page.getByRole('region', { name: 'Symbol details' });
    this.outgoingTable = this.symbolDetails.getByRole('table', { name: 'Outgoing' });
    this.incomingTable = this.symbolDetails.getByRole('table', { name: 'Incoming' });
    this.visitedSymbols = page.getByRole('navigation', { name: 'Visited symbols' });
    this.similarSymbols = this.symbolDetails.getByRole('list', { name: 'Similar symbols' });
    this.queryRegion = page.getByRole('region', { name: 'Query', exact: true });
    this.queryInput = this.queryRegion.getByRole('textbox', { name: 'Query' });
    this.runQueryButton = this.queryRegion.getByRole('button', { name: 'Run' });
    this.queryResults = this.queryRegion.getByRole('table', { name: 'Query results' });
    this.inferenceRegion = page.getByRole('region', { name: 'Inference', exact: true });
    this.minConfidenceInput = this.inferenceRegion.getByRole('spinbutton', { name: 'Minimum confidence' });
    this.runInferenceButton = this.inferenceRegion.getByRole('button', { name: 'Run inference' });
    this.inferenceStatus = this.inferenceRegion.getByRole('status');
    this.derivedFacts = this.inferenceRegion.getByRole('table', { name: 'Derived facts' });
    this.transferRegion = page.getByRole('region', { name: 'Import and export' });
    this.importFormat = this.transferRegion.getByRole('combobox', { name: 'Format' });
    this.importFileInput = this.transferRegion.getByLabel('Import file');
    this.previewFileInput = this.transferRegion.getByLabel('Preview file');
    this.importPreview = this.transferRegion.getByRole('region', { name: 'Import preview' });
    this.linkSameLabels = this.transferRegion.getByRole('checkbox', { name: 'Link things of the same name' });
    this.importStatus = this.transferRegion.getByRole('status').filter({ hasText: 'Imported' });
    this.importAlert = this.transferRegion.getByRole('alert');
    this.exportButton = this.transferRegion.getByRole('button', { name: 'Export N-Triples' });
  }

  /** A count: a group named by its label, holding the number. */
  count(name: CountName): Locator {
    return this.page.getByRole('group', { name, exact: true });
  }

  /** Opens the Knowledge screen and waits until the agent is open (on a first start, until the starter graph is loaded). */
  async open(): Promise<void> {
    await this.page.goto('/#/knowledge');
    await expect(this.count('Triples')).toBeVisible({ timeout: OPEN_TIMEOUT_MS });
  }

  /** The number a count shows (the group's text less its label, which has no digits), read without digit grouping. */
  async countOf(name: CountName): Promise<number> {
    const text = (await this.count(name).textContent()) ?? '';
    return Number(text.replace(/\D/g, ''));
  }

  async search(text: string): Promise<void> {
    await this.searchBox.fill(text);
  }

  /** The search result for a symbol; its name starts with the label, followed by the kind. */
  searchHit(label: string): Locator {
    return this.searchResults.getByRole('button', { name: new RegExp(`^${escapeRegExp(label)} `) });
  }

  symbolHeading(label: string): Locator {
    return this.symbolDetails.getByRole('heading', { level: 2, name: label, exact: true });
  }

  /** Searches for a label, picks the matching result and waits for the symbol's details. */
  async openSymbol(label: string): Promise<void> {
    await this.search(label);
    await this.searchHit(label).click();
    await expect(this.symbolHeading(label)).toBeVisible();
  }

  /** A symbol shown as a link in one of the detail tables. */
  symbolLink(table: Locator, label: string): Locator {
    return table.getByRole('button', { name: label, exact: true });
  }

  /** A row of a detail table, found by its subject, predicate and object labels. */
  factRow(table: Locator, subject: string, predicate: string, object: string): Locator {
    return table
      .getByRole('row')
      .filter({
        has: this.page.getByRole('cell', { name: subject, exact: true }),
      })
      .filter({
        has: this.page.getByRole('cell', { name: predicate, exact: true }),
      })
      .filter({
        has: this.page.getByRole('cell', { name: object, exact: true }),
      });
  }

  /** The graph view of a symbol's neighbourhood: a figure captioned "Neighbourhood of <label>". */
  neighbourhoodGraph(label: string): Locator {
    return this.symbolDetails.getByRole('figure', { name: `Neighbourhood of ${label}`, exact: true });
  }

  /** A neighbour in the graph view: a button named by its label. */
  graphNode(centreLabel: string, label: string): Locator {
    return this.neighbourhoodGraph(centreLabel).getByRole('button', { name: label, exact: true });
  }

  /** An entry of the similar-symbols list; its name is the label followed by the similarity. */
  similarSymbol(label: string): Locator {
    return this.similarSymbols.getByRole('button', { name: new RegExp(`^${escapeRegExp(label)} \\d`) });
  }

  /** The "Why?" disclosure of a table row. */
  whyButton(row: Locator): Locator {
    return row.getByRole('button', { name: 'Why?' });
  }

  /** What a "Why?" disclosure shows for a triple: a group named "Why <subject> <predicate> <object>". */
  explanation(container: Locator, subject: string, predicate: string, object: string): Locator {
    return container.getByRole('group', { name: `Why ${subject} ${predicate} ${object}`, exact: true });
  }

  /** Runs inference and waits for its report; returns how many new facts it says it derived. */
  async runInference(): Promise<number> {
    await this.runInferenceButton.click();
    await expect(this.inferenceStatus).toContainText(/Derived [\d,]+ new facts?/, { timeout: INFERENCE_TIMEOUT_MS });
    const text = (await this.inferenceStatus.textContent()) ?? '';
    const match = /Derived ([\d,]+) new fact/.exec(text);
    if (!match?.[1]) throw new Error(`the inference report gives no count of new facts: ${text}`);
    return Number(match[1].replace(/,/g, ''));
  }

  /** A row of the query results holding each of these values, in a cell of its own. */
  queryRow(...values: string[]): Locator {
    return values.reduce(
      (rows, value) => rows.filter({ has: this.page.getByRole('cell', { name: value, exact: true }) }),
      this.queryResults.getByRole('row'),
    );
  }

  async runQuery(query: string): Promise<void> {
    await this.queryInput.fill(query);
    await this.runQueryButton.click();
  }

  async importFile(file: ImportFile): Promise<void> {
    await this.importFileInput.setInputFiles(file);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

import { type Locator, type Page, expect } from '@playwright/test';

/** The first start loads the starter graph into a fresh database, which takes longer than a normal expectation. */
const OPEN_TIMEOUT_MS = 45_000;

/** The part types as the screen names them. */
export type PartTypeLabel = 'System' | 'Identity' | 'Soul' | 'Goal' | 'Tone' | 'Voice' | 'Context' | 'Backstory';

/** A library's section of the Library panel. */
export type LibraryTitle = 'Parts' | 'Traits' | 'Skills' | 'Guardrails';

/**
 * The Personas screen: the catalog (with import), the selected persona's editor and assembled
 * prompt, the libraries and the character arcs.
 */
export class PersonasPage {
  readonly page: Page;
  readonly catalog: Locator;
  readonly personaList: Locator;
  /** What the current session wears ("Mentor", or "no persona"). */
  readonly worn: Locator;
  readonly searchInput: Locator;
  readonly tagSelect: Locator;
  readonly importInput: Locator;
  readonly preview: Locator;
  readonly promptText: Locator;
  readonly budgetInput: Locator;
  readonly promptParts: Locator;
  readonly leftOut: Locator;
  readonly library: Locator;
  readonly arcs: Locator;

  constructor(page: Page) {
    this.page = page;
    this.catalog = page.getByRole('region', { name: 'Personas', exact: true });
    this.personaList = this.catalog.getByRole('list', { name: 'Personas', exact: true });
    this.worn = this.catalog.getByRole('group', { name: 'This session wears', exact: true });
    this.searchInput = this.catalog.getByRole('searchbox', { name: 'Search personas' });
    this.tagSelect = this.catalog.getByRole('combobox', { name: 'Tag', exact: true });
    this.importInput = this.catalog.getByLabel('Import a persona file…');
    this.preview = page.getByRole('region', { name: 'Assembled prompt', exact: true });
    this.promptText = this.preview.getByRole('figure', { name: 'Prompt text' });
    this.budgetInput = this.preview.getByRole('textbox', { name: 'Token budget' });
    this.promptParts = this.preview.getByRole('list', { name: 'Parts in the prompt' });
    this.leftOut = this.preview.getByRole('list', { name: 'Left out' });
    this.library = page.getByRole('region', { name: 'Library', exact: true });
    this.arcs = page.getByRole('region', { name: 'Character arcs', exact: true });
  }

  /** Opens the Personas screen and waits until the catalog is read. */
  async open(): Promise<void> {
    await this.page.goto('/#/personas');
    await expect(this.worn).toBeVisible({ timeout: OPEN_TIMEOUT_MS });
  }

  /** A persona's card in the catalog. */
  persona(name: string): Locator {
    return this.personaList.getByRole('article', { name, exact: true });
  }

  /** Creates a persona with the New persona form; it becomes the one edited. */
  async createPersona(fields: { name: string; description?: string; summary?: string; tags?: string }): Promise<void> {
    const toggle = this.catalog.getByRole('button', { name: 'New persona', exact: true });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const form = this.catalog.getByRole('form', { name: 'New persona' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill(fields.name);
    if (fields.description !== undefined)
      await form.getByRole('textbox', { name: 'Description', exact: true }).fill(fields.description);
    if (fields.summary !== undefined)
      await form.getByRole('textbox', { name: 'Summary', exact: true }).fill(fields.summary);
    if (fields.tags !== undefined) await form.getByRole('textbox', { name: 'Tags', exact: true }).fill(fields.tags);
    await form.getByRole('button', { name: 'Create the persona' }).click();
    await expect(form.getByRole('status')).toHaveText(`Created ${fields.name}.`);
    await expect(this.editor(fields.name)).toBeVisible();
  }

  /** The editor of the selected persona. */
  editor(name: string): Locator {
    return this.page.getByRole('region', { name: `Persona: ${name}`, exact: true });
  }

  /** A section of the editor: "Fields", "Parts", "Traits", "Skills", "Guardrails", "Arc", "Export". */
  editorSection(persona: string, title: string): Locator {
    return this.editor(persona).getByRole('region', { name: title, exact: true });
  }

  /** A status message of a section of the editor (a change's outcome). */
  editorStatus(persona: string, section: string, text: RegExp | string): Locator {
    return this.editorSection(persona, section).getByRole('status').filter({ hasText: text });
  }

  /** The persona's parts, in order. */
  partRows(persona: string): Locator {
    return this.editorSection(persona, 'Parts').getByRole('list', { name: 'Parts in order' }).getByRole('listitem');
  }

  partRow(persona: string, part: string): Locator {
    return this.editorSection(persona, 'Parts').getByRole('listitem', { name: part, exact: true });
  }

  /** Drags a part onto another's place, by its header (away from the row's fields), both in view while the mouse moves. */
  async dragPart(persona: string, part: string, ontoPart: string): Promise<void> {
    const source = this.partRow(persona, part);
    const target = this.partRow(persona, ontoPart);
    await this.editorSection(persona, 'Parts').getByRole('list', { name: 'Parts in order' }).scrollIntoViewIfNeeded();
    const from = await source.boundingBox();
    const to = await target.boundingBox();
    if (!from || !to) throw new Error(`the parts ${part} and ${ontoPart} are not both shown`);
    await this.page.mouse.move(from.x + 12, from.y + 12);
    await this.page.mouse.down();
    await this.page.mouse.move(to.x + 12, to.y + 12, { steps: 5 });
    await this.page.mouse.up();
  }

  /** Links a library item to the persona from a section of the editor. */
  async link(persona: string, section: 'Parts' | 'Traits' | 'Skills' | 'Guardrails', item: string): Promise<void> {
    const region = this.editorSection(persona, section);
    await region.getByRole('combobox', { name: /^Add a \w+ from the library$/ }).selectOption(item);
    await region.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(region.getByRole('status').filter({ hasText: `Added ${item} to ${persona}.` })).toBeVisible();
  }

  /** A section of the Library panel. */
  librarySection(title: LibraryTitle): Locator {
    return this.library.getByRole('region', { name: title, exact: true });
  }

  /** A library item's card. */
  libraryItem(title: LibraryTitle, name: string): Locator {
    return this.librarySection(title).getByRole('article', { name, exact: true });
  }

  /** Creates a part with the New part form. */
  async createPart(fields: { name: string; type: PartTypeLabel; summary: string; detail?: string }): Promise<void> {
    const section = this.librarySection('Parts');
    const toggle = section.getByRole('button', { name: 'New part', exact: true });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const form = section.getByRole('form', { name: 'New part' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill(fields.name);
    await form.getByRole('combobox', { name: 'Type', exact: true }).selectOption({ label: fields.type });
    await form.getByRole('textbox', { name: 'Summary', exact: true }).fill(fields.summary);
    if (fields.detail !== undefined)
      await form.getByRole('textbox', { name: 'Detail', exact: true }).fill(fields.detail);
    await form.getByRole('button', { name: 'Create the part' }).click();
    await expect(form.getByRole('status')).toHaveText(`Created the part ${fields.name}.`);
  }

  /**
   * Creates a trait, skill or guardrail with its New form: text fields and selects by their
   * label, checkboxes checked when true.
   */
  async createLibraryItem(
    title: Exclude<LibraryTitle, 'Parts'>,
    fields: Record<string, string | boolean>,
  ): Promise<void> {
    const singular = title.slice(0, -1).toLowerCase();
    const section = this.librarySection(title);
    const toggle = section.getByRole('button', { name: `New ${singular}`, exact: true });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const form = section.getByRole('form', { name: `New ${singular}` });
    for (const [label, value] of Object.entries(fields)) {
      if (typeof value === 'boolean') await form.getByRole('checkbox', { name: label }).setChecked(value);
      else if (label === 'Type')
        await form.getByRole('combobox', { name: label, exact: true }).selectOption({ label: value });
      else await form.getByRole('textbox', { name: label, exact: true }).fill(value);
    }
    await form.getByRole('button', { name: `Create the ${singular}` }).click();
    await expect(form.getByRole('status')).toHaveText(`Created the ${singular} ${String(fields.Name)}.`);
  }

  /** The select that overrides a part type in the preview. */
  override(type: PartTypeLabel): Locator {
    return this.preview.getByRole('combobox', { name: type, exact: true });
  }

  /** The preview's token estimate, as a number. */
  async promptTokens(): Promise<number> {
    const text = await this.preview.getByRole('group', { name: 'Tokens', exact: true }).textContent();
    return Number(text?.replace(/\D/g, ''));
  }

  /** An arc's card. */
  arc(name: string): Locator {
    return this.arcs.getByRole('list', { name: 'Arcs' }).getByRole('article', { name, exact: true });
  }

  /** Creates an arc with its stages (in order) with the New arc form. */
  async createArc(name: string, stages: readonly string[]): Promise<void> {
    const toggle = this.arcs.getByRole('button', { name: 'New arc', exact: true });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const form = this.arcs.getByRole('form', { name: 'New arc' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await form.getByRole('textbox', { name: 'Stages', exact: true }).fill(stages.join('\n'));
    await form.getByRole('button', { name: 'Create the arc' }).click();
    await expect(form.getByRole('status')).toHaveText(`Created the arc ${name}.`);
  }

  /** Makes a stage of an arc swap a part in. */
  async addStagePart(arc: string, stage: string, part: string): Promise<void> {
    const group = this.arc(arc).getByRole('group', { name: `Parts of stage ${stage}`, exact: true });
    await group.getByRole('combobox', { name: 'Add a part from the library' }).selectOption(part);
    await group.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(group.getByRole('listitem').filter({ hasText: part })).toBeVisible();
  }

  /** Chooses a file to import (it is checked and previewed first). */
  async chooseImportFile(name: string, data: string | Buffer, mimeType = 'application/json'): Promise<void> {
    await this.importInput.setInputFiles({
      name,
      mimeType,
      buffer: typeof data === 'string' ? Buffer.from(data) : data,
    });
  }

  /** The preview of a chosen import file. */
  importPreview(fileName: string): Locator {
    return this.catalog.getByRole('group', { name: `Preview of ${fileName}`, exact: true });
  }

  /** A status message of the catalog (an import's outcome, say). */
  catalogStatus(text: RegExp | string): Locator {
    return this.catalog.getByRole('status').filter({ hasText: text });
  }
}

import type { Locator, Page } from '@playwright/test';

/** The Storage panel (on the Settings screen): how much Anima stores of how much it may, and whether the browser keeps it. */
export class StoragePanel {
  readonly page: Page;
  readonly region: Locator;
  /** "12 MB of 2 GB used (1%)", or why the browser gives no figures. */
  readonly usage: Locator;
  /** Whether the browser keeps the data, and its answer once asked. */
  readonly persistence: Locator;
  readonly keepDataButton: Locator;

  constructor(page: Page) {
    this.page = page;
    this.region = page.getByRole('region', { name: 'Storage', exact: true });
    this.usage = this.region.getByRole('status', { name: 'Storage use', exact: true });
    this.persistence = this.region.getByRole('status', { name: 'Persistence', exact: true });
    this.keepDataButton = this.region.getByRole('button', {
      name: 'Keep my data (ask for persistent storage)',
      exact: true,
    });
  }

  /** The megabytes the usage line says are used (a size in GB counted in MB). */
  async usedMegabytes(): Promise<number> {
    const match = /^([\d.,]+) (MB|GB) of /.exec((await this.usage.textContent()) ?? '');
    if (!match) throw new Error(`the Storage panel shows no usage: "${await this.usage.textContent()}"`);
    const amount = Number(match[1]!.replaceAll(',', ''));
    return match[2] === 'GB' ? amount * 1024 : amount;
  }
}

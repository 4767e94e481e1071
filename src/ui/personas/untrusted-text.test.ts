import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Personas come from imported character cards, written by anyone: every text of this screen is
 * rendered as text. A guard against markup creeping in: no component here renders raw HTML.
 */
describe('the Personas screen', () => {
  it('renders no text as markup', () => {
    const folder = new URL('.', import.meta.url);
    const components = readdirSync(folder).filter((name) => name.endsWith('.svelte'));
    expect(components.length).toBeGreaterThan(10);
    for (const name of components)
      expect(readFileSync(new URL(name, folder), 'utf8'), name).not.toMatch(
        /\{@html|innerHTML|outerHTML|insertAdjacentHTML/,
      );
  });
});

/** The theme choices of the Settings screen: follow the system, or pin light or dark. */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

const STORAGE_KEY = 'anima.theme';

/** The saved theme choice; 'system' when none is saved or storage is unavailable (private modes may block it). */
export function readThemeChoice(): ThemeChoice {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return THEME_CHOICES.find((choice) => choice === saved) ?? 'system';
  } catch {
    return 'system';
  }
}

/** Saves the choice (a UI preference, so it lives in localStorage, not in the agent's database) and applies it. */
export function saveThemeChoice(choice: ThemeChoice): void {
  try {
    localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // Storage is blocked: the choice still applies until the page is closed.
  }
  applyThemeChoice(choice);
}

/** Pins the page to a theme through data-theme on <html> (styles.css maps it to color-scheme); 'system' removes the pin. */
export function applyThemeChoice(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset['theme'];
  else document.documentElement.dataset['theme'] = choice;
}

/** Every screen of the app, in navigation order. */
export const SCREENS = [
  { path: 'start', title: 'Start' },
  { path: 'goals', title: 'Goals' },
  { path: 'cycles', title: 'Cycles' },
  { path: 'knowledge', title: 'Knowledge' },
  { path: 'memory', title: 'Memory' },
  { path: 'psyche', title: 'Psyche' },
  { path: 'personas', title: 'Personas' },
  { path: 'models', title: 'Models' },
  { path: 'approvals', title: 'Approvals' },
  { path: 'sessions', title: 'Sessions' },
  { path: 'settings', title: 'Settings' },
] as const satisfies readonly { path: string; title: string }[];

export type Screen = (typeof SCREENS)[number];
export type ScreenPath = Screen['path'];

/** The home screen once the start screen has been shown: the address names none (or one that does not exist). */
export const DEFAULT_SCREEN_PATH = 'goals' satisfies ScreenPath;

/** The link to a screen, e.g. "#/knowledge". */
export function hrefOf(path: ScreenPath): string {
  return `#/${path}`;
}

/** The screen an address hash names ("#/goals" -> Goals); unknown or empty hashes give the home screen. */
export function screenFromHash(hash: string, home: ScreenPath = DEFAULT_SCREEN_PATH): Screen {
  const path = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return SCREENS.find((screen) => screen.path === path) ?? SCREENS.find((screen) => screen.path === home)!;
}

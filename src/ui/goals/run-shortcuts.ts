/** What a run shortcut does: run cycles, pause, show the plan of the goal worked on next, or reflect. */
export type RunShortcut = 'run-one' | 'run-until-done' | 'pause' | 'show-plan' | 'reflect';

/**
 * The keys of each shortcut, as KeyboardEvent.key names them (and aria-keyshortcuts lists them):
 * n (next) or . for one cycle, g (go) until done, Escape to pause, p for the plan, r to reflect.
 */
export const RUN_SHORTCUT_KEYS = {
  'run-one': ['.', 'n'],
  'run-until-done': ['g'],
  pause: ['Escape'],
  'show-plan': ['p'],
  reflect: ['r'],
} as const satisfies Record<RunShortcut, readonly string[]>;

/** The aria-keyshortcuts value of a shortcut's button: its keys, space-separated. */
export function ariaKeyShortcuts(shortcut: RunShortcut): string {
  return RUN_SHORTCUT_KEYS[shortcut].join(' ');
}

/** The parts of a key press that decide whether it is a shortcut. */
export type KeyPress = {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  repeat: boolean;
  defaultPrevented: boolean;
  /** Where focus is: the element that received the key. */
  target: FocusTarget | null;
};

/** What the check needs of the focused element (an HTMLElement has all of it). */
export type FocusTarget = { tagName?: string; type?: string; isContentEditable?: boolean };

const NON_TEXT_INPUT_TYPES = new Set([
  'button',
  'checkbox',
  'radio',
  'range',
  'submit',
  'reset',
  'file',
  'color',
  'image',
]);

/** Whether focus is where keys type text (a text or number field, a text area, a list box, editable content). */
export function isTextEntry(target: FocusTarget | null): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName?.toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  return tag === 'input' && !NON_TEXT_INPUT_TYPES.has((target.type ?? 'text').toLowerCase());
}

/**
 * The shortcut a key press asks for, or undefined: none while typing in a field, with a
 * modifier held (those belong to the browser), on auto-repeat, or when something else handled it.
 */
export function shortcutOf(press: KeyPress): RunShortcut | undefined {
  if (
    press.ctrlKey ||
    press.metaKey ||
    press.altKey ||
    press.repeat ||
    press.defaultPrevented ||
    isTextEntry(press.target)
  )
    return undefined;
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  for (const [shortcut, keys] of Object.entries(RUN_SHORTCUT_KEYS) as [RunShortcut, readonly string[]][])
    if (keys.includes(key)) return shortcut;
  return undefined;
}

import { describe, expect, it } from 'vitest';
import {
  type FocusTarget,
  type KeyPress,
  RUN_SHORTCUT_KEYS,
  ariaKeyShortcuts,
  isTextEntry,
  shortcutOf,
} from './run-shortcuts.ts';

function press(key: string, target: FocusTarget | null = { tagName: 'BODY' }, extra: Partial<KeyPress> = {}): KeyPress {
  return {
    key,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    repeat: false,
    defaultPrevented: false,
    target,
    ...extra,
  };
}

describe('shortcutOf', () => {
  it('maps . and n to one cycle, g to until done, Escape to pause, p to the plan and r to reflect', () => {
    expect(['.', 'n', 'N'].map((key) => shortcutOf(press(key)))).toEqual(['run-one', 'run-one', 'run-one']);
    expect([shortcutOf(press('g')), shortcutOf(press('G'))]).toEqual(['run-until-done', 'run-until-done']);
    expect(shortcutOf(press('Escape'))).toBe('pause');
    expect([shortcutOf(press('p')), shortcutOf(press('P'))]).toEqual(['show-plan', 'show-plan']);
    expect([shortcutOf(press('r')), shortcutOf(press('R'))]).toEqual(['reflect', 'reflect']);
    expect(shortcutOf(press('x'))).toBeUndefined();
  });

  it('gives each key one shortcut only', () => {
    const keys = Object.values(RUN_SHORTCUT_KEYS).flat();
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('leaves keys alone while the user types in a field', () => {
    expect(shortcutOf(press('n', { tagName: 'INPUT', type: 'text' }))).toBeUndefined();
    expect(shortcutOf(press('.', { tagName: 'INPUT', type: 'number' }))).toBeUndefined();
    expect(shortcutOf(press('Escape', { tagName: 'TEXTAREA' }))).toBeUndefined();
    expect(shortcutOf(press('r', { tagName: 'DIV', isContentEditable: true }))).toBeUndefined();
    expect(shortcutOf(press('p', { tagName: 'INPUT', type: 'search' }))).toBeUndefined();
  });

  it('works while a button or checkbox has focus', () => {
    expect(shortcutOf(press('n', { tagName: 'BUTTON', type: 'submit' }))).toBe('run-one');
    expect(shortcutOf(press('Escape', { tagName: 'INPUT', type: 'checkbox' }))).toBe('pause');
    expect(shortcutOf(press('r', { tagName: 'BUTTON', type: 'button' }))).toBe('reflect');
  });

  it('leaves browser shortcuts, repeats and handled keys alone', () => {
    expect(shortcutOf(press('r', undefined, { ctrlKey: true }))).toBeUndefined();
    expect(shortcutOf(press('p', undefined, { altKey: true }))).toBeUndefined();
    expect(shortcutOf(press('n', undefined, { metaKey: true }))).toBeUndefined();
    expect(shortcutOf(press('n', undefined, { repeat: true }))).toBeUndefined();
    expect(shortcutOf(press('Escape', undefined, { defaultPrevented: true }))).toBeUndefined();
  });
});

describe('isTextEntry', () => {
  it('treats an input without a type as a text field', () => {
    expect(isTextEntry({ tagName: 'INPUT' })).toBe(true);
    expect(isTextEntry(null)).toBe(false);
  });
});

describe('ariaKeyShortcuts', () => {
  it('lists every key of a shortcut', () => {
    expect(ariaKeyShortcuts('run-one')).toBe('. n');
    expect(ariaKeyShortcuts('pause')).toBe('Escape');
    expect(ariaKeyShortcuts('run-until-done')).toBe('g');
    expect(ariaKeyShortcuts('show-plan')).toBe('p');
    expect(ariaKeyShortcuts('reflect')).toBe('r');
  });
});

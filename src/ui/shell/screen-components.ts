import type { Component } from 'svelte';
import StartScreen from '../start/start-screen.svelte';
import type { ScreenPath } from '../routes.ts';

type ScreenModule = { default: Component };

/**
 * Each screen's code: the start screen's, which a first visit opens on, is part of the first
 * visit; every other screen's is a chunk of its own, fetched the first time it is shown (and
 * precached by the service worker meanwhile).
 */
const LOADERS: Record<Exclude<ScreenPath, 'start'>, () => Promise<ScreenModule>> = {
  goals: () => import('../goals/goals-screen.svelte'),
  cycles: () => import('../cycles/cycles-screen.svelte'),
  knowledge: () => import('../knowledge/knowledge-screen.svelte'),
  memory: () => import('../memory/memory-screen.svelte'),
  psyche: () => import('../psyche/psyche-screen.svelte'),
  personas: () => import('../personas/personas-screen.svelte'),
  models: () => import('../models/models-screen.svelte'),
  approvals: () => import('../approvals/approvals-screen.svelte'),
  sessions: () => import('../sessions/sessions-screen.svelte'),
  settings: () => import('../settings/settings-screen.svelte'),
};

const loaded = new Map<ScreenPath, Component>([['start', StartScreen]]);

/** A screen's component: at once when its code is here, else a promise of it. */
export function screenComponent(path: ScreenPath): Component | Promise<Component> {
  const component = loaded.get(path);
  if (component) return component;
  return LOADERS[path as keyof typeof LOADERS]().then((module) => {
    loaded.set(path, module.default);
    return module.default;
  });
}

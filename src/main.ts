import './ui/jitless-zod.ts';
import './ui/styles.css';
import { mount } from 'svelte';
import App from './ui/app.svelte';
import { applyThemeChoice, readThemeChoice } from './ui/theme.ts';

// Applied before the first render, so a pinned theme does not flash the system one.
applyThemeChoice(readThemeChoice());

mount(App, { target: document.getElementById('app')! });

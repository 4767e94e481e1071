import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

/**
 * `npm run lint`, part of `npm run check`. The recommended rules of ESLint, typescript-eslint
 * (without type information: the type checks are tsc's and svelte-check's) and eslint-plugin-svelte,
 * plus the project's own standards: no dead code, untrusted text never rendered as HTML, no console
 * in the core, and strict equality.
 */
export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'dist-*/',
      'public/',
      'reports/',
      'test-results/',
      'playwright-report/',
      'tests/e2e/.generated/',
      'tests/fixtures/',
      'src/core/**/__fixtures__/',
    ],
  },
  // A disable comment that no longer silences anything is dead code too.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'], svelteConfig },
    },
  },
  {
    rules: {
      // Dead code: an unused name is removed, not kept "for later". A leading _ marks a parameter
      // a signature needs but the body does not use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { args: 'after-used', argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Untrusted text (model output, imported files, web pages) is never rendered as HTML.
      'svelte/no-at-html-tags': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // The core runs in the worker and in the CLI: it reports through its results and logs, never
    // by writing to a console a user does not see.
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
);

import { test as base } from '@playwright/test';
import { AppShell } from './page-models/app-shell.ts';
import { ApprovalsPage } from './page-models/approvals-page.ts';
import { CyclesPage } from './page-models/cycles-page.ts';
import { DocumentsPage } from './page-models/documents-page.ts';
import { GoalsPage } from './page-models/goals-page.ts';
import { KnowledgePage } from './page-models/knowledge-page.ts';
import { MemoryPage } from './page-models/memory-page.ts';
import { ModelsPage } from './page-models/models-page.ts';
import { PersonasPage } from './page-models/personas-page.ts';
import { PsychePage } from './page-models/psyche-page.ts';
import { SettingsPage } from './page-models/settings-page.ts';

/** The e2e test function with the app's page models as fixtures. */
export const test = base.extend<{
  shell: AppShell;
  knowledge: KnowledgePage;
  goals: GoalsPage;
  cycles: CyclesPage;
  memory: MemoryPage;
  psyche: PsychePage;
  approvals: ApprovalsPage;
  documents: DocumentsPage;
  settings: SettingsPage;
  models: ModelsPage;
  personas: PersonasPage;
}>({
  shell: async ({ page }, use) => {
    await use(new AppShell(page));
  },
  knowledge: async ({ page }, use) => {
    await use(new KnowledgePage(page));
  },
  goals: async ({ page }, use) => {
    await use(new GoalsPage(page));
  },
  cycles: async ({ page }, use) => {
    await use(new CyclesPage(page));
  },
  memory: async ({ page }, use) => {
    await use(new MemoryPage(page));
  },
  psyche: async ({ page }, use) => {
    await use(new PsychePage(page));
  },
  approvals: async ({ page }, use) => {
    await use(new ApprovalsPage(page));
  },
  documents: async ({ page }, use) => {
    await use(new DocumentsPage(page));
  },
  settings: async ({ page }, use) => {
    await use(new SettingsPage(page));
  },
  models: async ({ page }, use) => {
    await use(new ModelsPage(page));
  },
  personas: async ({ page }, use) => {
    await use(new PersonasPage(page));
  },
});

export { expect } from '@playwright/test';

/**
 * A psyche.toml that vetoes the agent's questions (user_interact): a goal that gets stuck goes on
 * running instead of waiting for an answer, for tests of long runs.
 */
export const NEVER_ASK = `[shadow]
bias_patterns = []

[[shadow.veto_patterns]]
name = "never_ask"
triggers = ["tool=user_interact"]
severity = 1.0
explanation = "Do not ask me; go on alone."
`;

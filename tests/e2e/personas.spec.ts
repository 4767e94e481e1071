import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.ts';
import type { PersonasPage } from './page-models/personas-page.ts';

/**
 * The Personas screen: a persona built from library parts, its assembled prompt with overrides,
 * a budget, a reordering and an arc; character cards imported (shown as text, never markup) and
 * personas exported; wearing, deleting, and deleting a part still in use.
 */

/** A mentor built in the UI: an identity, a warm tone and a goal linked; a stern tone waits in the library. */
async function buildMentor(personas: PersonasPage): Promise<void> {
  await personas.createPersona({ name: 'Mentor', summary: 'A patient teacher.', tags: 'teaching' });
  await personas.createPart({ name: 'mentor-identity', type: 'Identity', summary: 'You are a mentor.' });
  await personas.createPart({ name: 'warm-tone', type: 'Tone', summary: 'Speak warmly.' });
  await personas.createPart({ name: 'stern-tone', type: 'Tone', summary: 'Speak sternly.' });
  await personas.createPart({
    name: 'teach-goal',
    type: 'Goal',
    summary: 'Help the learner understand, one small step at a time.',
  });
  for (const part of ['mentor-identity', 'warm-tone', 'teach-goal']) await personas.link('Mentor', 'Parts', part);
}

/** A character card V2, as SillyTavern writes one. */
function cardV2(name: string, description: string): string {
  return JSON.stringify({
    spec: 'chara_card_v2',
    spec_version: '2.0',
    data: {
      name,
      description,
      personality: 'Kind and watchful.',
      scenario: '',
      first_mes: 'Hello, traveller.',
      mes_example: '',
      tags: ['fantasy'],
      extensions: {},
    },
  });
}

test.beforeEach(async ({ personas }) => {
  await personas.open();
});

test('a persona built from parts in the UI shows its assembled prompt, which changes with an override and leaves out what a budget cannot hold', async ({
  personas,
}) => {
  await buildMentor(personas);

  await expect(personas.partRows('Mentor')).toHaveText([/mentor-identity/, /warm-tone/, /teach-goal/]);
  await expect(personas.promptText).toContainText('# Mentor');
  await expect(personas.promptText).toContainText('Speak warmly.');
  await expect(personas.promptParts).toContainText('warm-tone (Tone) · own');
  await expect(personas.persona('Mentor').getByRole('group', { name: 'Contents' })).toHaveText(
    /3 parts, 0 traits, 0 skills, 0 guardrails/,
  );

  // The other tone as an override: the prompt shows it, and the persona's own tone is gone.
  await personas.override('Tone').selectOption('stern-tone');
  await expect(personas.promptText).toContainText('Speak sternly.');
  await expect(personas.promptText).not.toContainText('Speak warmly.');
  await expect(personas.promptParts).toContainText('stern-tone (Tone) · override');
  // Nothing is stored: the persona still links its own tone.
  await expect(personas.partRow('Mentor', 'warm-tone')).toBeVisible();

  // A budget just under the prompt's size leaves out the last part by priority and order.
  await expect(personas.leftOut).toHaveCount(0);
  const tokens = await personas.promptTokens();
  await personas.budgetInput.fill(String(tokens - 1));
  await expect(personas.leftOut).toContainText('teach-goal (part): over the token budget');
  await expect(personas.promptText).not.toContainText('one small step');
  expect(await personas.promptTokens()).toBeLessThan(tokens);

  // Pinned, the goal stays whatever the budget; a budget the pinned parts alone exceed is refused, naming them.
  await personas.partRow('Mentor', 'teach-goal').getByRole('checkbox', { name: 'Pinned' }).check();
  await expect(personas.promptText).toContainText('one small step');
  await personas.budgetInput.fill('5');
  await expect(personas.preview.getByRole('alert')).toContainText('the budget cannot hold what may not be left out');
  await expect(personas.preview.getByRole('alert')).toContainText('teach-goal');
  await personas.budgetInput.fill('');
  await expect(personas.promptText).toContainText('Speak sternly.');
  await personas.override('Tone').selectOption('');
  await expect(personas.promptText).toContainText('Speak warmly.');
});

test('reordering parts with the buttons and by dragging changes their order in the prompt', async ({ personas }) => {
  await buildMentor(personas);
  await expect(personas.promptText).toHaveText(/You are a mentor\.[\s\S]*Speak warmly\.[\s\S]*one small step/);

  const goal = personas.partRow('Mentor', 'teach-goal');
  await goal.getByRole('button', { name: 'Move up' }).click();
  await expect(personas.partRows('Mentor')).toHaveText([/mentor-identity/, /teach-goal/, /warm-tone/]);
  // Focus follows the part, so the keyboard can move it again.
  await expect(goal.getByRole('button', { name: 'Move up' })).toBeFocused();
  await personas.page.keyboard.press('Enter');
  await expect(personas.partRows('Mentor')).toHaveText([/teach-goal/, /mentor-identity/, /warm-tone/]);
  await expect(goal.getByRole('button', { name: 'Move up' })).toBeDisabled();
  await expect(personas.promptText).toHaveText(/one small step[\s\S]*You are a mentor\.[\s\S]*Speak warmly\./);

  // Drag the tone to the top.
  await personas.dragPart('Mentor', 'warm-tone', 'teach-goal');
  await expect(personas.partRows('Mentor')).toHaveText([/warm-tone/, /teach-goal/, /mentor-identity/]);
  await expect(personas.promptText).toHaveText(/Speak warmly\.[\s\S]*one small step[\s\S]*You are a mentor\./);

  // The order, pins and priorities are stored: they are there after a reload.
  await personas.partRow('Mentor', 'mentor-identity').getByRole('spinbutton', { name: 'Priority' }).fill('7');
  await personas.partRow('Mentor', 'mentor-identity').getByRole('spinbutton', { name: 'Priority' }).press('Enter');
  await expect(personas.editorStatus('Mentor', 'Parts', 'Set the priority of mentor-identity to 7.')).toBeVisible();
  await personas.page.reload();
  await expect(personas.worn).toBeVisible({ timeout: 45_000 });
  await personas.persona('Mentor').getByRole('button', { name: 'Edit' }).click();
  await expect(personas.partRows('Mentor')).toHaveText([/warm-tone/, /teach-goal/, /mentor-identity/]);
  await expect(personas.partRow('Mentor', 'mentor-identity').getByRole('spinbutton', { name: 'Priority' })).toHaveValue(
    '7',
  );
});

test('on an arc, advancing to a stage that swaps a part in changes the prompt; reset brings it back', async ({
  personas,
}) => {
  await buildMentor(personas);
  await personas.createArc('growth', ['novice', 'stern', 'master']);
  await personas.addStagePart('growth', 'stern', 'stern-tone');

  const arcSection = personas.editorSection('Mentor', 'Arc');
  await arcSection.getByRole('combobox', { name: 'Arc', exact: true }).selectOption('growth');
  await arcSection.getByRole('button', { name: 'Put on the arc' }).click();
  await expect(personas.editorStatus('Mentor', 'Arc', 'Mentor is on growth, at stage novice.')).toBeVisible();
  const timeline = arcSection.getByRole('list', { name: 'Stages of growth' });
  await expect(timeline.getByRole('listitem', { name: 'novice' })).toHaveAttribute('aria-current', 'step');
  await expect(personas.promptText).toContainText('Speak warmly.');
  await expect(personas.persona('Mentor').getByRole('group', { name: 'Arc' })).toContainText('growth, at stage novice');

  await arcSection.getByRole('button', { name: 'Advance' }).click();
  await expect(personas.editorStatus('Mentor', 'Arc', 'Mentor is at stage stern now.')).toBeVisible();
  await expect(timeline.getByRole('listitem', { name: 'stern' })).toHaveAttribute('aria-current', 'step');
  await expect(personas.promptText).toContainText('Speak sternly.');
  await expect(personas.promptText).not.toContainText('Speak warmly.');
  await expect(personas.promptParts).toContainText('stern-tone (Tone) · arc stage');
  // The arc's own timeline marks the selected persona's stage too.
  await expect(
    personas.arc('growth').getByRole('list', { name: 'Stages of growth' }).getByRole('listitem', { name: 'stern' }),
  ).toHaveAttribute('aria-current', 'step');

  // A stage a persona is at cannot be removed.
  await personas.arc('growth').getByRole('button', { name: 'Remove stage stern' }).click();
  await expect(personas.arc('growth').getByRole('alert')).toContainText('it is still in use');

  await arcSection.getByRole('button', { name: 'Reset' }).click();
  await expect(personas.promptText).toContainText('Speak warmly.');
  await arcSection.getByRole('button', { name: 'Take off the arc' }).click();
  await expect(personas.editorStatus('Mentor', 'Arc', 'Mentor is on no arc now.')).toBeVisible();
  await expect(arcSection).toContainText('On no arc.');
});

test('a character card JSON is previewed, imported, imported again under another name, and exported as a bundle', async ({
  page,
  personas,
}) => {
  await personas.chooseImportFile('seraphina.json', cardV2('Seraphina', 'A guardian of the forest.'));
  const preview = personas.importPreview('seraphina.json');
  await expect(preview).toContainText('character card (V2)');
  await expect(preview).toContainText('Seraphina');
  await expect(preview.getByRole('list', { name: 'What it brings' })).toContainText(
    'part Seraphina: description (identity): new',
  );
  await expect(preview).toContainText('first_mes');
  await expect(personas.personaList.getByRole('article')).toHaveCount(0);
  await preview.getByRole('button', { name: 'Import seraphina.json' }).click();
  await expect(personas.catalogStatus('Imported Seraphina from seraphina.json.')).toBeVisible();
  await expect(personas.persona('Seraphina')).toBeVisible();
  await expect(personas.editor('Seraphina')).toBeVisible();
  await expect(personas.promptText).toContainText('A guardian of the forest.');

  // The same card again: the name is taken, and another name lets it in (its parts named after it).
  await personas.chooseImportFile('seraphina.json', cardV2('Seraphina', 'A guardian of the forest.'));
  await expect(preview.getByRole('alert')).toContainText(
    'at persona.name: there is already a persona named "Seraphina"',
  );
  await preview.getByRole('textbox', { name: 'Import as' }).fill('Seraphina 2');
  await preview.getByRole('button', { name: 'Check again' }).click();
  await expect(preview.getByRole('list', { name: 'What it brings' })).toContainText(
    'part Seraphina 2: description (identity): new',
  );
  await preview.getByRole('button', { name: 'Import seraphina.json' }).click();
  await expect(personas.persona('Seraphina 2')).toBeVisible();

  const download = page.waitForEvent('download');
  await personas.editorSection('Seraphina 2', 'Export').getByRole('button', { name: 'Export bundle' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('seraphina-2.persona.json');
  const bundle = JSON.parse(await readFile(await file.path(), 'utf8'));
  expect(bundle).toMatchObject({ format: 'anima-persona', persona: { name: 'Seraphina 2' } });

  // A card PNG, read back as bytes: the image travels with the card.
  const pngDownload = page.waitForEvent('download');
  await personas.editorSection('Seraphina 2', 'Export').getByRole('button', { name: 'Export card PNG' }).click();
  const png = await pngDownload;
  expect(png.suggestedFilename()).toBe('seraphina-2.card.png');
  await personas.chooseImportFile('seraphina-2.card.png', await readFile(await png.path()), 'image/png');
  const pngPreview = personas.importPreview('seraphina-2.card.png');
  await expect(pngPreview.getByRole('alert')).toContainText('there is already a persona named "Seraphina 2"');
  await pngPreview.getByRole('textbox', { name: 'Import as' }).fill('Seraphina 3');
  await pngPreview.getByRole('button', { name: 'Check again' }).click();
  await expect(pngPreview).toContainText('character card (V3)');
  await expect(pngPreview).toContainText(/Image\s*yes/);
  await pngPreview.getByRole('button', { name: 'Import seraphina-2.card.png' }).click();
  await expect(personas.persona('Seraphina 3')).toBeVisible();
  await expect(personas.promptText).toContainText('A guardian of the forest.');
});

test('a card whose text holds markup shows it as text and runs none of it', async ({ page, personas }) => {
  const markup = '<img src=x onerror=window.__xss=1>';
  await personas.chooseImportFile('trap.json', cardV2(`Trap ${markup}`.slice(0, 40), `${markup} A trickster.`));
  const preview = personas.importPreview('trap.json');
  await expect(preview).toContainText(`${markup} A trickster.`);
  await preview.getByRole('button', { name: 'Import trap.json' }).click();
  await expect(personas.catalogStatus(/^Imported /)).toBeVisible();
  await expect(personas.promptText).toContainText(`${markup} A trickster.`);
  await expect(personas.personaList).toContainText(markup);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.evaluate(() => document.images.length)).toBe(0);
});

test('a persona is worn in this session and taken off; deleting it asks first, and its parts stay', async ({
  personas,
}) => {
  await buildMentor(personas);
  const mentor = personas.persona('Mentor');
  await expect(personas.worn).toContainText('no persona');
  await mentor.getByRole('button', { name: 'Wear in this session' }).click();
  await expect(personas.worn).toContainText('Mentor');
  await expect(mentor.getByRole('group', { name: 'Worn by' })).toContainText('My session');
  await mentor.getByRole('button', { name: 'Take off' }).click();
  await expect(personas.worn).toContainText('no persona');
  await mentor.getByRole('button', { name: 'Wear in this session' }).click();
  await expect(personas.worn).toContainText('Mentor');

  // Filtering by text and by tag.
  await personas.createPersona({ name: 'Jester', description: 'Tells jokes.', tags: 'fun' });
  await personas.searchInput.fill('joke');
  await expect(personas.personaList.getByRole('article')).toHaveText([/Jester/]);
  await personas.searchInput.fill('');
  await personas.tagSelect.selectOption('teaching');
  await expect(personas.personaList.getByRole('article')).toHaveText([/Mentor/]);
  await personas.tagSelect.selectOption('');

  await mentor.getByRole('button', { name: 'Delete' }).click();
  const question = mentor.getByRole('group', { name: /^Delete the persona Mentor\?/ });
  await expect(question).toContainText(
    'Its links go; its parts, traits, skills and guardrails stay in the library. My session will wear no persona.',
  );
  await expect(question.getByRole('button', { name: 'Delete the persona' })).toBeFocused();
  await question.getByRole('button', { name: 'Delete the persona' }).click();
  await expect(mentor).toHaveCount(0);
  await expect(personas.worn).toContainText('no persona');
  await expect(personas.libraryItem('Parts', 'warm-tone')).toContainText('Not used');
});

test('traits, skills and guardrails from the library join the prompt, and the detail view shows their detail', async ({
  personas,
}) => {
  await buildMentor(personas);
  await personas.createLibraryItem('Traits', {
    Name: 'patient',
    Type: 'Emotional',
    Description: 'Never rushes.',
    Instruction: 'Wait for the learner to answer.',
  });
  await personas.createLibraryItem('Skills', { Name: 'socratic', Description: 'Asks questions.' });
  await personas.createLibraryItem('Guardrails', {
    Name: 'no-deletions',
    Description: 'Never deletes knowledge.',
    Severity: '0.9',
    Triggers: 'kg_mutate\nrm -rf',
    'Ask for approval instead of blocking': true,
  });
  await expect(personas.libraryItem('Guardrails', 'no-deletions')).toContainText(
    'severity 0.9, asks for approval, 2 triggers',
  );
  await personas.link('Mentor', 'Traits', 'patient');
  await personas.link('Mentor', 'Skills', 'socratic');
  await personas.link('Mentor', 'Guardrails', 'no-deletions');
  await expect(personas.persona('Mentor').getByRole('group', { name: 'Contents' })).toHaveText(
    /3 parts, 1 trait, 1 skill, 1 guardrail/,
  );
  await expect(personas.promptText).toContainText('- patient (emotional): Never rushes.');
  await expect(personas.promptText).toContainText('- socratic: Asks questions.');
  await expect(personas.promptText).toContainText('- no-deletions: Never deletes knowledge.');

  await personas.preview.getByRole('radio', { name: 'Detail' }).check();
  await expect(personas.promptText).toContainText('- patient (emotional): Wait for the learner to answer.');
  await expect(personas.promptText).toContainText('(severity 0.9)');

  // A bad severity is named at its field.
  const section = personas.librarySection('Guardrails');
  await section
    .getByRole('form', { name: 'New guardrail' })
    .getByRole('textbox', { name: 'Name', exact: true })
    .fill('too-strong');
  await section
    .getByRole('form', { name: 'New guardrail' })
    .getByRole('textbox', { name: 'Severity', exact: true })
    .fill('3');
  await section.getByRole('button', { name: 'Create the guardrail' }).click();
  await expect(
    section.getByRole('form', { name: 'New guardrail' }).getByRole('textbox', { name: 'Severity', exact: true }),
  ).toHaveAttribute('aria-invalid', 'true');

  // Unlinking leaves the item in the library.
  await personas.editorSection('Mentor', 'Skills').getByRole('button', { name: 'Unlink' }).click();
  await expect(personas.promptText).not.toContainText('socratic');
  await expect(personas.libraryItem('Skills', 'socratic')).toContainText('Not used');
});

test('a part still in use is deleted only when asked again, and leaves the persona', async ({ personas }) => {
  await buildMentor(personas);
  const warm = personas.libraryItem('Parts', 'warm-tone');
  await expect(warm).toContainText('Used by Mentor');
  await warm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(warm.getByRole('alert')).toContainText('warm-tone was not deleted: it is still in use.');
  await expect(warm.getByRole('alert')).toContainText('persona "Mentor"');
  await warm.getByRole('button', { name: 'Delete anyway' }).click();
  await expect(warm).toHaveCount(0);
  await expect(personas.partRows('Mentor')).toHaveText([/mentor-identity/, /teach-goal/]);
  await expect(personas.promptText).not.toContainText('Speak warmly.');

  // A field's problem shows next to it.
  const fields = personas.editorSection('Mentor', 'Fields');
  await fields.getByRole('textbox', { name: 'Name', exact: true }).fill('');
  await fields.getByRole('button', { name: 'Save' }).click();
  await expect(fields.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(fields.getByRole('textbox', { name: 'Name', exact: true })).toHaveAccessibleDescription(
    /a name needs at least one character/,
  );
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the Personas screen fits without sideways scrolling', async ({ shell, personas }) => {
    await personas.createPersona({ name: 'A persona with a rather long name that must wrap' });
    await personas.createPart({ name: 'a-part', type: 'Tone', summary: 'Speak.' });
    await personas.link('A persona with a rather long name that must wrap', 'Parts', 'a-part');
    await expect(personas.promptText).toContainText('Speak.');
    expect(await shell.pageWidth()).toBeLessThanOrEqual(360);
  });
});

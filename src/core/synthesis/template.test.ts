import { describe, expect, it } from 'vitest';
import { fillTemplate, placeholdersIn } from './template.ts';

describe('placeholdersIn', () => {
  it('lists the placeholders of a template, escaped braces excluded', () => {
    expect(placeholdersIn('{subject} {{not}} {object} {}')).toEqual(['subject', 'object', '']);
  });
});

describe('fillTemplate', () => {
  it('replaces placeholders with their values and turns doubled braces into literal ones', () => {
    expect(fillTemplate('{{{subject}}} is {a} {object}', { subject: 'Owl', a: 'a', object: 'Bird' })).toBe(
      '{Owl} is a Bird',
    );
  });

  it('never expands placeholders written inside a value (labels are not templates)', () => {
    expect(fillTemplate('{subject} -> {object}', { subject: '{object}', object: '{{x}}' })).toBe('{object} -> {{x}}');
  });

  it('leaves a placeholder it has no value for as written, prototype names included', () => {
    expect(fillTemplate('{missing} {constructor} {toString}', {})).toBe('{missing} {constructor} {toString}');
  });
});

import { describe, expect, it } from 'vitest';
import { hrefOf, screenFromHash } from './routes.ts';

describe('screenFromHash', () => {
  it('opens the screen the address names', () => {
    expect(screenFromHash('#/goals').title).toBe('Goals');
    expect(screenFromHash(hrefOf('settings')).title).toBe('Settings');
  });

  it('opens Goals when the address names no screen, or one that does not exist', () => {
    expect(screenFromHash('').path).toBe('goals');
    expect(screenFromHash('#/').path).toBe('goals');
    expect(screenFromHash('#/nowhere').path).toBe('goals');
  });

  it('opens the start screen instead on a first visit, and whenever the address names it', () => {
    expect(screenFromHash('', 'start')).toEqual({ path: 'start', title: 'Start' });
    expect(screenFromHash('#/goals', 'start').path).toBe('goals');
    expect(screenFromHash('#/start').path).toBe('start');
  });

  it('opens the Psyche, Personas, Models, Approvals and Sessions screens themselves, not their plans', () => {
    expect(screenFromHash('#/psyche')).toEqual({ path: 'psyche', title: 'Psyche' });
    expect(screenFromHash('#/personas')).toEqual({ path: 'personas', title: 'Personas' });
    expect(screenFromHash('#/models')).toEqual({ path: 'models', title: 'Models' });
    expect(screenFromHash('#/approvals')).toEqual({ path: 'approvals', title: 'Approvals' });
    expect(screenFromHash('#/sessions')).toEqual({ path: 'sessions', title: 'Sessions' });
  });

  it('ignores what follows the screen name', () => {
    expect(screenFromHash('#/memory/episodes?sort=recent').path).toBe('memory');
  });
});

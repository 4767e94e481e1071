import { describe, expect, it } from 'vitest';
import { USAGE, usageFor } from './usage.ts';

describe('what a usage error ends with', () => {
  it("is the named command's own lines, with their continuation lines", () => {
    const run = usageFor('run');
    expect(run).toContain('anima run --goal TEXT');
    expect(run).toContain('--verbose: after each cycle');
    expect(run).not.toContain('anima resume');
    expect(usageFor('kg stats')).toMatch(/^Usage:\n {2}anima kg stats --snapshot S \[--json\]\n\n/);
  });

  it('lists the commands when none or an unknown one is named, and is far shorter than --help', () => {
    const list = usageFor('bogus');
    expect(list).toBe(usageFor());
    expect(list).toMatch(/^Usage: anima <command> \[options\]\nCommands: kg, run, resume, cycle, /);
    expect(list).toContain('`anima --help` shows every command and option.');
    expect(list.length).toBeLessThan(USAGE.length / 5);
  });
});

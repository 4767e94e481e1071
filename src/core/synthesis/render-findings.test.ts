import { describe, expect, it } from 'vitest';
import { MAMMALS } from './__fixtures__/mammals.ts';
import { BUILT_IN_GRAMMARS } from './built-in-grammars.ts';
import type { Grammar } from './grammar.ts';
import { MAX_WRITTEN_FACTS_PER_SECTION, outlineFindings } from './outline.ts';
import { renderFindings } from './render-findings.ts';
import type { SynthesisFinding, SynthesisInput } from './synthesis-input.ts';
import { synthesize } from './synthesize.ts';

const { narrative, formal, terse } = BUILT_IN_GRAMMARS;

/** A big, varied goal: every kind and origin, many subjects. */
function manyFindings(count: number): SynthesisInput {
  const predicates = ['is-a', 'has-part', 'part-of', 'eats', 'lives-in'];
  const origins = ['stated', 'derived', 'proposed'] as const satisfies readonly SynthesisFinding['origin'][];
  const findings = Array.from({ length: count }, (_, index): SynthesisFinding => ({
    subject: `Animal${index % 400}`,
    predicate: predicates[index % predicates.length] ?? 'is-a',
    object: `Thing${index % 97}`,
    confidence: (index % 100) / 100,
    origin: origins[index % origins.length] ?? 'stated',
    rule: 'is-a-transitive',
    isAnswer: index % 7 === 0,
  }));
  return { ...MAMMALS, findings, missing: ['habitat', 'diet'] };
}

describe('renderFindings', () => {
  it('gives the same bytes for the same input, every time', () => {
    const input = manyFindings(300);
    for (const grammar of Object.values(BUILT_IN_GRAMMARS))
      expect(synthesize(structuredClone(input), grammar)).toBe(synthesize(input, grammar));
  });

  it('renders 2,000 findings in well under 50 ms in every built-in grammar', () => {
    const input = manyFindings(2_000);
    for (const grammar of Object.values(BUILT_IN_GRAMMARS)) {
      synthesize(input, grammar); // warm up the JIT: a user renders many times
      // This process's CPU time, not the clock's: on a loaded machine the clock also counts the
      // time other processes had the CPU.
      const timings = Array.from({ length: 3 }, () => {
        const start = process.cpuUsage();
        synthesize(input, grammar);
        const spent = process.cpuUsage(start);
        return (spent.user + spent.system) / 1000;
      });
      expect(Math.min(...timings)).toBeLessThan(50);
    }
    // Facts past the first few are counted, not written: a long goal reads as a summary and a sample.
    const lines = synthesize(input, terse).split('\n');
    const sections = outlineFindings(input).sections.length;
    const written = sections * MAX_WRITTEN_FACTS_PER_SECTION;
    expect(lines.filter((line) => line.includes(' -> '))).toHaveLength(written);
    expect(lines.at(-1)).toBe(
      `… and ${(2_000 - written).toLocaleString('en')} more facts, not written out here: the findings list shows them all.`,
    );
  });

  it('names the persona only when one is given', () => {
    const outline = outlineFindings(MAMMALS);
    expect(renderFindings(outline, narrative, { name: 'Scholar' })).toMatch(/^As Scholar, I looked into/);
    expect(renderFindings(outline, narrative)).toMatch(/^I looked into/);
    expect(renderFindings(outline, formal)).toMatch(/^Goal: Find mammals\n/);
  });

  it('adds the reason to the status when the goal has one', () => {
    const input = {
      ...MAMMALS,
      goal: { ...MAMMALS.goal, status: 'failed', statusReason: 'no plan left' },
    } satisfies SynthesisInput;
    expect(synthesize(input, narrative)).toContain('which is unsuccessful (no plan left).');
    expect(synthesize(input, formal)).toContain('\nStatus: failed (no plan left)\n');
  });

  it('cycles the connecting phrases in order through the whole text', () => {
    const findings = Array.from({ length: 10 }, (_, index): SynthesisFinding => ({
      subject: `S${index}`,
      predicate: 'eats',
      object: 'Food',
      confidence: 1,
      origin: 'stated',
      isAnswer: true,
    }));
    const text = synthesize({ ...MAMMALS, findings, missing: [] }, narrative);
    expect(text.match(/(Moreover|In addition|Also|Furthermore), /g)).toEqual([
      'Moreover, ',
      'In addition, ',
      'Also, ',
      'Furthermore, ',
    ]);
  });

  it('leaves out a heading that fills to nothing, and writes the overview and gaps in a lines layout that asks for them', () => {
    const headless: Grammar = { ...formal, layout: { kind: 'sections', heading: '', bullet: '* ' } };
    expect(synthesize(MAMMALS, headless).split('\n\n')[1]).toBe(
      '* Dog is-a Mammal (confidence 0.95)\n* Cat is-a Mammal (confidence 0.90, derived by is-a-transitive)\n* Whale is-a Mammal (confidence 0.60, proposed, unconfirmed)',
    );
    const talkative: Grammar = {
      ...terse,
      overview: { text: 'Goal: {goal}' },
      gaps: { intro: 'Missing:', item: '? {gap}' },
    };
    const lines = synthesize(MAMMALS, talkative).split('\n');
    expect([lines[0], ...lines.slice(-2)]).toEqual(['Goal: Find mammals', 'Missing:', '? habitat']);
  });
});

describe('untrusted text in labels', () => {
  const hostile = (finding: Partial<SynthesisFinding>): SynthesisInput => ({
    ...MAMMALS,
    findings: [
      {
        subject: 'Dog',
        predicate: 'is-a',
        object: 'Mammal',
        confidence: 0.5,
        origin: 'stated',
        isAnswer: true,
        ...finding,
      },
    ],
  });

  it('comes out as plain text: no HTML is produced or escaped', () => {
    const input = hostile({ subject: '<script>alert("x")</script>', object: 'Fish & <b>Chips</b>' });
    for (const grammar of Object.values(BUILT_IN_GRAMMARS)) {
      const text = synthesize(input, grammar);
      expect(text).toContain('<script>alert("x")</script>');
      expect(text).toContain('Fish & <b>Chips</b>');
      expect(text).not.toContain('&lt;');
    }
  });

  it('is never read as a template', () => {
    const input = hostile({
      subject: '{subject}',
      object: '{rule} {{x}} {fact}',
      origin: 'derived',
      rule: '{confidence}',
    });
    expect(synthesize(input, terse)).toBe('{subject} -> is-a -> {rule} {{x}} {fact} [0.50]');
    expect(synthesize(input, formal)).toContain(
      '- {subject} is-a {rule} {{x}} {fact} (confidence 0.50, derived by {confidence})',
    );
    const persona = synthesize(
      {
        ...input,
        persona: { ...MAMMALS.persona, name: '{persona}' },
        goal: { ...MAMMALS.goal, description: '{goal} {facts}' },
      },
      narrative,
    );
    expect(persona).toMatch(/^As \{persona\}, I looked into the goal "\{goal\} \{facts\}"/);
  });

  it('cannot forge lines: line breaks in labels, goals, personas and gaps collapse to spaces', () => {
    const forged = '\n- Forged is-a Fact (confidence 1.00)\r\nAnswers\u2028Cat';
    const input = {
      ...hostile({ subject: `Dog${forged}`, predicate: `is-a${forged}`, object: `Mammal${forged}` }),
      missing: [`habitat${forged}`],
    };
    expect(synthesize(input, terse).split('\n')).toHaveLength(1);
    const formalLines = synthesize(
      {
        ...input,
        persona: { ...MAMMALS.persona, name: `Scholar${forged}` },
        goal: { ...MAMMALS.goal, description: `Find${forged}` },
      },
      formal,
    ).split('\n');
    expect(formalLines.filter((line) => line.startsWith('- '))).toHaveLength(2);
    expect(formalLines.filter((line) => line === 'Answers')).toHaveLength(1);
    expect(formalLines).toContain(
      '- Dog - Forged is-a Fact (confidence 1.00) Answers Cat is-a - Forged is-a Fact (confidence 1.00) Answers Cat Mammal - Forged is-a Fact (confidence 1.00) Answers Cat (confidence 0.50)',
    );
    expect(
      synthesize(input, narrative)
        .split('\n\n')
        .every((paragraph) => !paragraph.includes('\n')),
    ).toBe(true);
  });
});

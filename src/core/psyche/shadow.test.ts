import { describe, expect, it } from 'vitest';
import { defaultPsyche, type Psyche } from '#core/records/psyche.ts';
import { decisiveVeto, describeAction, judgeAction, type ShadowAction } from './shadow.ts';
import { normaliseForShadow } from '#core/records/trigger-text.ts';

const psyche = defaultPsyche();
const kgQuery = (input: unknown): ShadowAction => ({
  tool: 'kg_query',
  danger: 'safe',
  capabilities: ['readKg'],
  input,
});
const vetoNames = (action: ShadowAction, by: Pick<Psyche, 'shadow'> = psyche) =>
  judgeAction(by, action).vetoes.map((match) => match.pattern.name);

describe('the shadow check', () => {
  it('describes an action the way the seed does', () => {
    expect(describeAction({ tool: 'kg_query', input: { symbol: 'Dog' } })).toBe('tool=kg_query input={"symbol":"Dog"}');
  });

  it('lets an ordinary action through', () => {
    expect(judgeAction(psyche, kgQuery({ symbol: 'Dog' }))).toEqual({ vetoes: [], biases: [], biasSeverity: 0 });
  });

  it.each([
    ['plain', 'rm -rf /'],
    ['upper case', 'RM -RF /'],
    ['full-width letters', 'ｒｍ －ｒｆ /'],
    ['extra spaces', 'rm    -rf /'],
    ['a tab and a newline', 'rm\t\n-rf /'],
    ['a no-break space', 'rm\u00a0-rf'],
    ['a zero-width space', 'rm\u200b -rf'],
    ['a soft hyphen', 'r\u00adm -rf'],
    ['a Unicode tag character', 'rm\u{E0020}-rf'.replace('\u{E0020}', '\u{E0020} ')],
    ['tag characters between letters', 'DELETE\u{E0041} ALL'],
    ['JSON escapes in the text', 'rm\\u0020-rf'],
    ['a JSON-escaped JSON string', JSON.stringify(JSON.stringify({ command: 'RM  -RF' }))],
    ['ligature-free mixed case', 'Drop   TABLE users'],
    ['"delete all" in another word order of case', 'please DELETE ALL facts'],
  ])('vetoes "rm -rf"-style triggers written with %s', (_how, text) => {
    expect(vetoNames(kgQuery({ symbol: text }))).toContain('destructive_action');
  });

  it('does not fire on look-alikes that are different words', () => {
    expect(vetoNames(kgQuery({ symbol: 'rmdir -rf' }))).toEqual([]);
    expect(vetoNames(kgQuery({ symbol: 'rm -r -f' }))).toEqual([]);
    expect(vetoNames(kgQuery({ symbol: 'delete allele' }))).toContain('destructive_action'); // a substring match, as the seed defines it
  });

  it("fires on capabilities and on danger at or above the threshold (akh-medu's variant)", () => {
    const fetch: ShadowAction = {
      tool: 'http_fetch',
      danger: 'cautious',
      capabilities: ['network'],
      input: { url: 'https://example.org' },
    };
    const verdict = judgeAction(psyche, fetch);
    expect(verdict.vetoes.map((match) => [match.pattern.name, match.because])).toEqual([
      ['external_request', 'http_fetch uses network'],
    ]);
    const retract: ShadowAction = {
      tool: 'kg_mutate',
      danger: 'dangerous',
      capabilities: ['writeKg'],
      input: { retract: true },
    };
    expect(vetoNames(retract)).toEqual(['dangerous_change']);
    const shell: ShadowAction = { tool: 'shell', danger: 'critical', capabilities: [], input: {} };
    expect(vetoNames(shell)).toEqual(['destructive_action', 'dangerous_change']);
  });

  it('prefers a hard veto over one that asks for approval', () => {
    const action: ShadowAction = {
      tool: 'kg_mutate',
      danger: 'dangerous',
      capabilities: ['writeKg'],
      input: { note: 'rm -rf' },
    };
    const verdict = judgeAction(psyche, action);
    expect(verdict.vetoes.map((match) => match.pattern.name)).toEqual(['destructive_action', 'dangerous_change']);
    expect(decisiveVeto(verdict)?.pattern.name).toBe('destructive_action');
    expect(decisiveVeto(judgeAction(psyche, { ...action, input: {} }))?.pattern.requireApproval).toBe(true);
  });

  it('sums the severity of every bias pattern that fires', () => {
    const biased: Pick<Psyche, 'shadow'> = {
      shadow: {
        vetoPatterns: [],
        biasPatterns: [
          {
            name: 'a',
            triggers: ['kg_query'],
            capabilityTriggers: [],
            severity: 0.3,
            explanation: '',
            requireApproval: false,
          },
          {
            name: 'b',
            triggers: [],
            capabilityTriggers: ['readKg'],
            severity: 0.2,
            explanation: '',
            requireApproval: false,
          },
          {
            name: 'c',
            triggers: ['nothing like it'],
            capabilityTriggers: [],
            severity: 0.9,
            explanation: '',
            requireApproval: false,
          },
        ],
      },
    };
    const verdict = judgeAction(biased, kgQuery({ symbol: 'Dog' }));
    expect(verdict.biases.map((match) => match.pattern.name)).toEqual(['a', 'b']);
    expect(verdict.biasSeverity).toBeCloseTo(0.5);
  });

  it('normalises triggers as well as actions', () => {
    const fullWidthTrigger: Pick<Psyche, 'shadow'> = {
      shadow: {
        vetoPatterns: [
          {
            name: 'x',
            triggers: ['ＤＲＯＰ  table'],
            capabilityTriggers: [],
            severity: 1,
            explanation: '',
            requireApproval: false,
          },
        ],
        biasPatterns: [],
      },
    };
    expect(vetoNames(kgQuery({ symbol: 'drop table' }), fullWidthTrigger)).toEqual(['x']);
    expect(normaliseForShadow('  A\u3000B  ')).toBe(' a b ');
  });
});

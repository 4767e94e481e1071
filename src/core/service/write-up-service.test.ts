import { describe, expect, it } from 'vitest';
import { testService } from '#core/testing/test-database.ts';

async function mammalsFound() {
  const { db, service } = testService();
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.kgImport({
    sessionId,
    operationId: 'op',
    fileName: 'zoo.csv',
    data: 'Dog,is-a,Canine\nCanine,is-a,Mammal\nCat,is-a,Mammal,0.9\nDog,has-part,Tail\n',
  });
  await service.goalAdd({ sessionId, description: 'Find mammals', criteria: '?x is-a mammal, at least 3' });
  await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 });
  return { db, service, sessionId };
}

describe('the write-up of a goal', () => {
  it('renders the same findings in three clearly different styles, answers first, derived facts marked', async () => {
    const { service, sessionId } = await mammalsFound();
    const write = async (grammar: string) => {
      const written = await service.synthesize({ sessionId, goalId: 1, grammar });
      if (!written.ok) throw new Error(written.problems[0]!.message);
      return written;
    };
    const terse = await write('terse');
    expect(terse.text).toBe(
      'Canine -> is-a -> Mammal [1.00]\nCat -> is-a -> Mammal [0.90]\nDog -> is-a -> Mammal [0.95]',
    );
    const formal = await write('formal');
    expect(formal.text).toContain(
      'Answers\n- Canine is-a Mammal (confidence 1.00)\n- Cat is-a Mammal (confidence 0.90)\n- Dog is-a Mammal (confidence 0.95, derived by is-a-transitive)',
    );
    const narrative = await write('narrative');
    expect(narrative.text).not.toMatch(/^- |->/m);
    expect(narrative.text).toContain('Dog is a Mammal (inferred by the rule is-a-transitive)');
    expect(new Set([terse.text, formal.text, narrative.text]).size).toBe(3);
    expect(terse.grammars).toEqual(['narrative', 'formal', 'terse']);
  });

  it("uses the persona's grammar by default, and names an unknown grammar", async () => {
    const { service, sessionId } = await mammalsFound();
    await service.psycheImport({
      sessionId,
      toml: '[persona]\nname = "Clerk"\ngrammar_preference = "terse"\ntraits = []\ntone = []\n',
    });
    expect(await service.synthesize({ sessionId, goalId: 1 })).toMatchObject({
      ok: true,
      grammar: 'terse',
      text: expect.stringContaining(' -> is-a -> '),
    });
    expect(await service.synthesize({ sessionId, goalId: 1, grammar: 'sonnet' })).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringContaining('no grammar is named "sonnet"') }],
    });
    expect(await service.synthesize({ sessionId, goalId: 7 })).toMatchObject({
      ok: false,
      problems: [{ message: 'there is no goal 7' }],
    });
  });
});

import { describe, expect, it } from 'vitest';
import { withContractChecks } from './api.ts';
import { createAgentService } from '#core/service/service.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { refusalProblem } from '#core/testing/fuzz.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';

describe('the contract checks, as a user reads their refusals', () => {
  it('refuses an argument over its limit saying the limit and its size, and changes nothing', async () => {
    const { service } = testService();
    const { session } = await service.open({});
    const before = await service.psycheGet({ sessionId: session.id });
    const toml = `[persona]\nname = "${'x'.repeat(10 * 2 ** 20)}"\n`;
    const refused = service.psycheImport({ sessionId: session.id, toml });
    await expect(refused).rejects.toThrow(
      'psycheImport arguments: toml has 10,485,780 characters, more than the 1,000,000 taken',
    );
    await expect(service.kgQuery({ sessionId: session.id, query: 'q'.repeat(6_000) })).rejects.toThrow(
      'kgQuery arguments: query has 6,000 characters, more than the 5,000 taken',
    );
    expect(await service.psycheGet({ sessionId: session.id })).toEqual(before);
  });

  it('turns a defect thrown inside the service into one sentence, keeping the original as its cause', async () => {
    const implementation = createAgentService({
      db: new AnimaDatabase('anima-test', freshIndexedDb()),
      now: () => 0,
      newId: () => 'session-1',
    });
    const overflow = new RangeError('Maximum call stack size exceeded');
    const service = withContractChecks({ ...implementation, kgStats: async () => Promise.reject(overflow) });
    const error: Error = await service.kgStats({ sessionId: 'session-1' }).then(
      () => new Error('no error'),
      (thrown: Error) => thrown,
    );
    expect(error.message).toBe(
      'kgStats: Anima stopped on an internal error, a defect to report (RangeError: Maximum call stack size exceeded)',
    );
    expect(refusalProblem(error.message)).toBeUndefined();
    expect(error.cause).toBe(overflow);
  });
});

import { describe, expect, it } from 'vitest';
import { testService } from '#core/testing/test-database.ts';

const TEN_MB = 'n'.repeat(10 * 2 ** 20);

describe('names and goal text are capped where they are written, with a sentence', () => {
  it('refuses a 10 MB session name, and a goal longer than 1,000 characters, changing nothing', async () => {
    const { service } = testService();
    const { session } = await service.open({});
    await expect(service.sessionCreate({ name: TEN_MB })).rejects.toThrow(
      'sessionCreate arguments: name has 10,485,760 characters, more than the 120 taken',
    );
    await expect(service.sessionRename({ sessionId: session.id, name: 'tab\there' })).rejects.toThrow(
      'a session name is one line without control characters',
    );
    await expect(service.goalAdd({ sessionId: session.id, description: 'd'.repeat(1_001) })).rejects.toThrow(
      'goalAdd arguments: description has 1,001 characters, more than the 1,000 taken',
    );
    await expect(service.planPreview({ sessionId: session.id, description: 'd'.repeat(1_001) })).rejects.toThrow(
      'planPreview arguments: description has 1,001 characters, more than the 1,000 taken',
    );
    const { sessions } = await service.sessionList({});
    expect(sessions.map((listed) => listed.name)).toEqual([session.name]);
    expect((await service.goalList({ sessionId: session.id })).goals).toEqual([]);
  });

  it('caps every catalog name at 120 characters, said at the name', async () => {
    const { service } = testService();
    expect(await service.personaCreate({ fields: { name: 'p'.repeat(121) } })).toMatchObject({
      ok: false,
      problems: [{ path: 'name', message: 'a name has at most 120 characters' }],
    });
    expect(await service.partCreate({ fields: { name: TEN_MB, type: 'tone', summary: 'x' } })).toMatchObject({
      ok: false,
      problems: [{ path: 'name', message: 'a name has at most 120 characters' }],
    });
    expect((await service.personaList({})).personas).toEqual([]);
  });
});

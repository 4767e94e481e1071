import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testService } from '#core/testing/test-database.ts';
import { runCycles } from '#core/testing/run-cycles.ts';
import { artifactsOfSession, readArtifact } from '#core/store/artifact-store.ts';
import type { ArtifactDraft } from '#core/records/artifact.ts';
import { defineTool } from '#core/tools/tool.ts';

const PNG = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9);

/** A tool of a (pretend) MCP server that draws a chart: a line for the model, the picture for the user. */
const chartTool = (artifact: ArtifactDraft) =>
  defineTool({
    name: 'chart',
    description: 'draws a chart',
    archetype: undefined,
    danger: 'safe',
    capabilities: [],
    input: z.object({}),
    unavailableBecause: () => undefined,
    baseScore: () => 1,
    proposeInput: () => ({}),
    run: () => ({
      ok: true,
      summary: 'drew a chart',
      value: 'a bar chart of 3 bars',
      facts: [],
      symbols: [],
      artifacts: [artifact],
      artifactOrigin: { server: 'everything', inputDigest: 'sha256:abc' },
    }),
  });

async function sessionWithGoal() {
  const { db, service } = testService();
  const { session } = await service.open({});
  await service.goalAdd({ sessionId: session.id, description: 'Chart the zoo', criteria: 'zebra' });
  return { db, sessionId: session.id };
}

describe('a cycle whose tool gives artifacts', () => {
  it('keeps them with the tool, goal, cycle, server and input digest, in the cycle commit', async () => {
    const { db, sessionId } = await sessionWithGoal();
    const [record] = await runCycles(db, sessionId, 1, [
      chartTool({ name: 'chart.png', kind: 'image', mediaType: 'image/png', bytes: PNG }),
    ]);
    expect(record).toMatchObject({ tool: 'chart', cycle: 1 });
    const [artifact] = await artifactsOfSession(db, sessionId);
    expect(artifact).toMatchObject({
      name: 'chart.png',
      tool: 'chart',
      goalId: record!.goalId,
      cycle: 1,
      server: 'everything',
      inputDigest: 'sha256:abc',
      size: PNG.byteLength,
    });
    expect((await readArtifact(db, sessionId, artifact!.id!))?.bytes).toEqual(PNG);
  });

  it('keeps none when one cannot be kept, and the action fails with the reason', async () => {
    const { db, sessionId } = await sessionWithGoal();
    const [record] = await runCycles(db, sessionId, 1, [
      chartTool({ name: 'chart.svg', kind: 'image', mediaType: 'text/html', bytes: PNG }),
    ]);
    expect(record).toMatchObject({ tool: 'chart', outcome: 'failed' });
    expect(record!.act).toContain(
      'chart gave an artifact Anima cannot keep (artifacts.0.bytes: an image needs an image/ media type, not text/html)',
    );
    expect(await artifactsOfSession(db, sessionId)).toEqual([]);
  });
});

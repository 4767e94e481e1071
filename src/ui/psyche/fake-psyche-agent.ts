import type { AgentApi, Psyche, PsycheHistoryEntry, PsycheVersionView } from '#core/api.ts';
import type { PsycheHost } from './psyche-view.svelte.ts';

/** The default psyche, as the agent ships it (trimmed to one veto pattern). */
export function scholar(): Psyche {
  return {
    persona: { name: 'Scholar', grammarPreference: 'narrative', traits: ['precise'], tone: ['clear'] },
    shadow: {
      vetoPatterns: [
        {
          name: 'destructive_action',
          triggers: ['rm -rf'],
          capabilityTriggers: ['processExec'],
          severity: 1,
          explanation: 'Never.',
          requireApproval: false,
        },
      ],
      biasPatterns: [],
    },
    archetypes: { sage: 0.7, healer: 0.5, explorer: 0.5, guardian: 0.4 },
    selfIntegration: {
      individuationLevel: 0.1,
      lastEvolutionCycle: 0,
      shadowEncounters: 0,
      encountersAtLastEvolution: 0,
      rebalanceCount: 0,
      dominantArchetype: 'sage',
    },
    extras: {},
  };
}

/**
 * A fake agent keeping psyche versions like the service: each change adds a version. Its
 * "TOML" is tiny: `explorer = <number>` changes the explorer weight; anything else on a line is
 * a problem at that line. It records the calls it gets.
 */
export function fakePsycheAgent(options: { canWrite?: boolean } = {}) {
  const calls: string[] = [];
  const versions: PsycheVersionView[] = [{ version: 1, psyche: scholar(), cycle: 0, reason: 'default', createdAt: 0 }];
  const current = () => versions.at(-1)!;
  const read = (toml: string) => {
    const psyche = structuredClone(current().psyche);
    const problems: { line: number; message: string }[] = [];
    toml.split('\n').forEach((line, index) => {
      const match = /^explorer = (\d(?:\.\d+)?)$/.exec(line.trim());
      if (match) psyche.archetypes.explorer = Number(match[1]);
      else if (line.trim() !== '') problems.push({ line: index + 1, message: `cannot read "${line.trim()}"` });
    });
    return problems.length > 0
      ? { ok: false as const, problems, warnings: [] }
      : { ok: true as const, psyche, warnings: [] };
  };
  const add = (psyche: Psyche, reason: string) => {
    const added = { version: current().version + 1, psyche, cycle: 0, reason, createdAt: versions.length };
    versions.push(added);
    return { ok: true as const, current: added, warnings: [] };
  };
  const entryOf = ({ version, cycle, reason, createdAt, psyche }: PsycheVersionView): PsycheHistoryEntry => ({
    version,
    cycle,
    reason,
    createdAt,
    archetypes: psyche.archetypes,
    individuationLevel: psyche.selfIntegration.individuationLevel,
    shadowEncounters: psyche.selfIntegration.shadowEncounters,
    dominantArchetype: psyche.selfIntegration.dominantArchetype,
  });
  const client = {
    psycheGet: async () => {
      calls.push('psycheGet');
      return current();
    },
    psycheHistory: async () => {
      calls.push('psycheHistory');
      return { versions: versions.map(entryOf) };
    },
    psycheCheck: async ({ toml }: { toml: string }) => {
      calls.push(`psycheCheck ${toml}`);
      return read(toml);
    },
    psycheImport: async ({ toml, fileName }: { toml: string; fileName?: string }) => {
      calls.push(`psycheImport ${fileName ?? ''}`.trim());
      const checked = read(toml);
      return checked.ok
        ? add(checked.psyche, `imported ${fileName ?? 'text'}`)
        : { ...checked, reason: 'invalid' as const };
    },
    psycheSave: async ({ psyche }: { psyche: unknown }) => {
      calls.push('psycheSave');
      return add(psyche as Psyche, 'saved');
    },
    psycheRestore: async ({ version }: { version: number }) => {
      calls.push(`psycheRestore ${version}`);
      const restored = versions.find((known) => known.version === version);
      return restored
        ? add(structuredClone(restored.psyche), `restored version ${version}`)
        : { ok: false as const, reason: 'not-found' as const, problems: [], warnings: [] };
    },
    psycheExport: async () => ({
      fileName: 'psyche.toml',
      mediaType: 'application/toml',
      text: `explorer = ${current().psyche.archetypes.explorer}`,
    }),
  } satisfies Partial<AgentApi>;
  const host: PsycheHost = {
    client: client as unknown as AgentApi,
    sessionId: 's',
    canWrite: options.canWrite ?? true,
  };
  return { host, calls, versions };
}

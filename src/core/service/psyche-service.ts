import type { AgentServiceImplementation, PsycheHistoryEntry, PsycheVersionView } from '#core/api.ts';
import type { Problem } from '#core/result.ts';
import { problemsFromZod } from '#core/result.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import { addPsycheVersion, currentPsyche, psycheHistory } from '#core/psyche/psyche-store.ts';
import { parseGrammar } from '#core/synthesis/parse-grammar.ts';
import { dominantArchetype, type Psyche, psycheSchema } from '#core/records/psyche.ts';
import { parsePsycheToml } from '#core/psyche/psyche-toml-read.ts';
import { psycheToToml } from '#core/psyche/psyche-toml-write.ts';
import type { PsycheVersion } from '#core/records/psyche-version.ts';
import { shadowPolicyProblems } from '#core/psyche/shadow.ts';

type PsycheMethods =
  'psycheGet' | 'psycheHistory' | 'psycheCheck' | 'psycheImport' | 'psycheSave' | 'psycheRestore' | 'psycheExport';

const viewOf = ({ version, psyche, cycle, reason, createdAt }: PsycheVersion): PsycheVersionView => ({
  version,
  psyche,
  cycle,
  reason,
  createdAt,
});

/** A custom grammar is checked where the psyche is: a psyche never holds a grammar synthesis cannot use. */
function grammarProblems(psyche: Psyche): Problem[] {
  if (!psyche.grammar) return [];
  const parsed = parseGrammar(psyche.grammar.source);
  return parsed.ok
    ? []
    : parsed.error.map((problem) => ({ ...problem, path: `grammar.source${problem.path ? `.${problem.path}` : ''}` }));
}

/** What keeps a whole psyche from being made current: patterns that cannot fire, a grammar synthesis cannot use. */
function psycheProblems(psyche: Psyche): Problem[] {
  return [...shadowPolicyProblems(psyche.shadow), ...grammarProblems(psyche)];
}

/** The psyche's slice of the AgentService: the current psyche, its history, import, edit, restore, export. */
export function psycheService(context: ServiceContext): Pick<AgentServiceImplementation, PsycheMethods> {
  const { db, now, exclusively, canWrite, sessionOf } = context;

  /**
   * Stores a new current psyche made from the current one, with a provenance record saying why.
   * The current psyche is read inside the write queue and the transaction, so a cycle's counted
   * encounter or evolution is never overwritten by a change computed from an older version.
   */
  const change = (
    sessionId: string,
    make: (
      current: PsycheVersion,
    ) => { psyche: Psyche; reason: string } | { problems: Problem[]; reason: 'invalid' | 'not-found' },
  ) =>
    exclusively(async () => {
      const session = await sessionOf(sessionId);
      return db.transaction('rw', [db.psyches, db.provenance], async () => {
        const made = make(await currentPsyche(db, sessionId));
        if ('problems' in made) return made;
        const version = await addPsycheVersion(db, {
          sessionId,
          psyche: made.psyche,
          cycle: session.cycle,
          reason: made.reason,
          now: now(),
        });
        await db.provenance.add({
          sessionId,
          kind: 'psyche-change',
          sources: [`psyche:${version.version}`],
          confidence: 1,
          cycle: session.cycle,
          detail: `version ${version.version}: ${made.reason}`,
          createdAt: now(),
        });
        return viewOf(version);
      });
    });

  /** The outcome of a change, as the contract says it. */
  const outcomeOf = (
    changed: PsycheVersionView | { problems: Problem[]; reason: 'invalid' | 'not-found' },
    warnings: Problem[] = [],
  ) =>
    'problems' in changed
      ? { ok: false as const, reason: changed.reason, problems: changed.problems, warnings }
      : { ok: true as const, current: changed, warnings };

  const readOnly = {
    ok: false as const,
    reason: 'read-only' as const,
    problems: [{ message: READ_ONLY_MESSAGE }],
    warnings: [],
  };

  /** Reads a psyche.toml over a psyche, with its custom grammar checked. */
  const readOver = (base: Psyche, toml: string) => {
    const read = parsePsycheToml(toml, base);
    if (!read.ok) return read;
    const problems = grammarProblems(read.psyche);
    return problems.length > 0 ? { ok: false as const, problems, warnings: read.warnings } : read;
  };

  return {
    async psycheGet({ sessionId }) {
      await sessionOf(sessionId);
      return viewOf(await currentPsyche(db, sessionId));
    },

    async psycheHistory({ sessionId }) {
      await sessionOf(sessionId);
      const stored = await psycheHistory(db, sessionId);
      const versions = stored.length > 0 ? stored : [await currentPsyche(db, sessionId)];
      return {
        versions: versions.map(({ version, cycle, reason, createdAt, psyche }): PsycheHistoryEntry => ({
          version,
          cycle,
          reason,
          createdAt,
          archetypes: psyche.archetypes,
          individuationLevel: psyche.selfIntegration.individuationLevel,
          shadowEncounters: psyche.selfIntegration.shadowEncounters,
          dominantArchetype: psyche.selfIntegration.dominantArchetype,
        })),
      };
    },

    async psycheCheck({ sessionId, toml }) {
      await sessionOf(sessionId);
      return readOver((await currentPsyche(db, sessionId)).psyche, toml);
    },

    async psycheImport({ sessionId, toml, fileName }) {
      if (!canWrite()) return readOnly;
      await sessionOf(sessionId);
      let warnings: Problem[] = [];
      const changed = await change(sessionId, (current) => {
        const read = readOver(current.psyche, toml);
        warnings = read.warnings;
        return read.ok
          ? { psyche: read.psyche, reason: `imported ${fileName ?? 'psyche.toml'}` }
          : { problems: read.problems, reason: 'invalid' };
      });
      return outcomeOf(changed, warnings);
    },

    async psycheSave({ sessionId, psyche: edited }) {
      if (!canWrite()) return readOnly;
      await sessionOf(sessionId);
      const parsed = psycheSchema.safeParse(edited);
      if (!parsed.success)
        return { ok: false, reason: 'invalid', problems: problemsFromZod(parsed.error), warnings: [] };
      const problems = psycheProblems(parsed.data);
      if (problems.length > 0) return { ok: false, reason: 'invalid', problems, warnings: [] };
      // The form edits character, not history: the counters stay the current ones.
      const form = parsed.data;
      return outcomeOf(
        await change(sessionId, (current) => ({
          psyche: {
            ...form,
            selfIntegration: {
              ...current.psyche.selfIntegration,
              dominantArchetype: dominantArchetype(form.archetypes),
            },
          },
          reason: 'edited',
        })),
      );
    },

    async psycheRestore({ sessionId, version }) {
      if (!canWrite()) return readOnly;
      await sessionOf(sessionId);
      const stored = await db.psyches.where('[sessionId+version]').equals([sessionId, version]).first();
      if (!stored)
        return {
          ok: false,
          reason: 'not-found',
          problems: [{ message: `there is no psyche version ${version}` }],
          warnings: [],
        };
      // A version stored before patterns had to be able to fire is not made current again as it was.
      const problems = psycheProblems(stored.psyche);
      if (problems.length > 0) return { ok: false, reason: 'invalid', problems, warnings: [] };
      // Restoring brings back character (persona, shadow, weights, grammar); encounters and growth already happened.
      return outcomeOf(
        await change(sessionId, (current) => ({
          psyche: {
            ...stored.psyche,
            selfIntegration: {
              ...current.psyche.selfIntegration,
              dominantArchetype: dominantArchetype(stored.psyche.archetypes),
            },
          },
          reason: `restored version ${version}`,
        })),
      );
    },

    async psycheExport({ sessionId }) {
      await sessionOf(sessionId);
      const { psyche } = await currentPsyche(db, sessionId);
      const name = psyche.persona.name
        .normalize('NFKC')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, '-')
        .replace(/^-|-$/g, '');
      return { fileName: `${name || 'anima'}.psyche.toml`, mediaType: 'application/toml', text: psycheToToml(psyche) };
    },
  };
}

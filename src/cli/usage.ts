import { QUESTION_USAGE } from './commands/ask.ts';
import { ARC_USAGE } from './commands/arc.ts';
import { PERSONA_USAGE } from './commands/persona-arguments.ts';
import { SNAPSHOT_USAGE } from './commands/snapshot.ts';
import { ENDPOINT_USAGE } from './commands/endpoints.ts';
import { TOOLS_USAGE } from './commands/tools.ts';

/** `anima --help`, and what every usage error ends with. */
export const USAGE = `Usage: anima <command> [options]

Knowledge graph (the session lives in a snapshot file, created by the first import):
  anima kg import FILE --snapshot S [--format n-triples|turtle|csv] [--link-same-labels] [--dry-run]
                 --dry-run: what it would add and share with the graph; writes nothing
  anima kg stats --snapshot S [--json]
  anima kg query "?x is-a mammal" --snapshot S [--json] [--limit N]
  anima kg export --snapshot S [--output FILE]
  anima kg infer --snapshot S [--min-confidence X] [--max-iterations N] [--json]
  anima kg path FROM TO --snapshot S [--json]
  anima kg similar SYMBOL --snapshot S [--limit K] [--json]
  anima kg prefixes --snapshot S [--json]      the prefixes queries read (rdfs:label, ex:Dog): the usual
                 ones and those the session's Turtle files declared

The agent (goals and cycles live in the same snapshot):
  anima run --goal TEXT [--goal TEXT]... [--goals FILE] [--criteria C] [--choose W=S]... [--priority P] [--kg FILE] [--max-cycles N]
            [--fresh] --snapshot S [--json | --verbose]
                 --verbose: after each cycle, why its tool was chosen and every tool's score, in words and
                 exactly (--json has the same numbers);
                 --goals FILE: one goal a line (# comments); --criteria only with one goal;
                 --choose WORDS=SYMBOL (one goal): the symbol an ambiguous word of its question means;
                 --fresh: a new session in place of the one the snapshot holds (with --kg, its graph)
  anima resume --snapshot S [--max-cycles N] [--json | --verbose]
  anima cycle --snapshot S [--json | --verbose]
  anima goals --snapshot S [--json]
  anima status --snapshot S [--json]            cycle, working memory, episodes, goals by status, psyche
  anima consolidate --snapshot S
  anima recall --query TEXT --snapshot S [--limit K] [--json]
  anima write-up GOAL_ID --snapshot S [--grammar narrative|formal|terse|NAME]
  anima plan --goal TEXT [--criteria C] [--attempt N] --snapshot S [--json]   the plan it would make
  anima plan GOAL_ID --snapshot S [--json]       the plans a goal has had: the current one last
  anima reflect --snapshot S [--json]            reflect now: adjust goals, then evolve the psyche
  anima reflections --snapshot S [--limit N] [--json]
  anima settings --snapshot S [--planning on|off] [--reflection-interval N] [--max-failed-plans N]
                 [--memory-capacity N] [--consolidation-threshold X] [--allow-web PREFIX]... [--offline]
                 [--temperature X] [--top-p X] [--answer-tokens N] [--seed N] [--embedder P:MODEL|none] [--json]
                 --embedder openai-compatible:MODEL (the run's --base-url and --api-key) or
                 gguf:MODEL: recall and similarity rank by its embeddings (kept in the snapshot);
                 WebLLM's embedding models need WebGPU: the app's Settings screen binds them
                 --temperature (0 to 2), --top-p (above 0, at most 1), --answer-tokens (the longest
                 answer, a whole number) and --seed (a whole number): how the session's model
                 samples, kept in the snapshot; 'default' leaves one to the engine
                 --memory-capacity: working memory's entries (10 to 10000, default 100);
                 --consolidation-threshold: above this share full (0.5 to 0.95, default 0.8) the
                 agent may consolidate memory into episodes; halfway from there to full it does
                 --allow-web: http_fetch may read addresses under PREFIX (a device setting, kept in
                 $ANIMA_HOME/device.json, ~/.anima by default, for every snapshot); --offline: none
  anima notes [GOAL_ID] --snapshot S             the notes the agent wrote (goals that ask for notes)
  anima artifacts list [GOAL_ID] --snapshot S [--json]   what tools gave you: notes, images, files
  anima artifacts save ID FILE --snapshot S      writes an artifact's bytes to FILE
  anima questions --snapshot S [--json]          what the agent asked (its goal waits for the answer)
  anima answer QUESTION_ID [--facts "S, P, O[, C]" ...] [--note TEXT] --snapshot S
  anima approvals --snapshot S [--json]          actions the shadow held for you (its goal waits)
  anima approve APPROVAL_ID [--input JSON] [--reason TEXT] --snapshot S   run it (or the edited input)
  anima deny APPROVAL_ID [--reason TEXT] --snapshot S                    the goal goes on without it
  anima jobs --snapshot S [--json]               background work tools deferred (its goal waits)
  anima doc import FILE --snapshot S             a text document (.txt, .md, up to 2 MB) for the agent
  anima doc list --snapshot S [--json]           to read (text_ingest) and take notes from (file_io)

  run, resume and cycle take --provider openai --base-url URL --model M [--api-key KEY]
  [--vision] [--max-requests N] [--max-tokens N]: the language model of this run (the reason and
  synthesize_triple tools ask it; the facts it adds are capped at confidence 0.7); --vision
  marks it as seeing images, so tools' image artifacts are shown to it.
  run and resume take --psyche FILE: the psyche.toml the agent wears from then on. They plan,
  reflect (every N cycles, see settings) and evolve the psyche exactly as the app does.
  --json prints one JSON object per cycle, then {"goals":[...]} with each goal's findings.

The psyche (kept in the snapshot, version by version):
  anima psyche check FILE                       validate only: problems and warnings, exit 0 or 1
  anima psyche import FILE --snapshot S         wear it from now on (a new version)
  anima psyche export --snapshot S [--output FILE]

${QUESTION_USAGE}
${PERSONA_USAGE}
${ARC_USAGE}
${SNAPSHOT_USAGE}
${ENDPOINT_USAGE}
${TOOLS_USAGE}
Language models:
  anima llm check --provider openai --base-url URL --model M [--api-key KEY] [--json]
                 one structured call through the agent's contract: the typed value, or the
                 bottleneck and its kind; the attempts and the tokens used. Exit 0 or 1.

Options:
  --snapshot S   the session snapshot file (JSON; gzipped when its name ends in .gz)
  --catalog C    the persona catalog file (JSON); any command with --snapshot takes it, so the
                 session wears the persona \`anima persona wear\` gave it
  --help         show this help
`;

const COMMAND_LINE = /^ {2}anima ([a-z-]+)/;

/**
 * What a usage error ends with: the usage lines of the command named, or, when none is named or
 * known, the list of commands. The whole text (over 10 KB) is `anima --help`, not an error's tail.
 */
export function usageFor(name?: string): string {
  const lines = USAGE.split('\n');
  const own: string[] = [];
  if (name !== undefined) {
    let within = false;
    for (const line of lines) {
      if (line.startsWith(`  anima ${name} `) || line === `  anima ${name}`) within = true;
      else if (!line.startsWith('   ')) within = false;
      if (within) own.push(line);
    }
  }
  if (own.length > 0) return `Usage:\n${own.join('\n')}\n\n${MORE}`;
  const commands = [...new Set(lines.flatMap((line) => COMMAND_LINE.exec(line)?.[1] ?? []))];
  return `Usage: anima <command> [options]\nCommands: ${commands.join(', ')}\n\n${MORE}`;
}
const MORE = '`anima --help` shows every command and option.\n';

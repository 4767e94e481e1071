import type { ImportShared } from '#core/api.ts';
import type { SessionContext } from '../session.ts';

/** The reader's language as the CLI's environment says it (LANG=fr_FR.UTF-8 gives fr-FR), for the names an import prefers. */
export function readerLanguage(environment: NodeJS.ProcessEnv = process.env): string | undefined {
  const tag = (environment.LC_ALL || environment.LC_MESSAGES || environment.LANG || '')
    .split('.')[0]!
    .replace('_', '-');
  return /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/u.test(tag) && tag !== 'C' ? tag : undefined;
}

/** What an import shares with the graph, in lines for stderr: the relations it joins, the names it shares, and what was linked. */
export function describeShared(
  shared: ImportShared | undefined,
  { isPreview = false }: { isPreview?: boolean } = {},
): string {
  if (!shared) return '';
  const lines: string[] = [];
  const { relations, sameNames } = shared;
  if (relations.count > 0)
    lines.push(
      `anima: ${relations.count} of its relations ${isPreview ? 'would join' : 'join'} known ones: ${relations.examples.map((example) => `${example.relation} → ${example.joins}`).join(', ')}${relations.count > relations.examples.length ? ', ...' : ''}`,
    );
  if (sameNames.count > 0) {
    const examples = sameNames.examples.map((example) => `${example.symbol} ~ ${example.existing}`).join(', ');
    lines.push(
      sameNames.linked > 0
        ? `anima: ${isPreview ? 'would link' : 'linked'} ${sameNames.linked} things to those of the same name in the graph (owl:sameAs): ${examples}${sameNames.count > sameNames.examples.length ? ', ...' : ''}`
        : `anima: ${sameNames.count} of its things are named as things the graph has (${examples}${sameNames.count > sameNames.examples.length ? ', ...' : ''}); --link-same-labels links them as the same`,
    );
  }
  return lines.map((line) => `${line}\n`).join('');
}

/** Runs `anima kg prefixes`. */
export async function prefixes({ values, service, sessionId, output }: SessionContext): Promise<number> {
  const { prefixes } = await service.kgPrefixes({ sessionId });
  if (values.json) output.out(`${JSON.stringify(prefixes)}\n`);
  else
    for (const { prefix, namespace, isDeclared } of prefixes)
      output.out(`${prefix}:\t${namespace}${isDeclared ? '\t(declared)' : ''}\n`);
  return 0;
}

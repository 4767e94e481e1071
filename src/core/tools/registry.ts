import { gapAnalysis } from './gap-analysis.ts';
import { inferRules } from './infer-rules.ts';
import { kgQuery } from './kg-query.ts';
import { kgMutate } from './kg-mutate.ts';
import { memoryConsolidate } from './memory-consolidate.ts';
import { memoryRecall } from './memory-recall.ts';
import { reason } from './reason.ts';
import { synthesizeTriple } from './synthesize-triple.ts';
import { similaritySearch } from './similarity-search.ts';
import { userInteract } from './user-interact.ts';
import { fileIo } from './file-io.ts';
import { textIngest } from './text-ingest.ts';
import { httpFetch } from './http-fetch.ts';
import { sparqlQuery } from './sparql-query.ts';
import { type AgentTool, defineTool } from './tool.ts';

/** Every tool the agent can choose from. */
export const TOOLS: readonly AgentTool[] = [
  defineTool(kgQuery),
  defineTool(kgMutate),
  defineTool(inferRules),
  defineTool(similaritySearch),
  defineTool(gapAnalysis),
  defineTool(memoryRecall),
  defineTool(memoryConsolidate),
  defineTool(reason),
  defineTool(synthesizeTriple),
  defineTool(userInteract),
  defineTool(fileIo),
  defineTool(textIngest),
  defineTool(httpFetch),
  defineTool(sparqlQuery),
];

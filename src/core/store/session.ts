import { z } from 'zod';
import { agentSettingsSchema } from '#core/records/agent-settings.ts';
import { modelSettingsSchema } from '#core/records/model-settings.ts';
import { embedderChoiceSchema } from '#core/records/embedder-choice.ts';
import { nameSchema, sessionIdSchema } from '#core/names.ts';
import { MAX_ENDPOINTS, sparqlEndpointSchema } from '#core/records/sparql-endpoint.ts';
import { prefixesSchema } from '#core/kg/standard-terms.ts';
import { MAX_TOOL_SERVERS, toolServerSchema } from '#core/records/tool-server.ts';

/** A session is a workspace: its own graph, goals, memory and psyche. */
export const sessionRecordSchema = z.object({
  id: sessionIdSchema,
  name: nameSchema('session'),
  /** The last committed cycle of the agent (0 before the first). */
  cycle: z.number().int().nonnegative(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** How its agent plans and reflects; absent: the defaults. */
  agentSettings: agentSettingsSchema.optional(),
  /** How its agent's model samples (temperature, top-p, max tokens, seed); absent: each engine's defaults. */
  modelSettings: modelSettingsSchema.optional(),
  /** The embedder its recall and similarity use (hypervectors while none is bound or it cannot be had); absent: none. */
  embedder: embedderChoiceSchema.optional(),
  /** The catalog persona it wears (by id, so a rename keeps it); absent: none. */
  personaId: z.number().int().optional(),
  /** The SPARQL endpoints its agent may reach (their keys stay on the device, apart); absent: none. */
  sparqlEndpoints: z.array(sparqlEndpointSchema).max(MAX_ENDPOINTS).optional(),
  /** The MCP servers whose tools its agent may be granted (their keys stay on the device, apart); absent: none. */
  toolServers: z.array(toolServerSchema).max(MAX_TOOL_SERVERS).optional(),
  /** The prefixes its imported Turtle files declared (ex → http://example.org/): its queries read prefixed names with them. */
  prefixes: prefixesSchema.optional(),
});
export type SessionRecord = z.infer<typeof sessionRecordSchema>;

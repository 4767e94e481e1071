import { type Secret, secretsOfUrl } from '#core/secrets.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { storedEndpointSecrets } from '#core/sparql/endpoint-keys.ts';
import { storedToolServerSecrets } from '#core/mcp/server-keys.ts';
import { inferenceSecrets } from './inference-settings.ts';
import { inferenceSettingsOf } from './inference-settings.ts';
import { specOfRecord, webLlmSpecSecrets } from './webllm-models.ts';

/**
 * Every secret this device keeps: the inference settings' key and base URL credentials, and
 * credentials in the addresses models were added from, and the keys of SPARQL endpoints and tool
 * servers. An export refuses to carry any of them.
 */
export async function storedSecrets(db: AnimaDatabase): Promise<Secret[]> {
  const models = (await db.models.toArray()).flatMap((record) =>
    record.engine === 'webllm'
      ? webLlmSpecSecrets(specOfRecord(record))
      : record.source.kind === 'url'
        ? secretsOfUrl(record.source.url, 'the address a GGUF model came from')
        : [],
  );
  return [
    ...inferenceSecrets(await inferenceSettingsOf({ db })),
    ...models,
    ...(await storedEndpointSecrets(db)),
    ...(await storedToolServerSecrets(db)),
  ];
}

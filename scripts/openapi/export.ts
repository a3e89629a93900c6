import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { offlineOpenApiDocument, serializeDocument } from './offline-document';

/** `npm run openapi:export`: writes the OpenAPI document the SDK's types are generated from. */
async function main(): Promise<void> {
  const out = resolve(__dirname, '../../packages/sdk/openapi.json');
  const doc = await offlineOpenApiDocument();
  writeFileSync(out, serializeDocument(doc));
  console.log(`wrote ${out} (${Object.keys(doc.paths).length} paths)`);
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

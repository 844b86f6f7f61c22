import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { createConfig } from '../../../src/config.ts';
import { buildApp } from '../../../src/http/app.ts';
import { createMetrics } from '../../../src/http/metrics.ts';
import { createServices } from '../../../src/services.ts';
import { openStore } from '../../../src/store/store.ts';

/** The client's folder: the committed document and types live here. */
export const CLIENT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The generated files, relative to the client's folder. */
export const GENERATED_FILES = ['openapi.json', 'src/schema.ts'] as const;

/**
 * The document exactly as the app serves it at /api/v1/openapi.json, built in-process from a
 * fixed configuration (the contract's default base URL, system randomness) on a throwaway store,
 * so that the same code always gives the same bytes whatever the machine's environment.
 */
export async function buildDocument(): Promise<OpenAPI3> {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-openapi-'));
  const env = { DATA_DIR: dir, PUBLIC_BASE_URL: 'http://127.0.0.1:8080', TYCHE_SOURCES: 'system' };
  const store = openStore(env);
  try {
    await store.migrate();
    const config = createConfig(env);
    const metrics = createMetrics();
    const services = createServices(config, store, { registry: metrics.registry });
    const app = await buildApp({ config, store, metrics, ...services });
    try {
      await app.ready();
      return structuredClone(app.swagger()) as OpenAPI3;
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const SCHEMA_HEADER = `${COMMENT_HEADER.trimEnd()}
/* Regenerate with \`npm run client:generate\` at the repository's root. */

`;

/** Writes the document and the types generated from it under `outDir` (the client's layout). */
export async function generateClient(outDir: string = CLIENT_DIR): Promise<void> {
  const document = await buildDocument();
  const types = astToString(await openapiTS(document, { silent: true }));
  mkdirSync(join(outDir, 'src'), { recursive: true });
  writeFileSync(join(outDir, 'openapi.json'), `${JSON.stringify(document, null, 2)}\n`);
  writeFileSync(join(outDir, 'src', 'schema.ts'), SCHEMA_HEADER + types);
}

if (import.meta.main) await generateClient(process.argv[2] ?? CLIENT_DIR);

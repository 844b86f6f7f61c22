// Run as a child process by lazy-loading.test.ts: starts `tyche serve`'s server in a process of
// its own and prints, as JSON, which packages its thread had loaded once serving, which after the
// API reference's page and script were asked for, and which after one PDF certificate was made.

import { registerHooks } from 'node:module';

const loaded = new Set<string>();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url)?.[1];
    if (name) loaded.add(name);
    return resolved;
  },
});

// The command table first, as `tyche serve` loads it: listing the commands must load none of their work.
await import('../../src/cli/main.ts');
const { createConfig } = await import('../../src/config.ts');
const { startServer } = await import('../../src/server.ts');
const server = await startServer(
  createConfig({ DATA_DIR: process.argv[2], TYCHE_SOURCES: 'system', PORT: '0', LOG_LEVEL: 'silent' }),
);
const serving = [...loaded].sort();
// Node's own fetch implementation, loaded on first use of fetch (or by an ESM import of node:http).
const fetchLoaded = (process as unknown as { moduleLoadList: string[] }).moduleLoadList.some((name) =>
  name.includes('undici'),
);
const reference = await Promise.all(
  ['/docs/', '/docs/js/scalar.js'].map(async (path) => (await fetch(`${server.url}${path}`)).status),
);
const afterDocs = [...loaded].sort();
const { renderCertificatePdf } = await import('../../src/pdf/certificate-pdf.ts');
const { sampleCertificate } = await import('../helpers/certificates.ts');
const pdf = await renderCertificatePdf(
  sampleCertificate().certificate,
  `${server.url}/verify/c_x`,
  server.url,
);
await server.stop();
process.stdout.write(
  JSON.stringify({
    serving,
    fetchLoaded,
    afterDocs,
    reference,
    afterPdf: [...loaded].sort(),
    pdfBytes: pdf.length,
  }),
);

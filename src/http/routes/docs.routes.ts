import { createHash } from 'node:crypto';
import scalarReference from '@scalar/fastify-api-reference';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { html, layout, PAGE_CSP, referenceCsp } from '../../edge/html.ts';
import { ERROR_CODES } from '../../shared/errors.ts';
import { OPENAPI_PATH } from '../openapi.ts';

export const DOCS_PATH = '/docs';
/** The reference UI's script, served from this package's copy: no CDN. */
export const REFERENCE_SCRIPT_PATH = `${DOCS_PATH}/js/scalar.js`;

/**
 * The API reference at /docs: Scalar's reference UI, its script served by the server itself,
 * reading /api/v1/openapi.json, with try-it-out sending requests straight to this server
 * (never through a proxy) and nothing loaded from elsewhere. The error table keeps its own
 * server-rendered page, which the reference and every problem's `type` link to.
 */
export const docsRoutes: FastifyPluginAsync<{ publicBaseUrl: string }> = async (app, { publicBaseUrl }) => {
  const apiOrigin = new URL(publicBaseUrl).origin;

  await app.register(scalarReference, {
    routePrefix: DOCS_PATH,
    logLevel: 'warn',
    configuration: {
      pageTitle: 'Tyche API reference',
      url: OPENAPI_PATH,
      // Defaults that would reach third parties: fonts from Scalar's CDN, telemetry, and a
      // request proxy that would see every key sent from try-it-out.
      withDefaultFonts: false,
      telemetry: false,
      proxyUrl: '',
      hideClientButton: true,
      authentication: { preferredSecurityScheme: 'bearer' },
      documentDownloadType: 'json',
      defaultOpenAllTags: false,
      showDeveloperTools: 'never',
      mcp: { disabled: true },
      agent: { disabled: true },
    },
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    const route = request.routeOptions.url;
    if (route === `${DOCS_PATH}/` && typeof payload === 'string') {
      reply.header('content-security-policy', referenceCsp(inlineScriptHashes(payload), apiOrigin));
      reply.header('cache-control', 'no-cache');
    } else if (route === REFERENCE_SCRIPT_PATH) {
      reply.header('cache-control', 'public, max-age=3600');
      reply.header('x-content-type-options', 'nosniff');
    }
    return payload;
  });

  app.get(`${DOCS_PATH}/errors`, { schema: { hide: true } }, async (_request, reply) => {
    const rows = Object.entries(ERROR_CODES).map(
      ([code, entry]) =>
        html`<tr id="${code}"><td><code>${code}</code></td><td>${entry.status}</td><td>${entry.title}</td><td>${entry.help}</td></tr>`,
    );
    const body = html`<h1>Error codes</h1>
<p>Every error is an RFC 9457 problem (<code>application/problem+json</code>) whose <code>type</code> links to its row here,
and whose <code>request_id</code> is the response's <code>X-Request-ID</code>. The <a href="${DOCS_PATH}/">API reference</a> lists which codes each operation answers.</p>
<table><thead><tr><th>code</th><th>status</th><th>title</th><th>meaning</th></tr></thead><tbody>${rows}</tbody></table>`;
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .send(layout({ title: 'Tyche error codes', body }));
  });
};

/** The CSP source of each inline script of a page: its SHA-256, so only those scripts run. */
export function inlineScriptHashes(page: string): string[] {
  return [...page.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]).digest('base64')}'`,
  );
}

import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import { ERROR_CODES } from '../../errors.ts';
import { type Html, html, layout, PAGE_CSP } from '../html.ts';

interface Operation {
  summary?: string;
  description?: string;
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    schema?: Record<string, unknown>;
    description?: string;
  }[];
  requestBody?: unknown;
  responses?: Record<string, { description?: string }>;
}

/** The reference pages are rendered on the server from the OpenAPI document: no CDN, no script. */
export const docsRoutes: FastifyPluginAsync<{ config: Config }> = async (app) => {
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    const spec = app.swagger() as { paths?: Record<string, Record<string, Operation>> };
    const sections = Object.entries(spec.paths ?? {}).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => renderOperation(method, path, op)),
    );
    const body = html`<h1>Tyche API reference</h1>
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1).
Errors: <a href="/docs/errors">every error code</a>. Draws: <a href="/docs/draw-algorithm">the tyche-draw-v2 and tyche-draw-v1 algorithms</a>. Authenticate with <code>Authorization: Bearer &lt;key&gt;</code>.</p>
${sections}`;
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .send(layout({ title: 'Tyche API reference', body }));
  });

  app.get('/docs/errors', { schema: { hide: true } }, async (_request, reply) => {
    const rows = Object.entries(ERROR_CODES).map(
      ([code, entry]) =>
        html`<tr id="${code}"><td><code>${code}</code></td><td>${entry.status}</td><td>${entry.title}</td><td>${entry.help}</td></tr>`,
    );
    const body = html`<h1>Error codes</h1>
<p>Every error is an RFC 9457 problem (<code>application/problem+json</code>) whose <code>type</code> links to its row here,
and whose <code>request_id</code> is the response's <code>X-Request-ID</code>.</p>
<table><thead><tr><th>code</th><th>status</th><th>title</th><th>meaning</th></tr></thead><tbody>${rows}</tbody></table>`;
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .send(layout({ title: 'Tyche error codes', body }));
  });
};

function renderOperation(method: string, path: string, op: Operation): Html {
  const params = (op.parameters ?? []).map(
    (p) =>
      html`<tr><td><code>${p.name}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${JSON.stringify(p.schema ?? {})}</code></td></tr>`,
  );
  const responses = Object.entries(op.responses ?? {}).map(
    ([status, r]) => html`<tr><td>${status}</td><td>${r.description ?? ''}</td></tr>`,
  );
  const body = op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
  const bodySchema = body?.content?.['application/json']?.schema;
  return html`<section><h2><code>${method.toUpperCase()} ${path}</code></h2>
<p>${op.summary ?? ''}</p>${op.description ? html`<p>${op.description}</p>` : ''}
${params.length ? html`<table><thead><tr><th>parameter</th><th>in</th><th>required</th><th>schema</th></tr></thead><tbody>${params}</tbody></table>` : ''}
${bodySchema ? html`<p>Body:</p><pre>${JSON.stringify(bodySchema, null, 2)}</pre>` : ''}
<table><thead><tr><th>status</th><th>meaning</th></tr></thead><tbody>${responses}</tbody></table></section>`;
}

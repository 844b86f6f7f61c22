import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { html, layout, PAGE_CSP, referenceCsp } from '../../edge/html.ts';
import { ERROR_CODES } from '../../shared/errors.ts';
import { languageSwitch, pageLocale } from '../../web/page-language.ts';
import { OPENAPI_PATH } from '../openapi.ts';
import { registerReferenceUi } from './reference-ui.ts';

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

  registerReferenceUi(app, {
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

  app.get(`${DOCS_PATH}/errors`, { schema: { hide: true } }, async (request, reply) => {
    const locale = pageLocale(request);
    const { t } = locale;
    const rows = Object.entries(ERROR_CODES).map(
      ([code, entry]) =>
        html`<tr id="${code}"><td data-label="${t('errors-col-code')}"><code>${code}</code></td><td data-label="${t('errors-col-status')}">${entry.status}</td><td data-label="${t('errors-col-title')}">${entry.title}</td><td data-label="${t('errors-col-meaning')}">${entry.help}</td></tr>`,
    );
    const body = html`${languageSwitch(locale, `${DOCS_PATH}/errors`)}<h1>${t('errors-heading')}</h1>
<p>${t('errors-lead')} <a href="${DOCS_PATH}/">${t('errors-reference')}</a></p>
<table class="errors"><thead><tr><th scope="col">${t('errors-col-code')}</th><th scope="col">${t('errors-col-status')}</th><th scope="col">${t('errors-col-title')}</th><th scope="col">${t('errors-col-meaning')}</th></tr></thead><tbody>${rows}</tbody></table>`;
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .header('vary', 'accept-language')
      .send(layout({ title: t('errors-title'), body, style: ERRORS_STYLE, lang: locale.lang }));
  });
};

/**
 * The error table reads on a phone: below 40rem each code is a card of label/value lines rather
 * than four columns squeezed to a word each. Codes and titles stay English: they are the API's.
 */
const ERRORS_STYLE = `.lang-switch{text-align:right;font-size:.9rem}
table.errors td{overflow-wrap:anywhere}table.errors td:first-child{white-space:nowrap}
@media (max-width:40rem){table.errors thead{display:none}table.errors,table.errors tbody,table.errors tr,table.errors td{display:block;width:auto}
table.errors tr{border:1px solid var(--line);border-radius:.4rem;margin:.6rem 0;padding:.3rem .6rem}
table.errors td{border:0;padding:.15rem 0;white-space:normal}table.errors td::before{content:attr(data-label) ": ";font-weight:600;color:var(--muted)}}
:target{outline:3px solid var(--accent)}`;

/** The CSP source of each inline script of a page: its SHA-256, so only those scripts run. */
export function inlineScriptHashes(page: string): string[] {
  return [...page.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]).digest('base64')}'`,
  );
}

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { etagOf, matchesEtag } from '../edge/etag.ts';
import { PAGE_CSP } from '../edge/html.ts';
import { PUBLIC_READ } from '../edge/public-cors.ts';
import type { WinnerNamesQuery } from '../giveaways/results/winner-names.ts';
import { renderCertificatePdf } from '../pdf/certificate-pdf.ts';
import { KEYS_PATH } from '../proof/keys-path.ts';
import { AppError } from '../shared/errors.ts';
import { bundleRoutes } from './bundle.routes.ts';
import { namedPeople } from './giveaway-results.ts';
import { pageLocale, VARY_LANGUAGE } from './page-language.ts';
import { pageCsp, sendPage } from './page-parts.ts';
import { createRenderCache } from './render-cache.ts';
import {
  type AnyCertificate,
  isCertificateV2,
  renderCertificatePage,
  renderNotFoundPage,
} from './verify-page.ts';

/** Reads sealed certificates; the giveaway service provides it. */
export interface CertificateLookup {
  get(certificateId: string): Promise<AnyCertificate | undefined>;
}

const MAX_ID_LENGTH = 128;
// The page may gain information as the software improves; its certificate never changes.
const CACHE = 'public, max-age=300';
/**
 * The signed certificate never changes, but what sits beside it does: timestamps that arrive
 * after the draw and amendments (CONTRACT.md §13, §14). So the JSON and PDF are kept briefly
 * and revalidated by their ETag, never marked immutable.
 */
const REVALIDATE = 'public, max-age=300, must-revalidate';
/** Rendered PDFs kept per process (one is about 0.4 s of CPU to render). */
const RENDERED_KEPT = 200;

/** q-value of the best entry of an Accept header that matches `type` (exact beats wildcard). */
function quality(accept: string, type: string): { q: number; exact: boolean } {
  let best = { q: 0, exact: false, specificity: -1 };
  const [major] = type.split('/');
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity < best.specificity || specificity === -1) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    best = { q: Number.isFinite(q) ? q : 0, exact: specificity === 2, specificity };
  }
  return best;
}

/** True when the client asked for JSON over HTML (`Accept: application/json`). */
export function prefersJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const json = quality(accept, 'application/json');
  const page = quality(accept, 'text/html');
  if (json.q === 0) return false;
  return json.q > page.q || (json.q === page.q && json.exact && !page.exact);
}

/**
 * A public resource's path segment and the form asked for: a `.json` suffix, or else the Accept
 * header, chooses JSON; `suffixed` says whether the form varies with Accept (it does not then).
 */
export function requestedForm(
  segment: string,
  accept: string | undefined,
): { id: string; suffixed: boolean; wantsJson: boolean } {
  const suffixed = segment.endsWith('.json');
  return {
    id: suffixed ? segment.slice(0, -5) : segment,
    suffixed,
    wantsJson: suffixed || prefersJson(accept),
  };
}

export const verifyRoutes: FastifyPluginAsync<{
  /** Where visitors reach this server: the page's, the PDF's and the QR code's links. */
  publicBaseUrl: string;
  /** The drand relay a v2 page's script reads the round from. */
  drandUrl: string;
  certificates: CertificateLookup;
  /** Winners' first names, for those without a username. */
  names?: WinnerNamesQuery;
}> = async (app, { publicBaseUrl: base, drandUrl, certificates, names }) => {
  const rendered = createRenderCache(RENDERED_KEPT);
  await app.register(bundleRoutes, { servedBy: base });

  app.get(
    '/verify/:certificate_id',
    {
      config: PUBLIC_READ,
      schema: {
        summary: 'Public proof of a draw: HTML page, `.json` certificate or `.pdf` certificate',
        description:
          'No key. The page works without JavaScript; `Accept: application/json` or the `.json` suffix gives the sealed certificate, `.pdf` a one-page PDF with a QR code to the page.',
        tags: ['verify'],
        params: Type.Object({
          certificate_id: Type.String({ description: 'e.g. c_Wq3tY8mKp2, c_Wq3tY8mKp2.json' }),
        }),
      },
    },
    async (request: FastifyRequest<{ Params: { certificate_id: string } }>, reply) => {
      const raw = request.params.certificate_id;
      const suffix = /\.(json|pdf)$/.exec(raw)?.[1] as 'json' | 'pdf' | undefined;
      const id = suffix ? raw.slice(0, -(suffix.length + 1)) : raw;
      const wantsJson = suffix === 'json' || (!suffix && prefersJson(request.headers.accept));
      // The page and the PDF speak the visitor's language; the JSON is the same for everyone.
      if (suffix === 'pdf') reply.header('vary', 'accept-language');
      else if (!suffix) reply.header('vary', VARY_LANGUAGE);
      const locale = pageLocale(request);
      const cert = id.length > 0 && id.length <= MAX_ID_LENGTH ? await certificates.get(id) : undefined;
      if (!cert) {
        if (wantsJson || prefersJson(request.headers.accept)) {
          throw new AppError('not_found', 'No certificate has this id');
        }
        return sendPage(reply, 404, renderNotFoundPage(id, locale));
      }
      const path = `/verify/${encodeURIComponent(id)}`;
      if (wantsJson || suffix === 'pdf') {
        // Keyed by what the store holds now, not by the id alone: a certificate altered in the
        // store is served (and fails verification) as it is, never hidden behind a cached copy.
        const json = JSON.stringify(cert);
        const out =
          suffix === 'pdf'
            ? await rendered.get(`pdf:${locale.lang}:${etagOf(json)}`, () =>
                renderCertificatePdf(cert, `${base}${path}`, `${base}/docs/draw-algorithm`, locale.lang),
              )
            : { body: json, etag: etagOf(json) };
        reply.header('cache-control', REVALIDATE).header('etag', out.etag);
        if (suffix === 'pdf') {
          const filename = `tyche-certificate-${id.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;
          reply.type('application/pdf').header('content-disposition', `inline; filename="${filename}"`);
        } else {
          reply.type('application/json; charset=utf-8');
        }
        if (matchesEtag(request.headers['if-none-match'], out.etag)) return reply.code(304).send();
        return reply.send(out.body);
      }
      const urls = {
        page: `${base}${path}`,
        json: `${path}.json`,
        pdf: `${path}.pdf`,
        keys: KEYS_PATH,
        relay: drandUrl,
      };
      const publicId = isCertificateV2(cert) ? cert.seal.giveaway.public_id : cert.public_id;
      const firstNames = await names?.firstNames(publicId, namedPeople(cert));
      const page = renderCertificatePage(cert, urls, locale, firstNames);
      // Each language's page is its own entity: its own tag, revalidated for free.
      const etag = etagOf(page);
      reply.header('cache-control', CACHE).header('etag', etag);
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
      // A v2 page's script reads the drand round from the relay itself: CSP allows that one origin.
      const csp = isCertificateV2(cert) ? pageCsp(drandUrl) : PAGE_CSP;
      return sendPage(reply, 200, page, csp);
    },
  );

  // The Markdown renderer is loaded by the page's first reader, not by every start.
  app.get('/docs/draw-algorithm', { schema: { hide: true } }, async (_request, reply) => {
    const { algorithmPage } = await import('./algorithm-doc.ts');
    return sendPage(reply, 200, algorithmPage());
  });
};

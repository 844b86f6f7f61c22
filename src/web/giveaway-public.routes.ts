import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { PUBLIC_READ } from '../edge/public-cors.ts';
import type { EntrantSeries, EntrantSeriesQuery } from '../giveaways/results/entrant-series.ts';
import type { PublicGiveaway, PublicGiveawayLookup } from '../giveaways/results/public-giveaway.ts';
import type { WinnerNamesQuery } from '../giveaways/results/winner-names.ts';
import { AppError } from '../shared/errors.ts';
import { createKeptResults } from '../shared/kept-results.ts';
import { renderGiveawayNotFoundPage, renderGiveawayPage } from './giveaway-page.ts';
import { namedPeople } from './giveaway-results.ts';
import { organizerRoutes } from './organizer.routes.ts';
import { pageLocale, VARY_LANGUAGE } from './page-language.ts';
import { pageCsp, sendPage } from './page-parts.ts';
import { renderReceiptPage } from './receipt-page.ts';
import { createSealTokenCheck } from './timestamp-lines.ts';
import { type CertificateLookup, prefersJson, requestedForm } from './verify.routes.ts';

export const RECEIPT_SCRIPT_URL = '/assets/js/verify/receipt-page.js';

const MAX_ID_LENGTH = 128;
// A sealed list never changes, so neither do its proofs; tickets are deterministic signatures.
// An entrant's proof and ticket are fixed once the list is sealed.
const IMMUTABLE = 'public, max-age=31536000, immutable';

const PublicIdParams = Type.Object({ public_id: Type.String({ description: 'e.g. Wq3tY8mKp2aB' }) });
const LeafParams = Type.Object({
  public_id: Type.String({ description: 'e.g. Wq3tY8mKp2aB' }),
  leaf_hash: Type.String({ description: 'the entrant leaf hash, 64 lower-case hex' }),
});

function sendJson(reply: FastifyReply, body: unknown, cache: string) {
  return reply
    .type('application/json; charset=utf-8')
    .header('cache-control', cache)
    .send(JSON.stringify(body));
}

/** CONTRACT §3 "Public, no key": a giveaway's page and JSON, entrants' proofs and tickets, the receipt page. */
export const giveawayPublicRoutes: FastifyPluginAsyncTypebox<{
  /** The drand relay the receipt page's script reads the round from. */
  drandUrl: string;
  giveaways: PublicGiveawayLookup;
  /** TYCHE_TSA_TRUST's PEM text: anchors beside the shipped roots for the seal's tokens (CONTRACT §13). */
  tsaTrust?: string;
  /** Once drawn, the page lists the certificate's winners and reserves at the top. */
  certificates?: CertificateLookup;
  /** Winners' first names, for those without a username. */
  names?: WinnerNamesQuery;
  /** Entrants over time, for the page's chart. */
  series?: EntrantSeriesQuery;
}> = async (app, { drandUrl, giveaways, tsaTrust, certificates, names, series }) => {
  const lookup = (id: string) =>
    id.length > 0 && id.length <= MAX_ID_LENGTH ? giveaways.view(id) : undefined;
  const scriptCsp = pageCsp(drandUrl);
  const sealTokensOf = createSealTokenCheck(tsaTrust);
  const entrantSeriesOf = closedListSeries(series);
  await app.register(organizerRoutes, { organizers: giveaways.organizers });

  app.get(
    '/g/:public_id',
    {
      config: PUBLIC_READ,
      schema: {
        summary: "A giveaway's public page, or its JSON with the signed seal",
        description:
          'No key. The page works without JavaScript; `Accept: application/json` or the `.json` suffix gives the public giveaway: status, counts, `ends_at`, the signed seal once sealed, the certificate link once drawn.',
        tags: ['verify'],
        params: PublicIdParams,
      },
    },
    async (request, reply) => {
      const { id, suffixed, wantsJson } = requestedForm(request.params.public_id, request.headers.accept);
      if (!suffixed) reply.header('vary', VARY_LANGUAGE);
      const view = await lookup(id);
      const locale = pageLocale(request);
      if (!view) {
        if (wantsJson) throw new AppError('not_found', 'No giveaway has this id');
        return sendPage(reply, 404, renderGiveawayNotFoundPage(id, locale));
      }
      if (wantsJson) return sendJson(reply, view, 'no-cache');
      reply.header('cache-control', 'no-cache');
      const certificate =
        view.certificate_id === null ? undefined : await certificates?.get(view.certificate_id);
      const [sealTokens, firstNames, entrantSeries] = await Promise.all([
        sealTokensOf(view),
        names?.firstNames(view.public_id, namedPeople(certificate)),
        entrantSeriesOf(view),
      ]);
      const page = renderGiveawayPage(
        view,
        { sealTokens },
        { certificate, firstNames, series: entrantSeries },
        locale,
      );
      return sendPage(reply, 200, page);
    },
  );

  app.get(
    '/g/:public_id/proof/:leaf_hash',
    {
      config: PUBLIC_READ,
      schema: {
        summary: "An entrant's place in the sealed list: RFC 9162 inclusion proof",
        description:
          'No key. `{"index", "count", "root", "proof", "seal_id", "seal_hash"}` once sealed; 404 for a leaf hash that is not in the list, 409 `not_sealed` before the seal. A leaf hash reveals nothing about who it is.',
        tags: ['verify'],
        params: LeafParams,
      },
    },
    async (request, reply) => {
      const { public_id: id, leaf_hash: leaf } = request.params;
      const proof = id.length <= MAX_ID_LENGTH ? await giveaways.proof(id, leaf.toLowerCase()) : undefined;
      if (proof === 'not_sealed') {
        throw new AppError(
          'not_sealed',
          'The entrant list of this giveaway is not sealed yet; proofs exist after the seal',
        );
      }
      if (!proof) {
        const known = (await lookup(id)) !== undefined;
        throw new AppError(
          'not_found',
          known ? 'No entrant of this giveaway has this leaf hash' : 'No giveaway has this id',
        );
      }
      return sendJson(reply, proof, IMMUTABLE);
    },
  );

  app.get(
    '/g/:public_id/ticket/:leaf_hash',
    {
      config: PUBLIC_READ,
      schema: {
        summary: "An entrant's signed entry ticket",
        description:
          'No key. The `tyche-ticket-v2` signed when the entry was acknowledged: proof of entry, even for an entrant left out of the sealed list.',
        tags: ['verify'],
        params: LeafParams,
      },
    },
    async (request, reply) => {
      const { public_id: id, leaf_hash: leaf } = request.params;
      const ticket = id.length <= MAX_ID_LENGTH ? await giveaways.ticket(id, leaf.toLowerCase()) : undefined;
      if (!ticket) throw new AppError('not_found', 'No entrant of this giveaway has this leaf hash');
      return sendJson(reply, ticket, IMMUTABLE);
    },
  );

  app.get(
    '/g/:public_id/receipt',
    {
      schema: {
        summary: "An entrant's receipt page",
        description:
          'No key. Open with `#<telegram_id>.<salt hex>` in the fragment (never sent to the server): the page checks the entry against the signed seal in the browser and, once drawn, tells whether it won.',
        tags: ['verify'],
        params: PublicIdParams,
      },
    },
    async (request, reply) => {
      const id = request.params.public_id;
      const view = await lookup(id);
      const locale = pageLocale(request);
      reply.header('vary', VARY_LANGUAGE);
      if (!view) {
        if (prefersJson(request.headers.accept)) throw new AppError('not_found', 'No giveaway has this id');
        return sendPage(reply, 404, renderGiveawayNotFoundPage(id, locale));
      }
      reply.header('cache-control', 'no-cache');
      return sendPage(reply, 200, renderReceiptPage(view, RECEIPT_SCRIPT_URL, locale), scriptCsp);
    },
  );
};

/** Closed lists kept; a process keeps at most this many series (each at most 720 points). */
const SERIES_KEPT = 256;

/**
 * The chart's series: counted by the store while entries are open, and once the list is closed
 * (nothing joins or leaves any more) counted once per process, so a page view of a closed
 * giveaway with millions of entrants does not group them all again.
 */
function closedListSeries(series: EntrantSeriesQuery | undefined) {
  const kept = createKeptResults<EntrantSeries | undefined>(SERIES_KEPT);
  return (view: PublicGiveaway): Promise<EntrantSeries | undefined> | undefined => {
    if (!series) return undefined;
    if (view.status === 'active') return series.forPublicId(view.public_id);
    return kept.get(`${view.public_id}:${view.status}:${view.entrants_count}`, () =>
      series.forPublicId(view.public_id),
    );
  };
}

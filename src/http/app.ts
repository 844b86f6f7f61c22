import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { AccountService } from '../accounts/account.service.ts';
import type { QuotaService } from '../accounts/quota.service.ts';
import { tagImmutableAnswers } from '../edge/etag.ts';
import { allowPublicReads } from '../edge/public-cors.ts';
import type { GiveawayService } from '../giveaways/giveaway.service.ts';
import { createEntrantSeriesQuery } from '../giveaways/results/entrant-series.ts';
import { createWinnerNamesRepository } from '../giveaways/results/winner-names.repository.ts';
import { createIdempotencyRepository } from '../idempotency/idempotency.repository.ts';
import type { LogService } from '../log/log.service.ts';
import type { RandomService } from '../randomness/random.service.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { Signer } from '../signing/signer.ts';
import type { Store } from '../store/store.ts';
import { giveawayPublicRoutes } from '../web/giveaway-public.routes.ts';
import { landingRoutes } from '../web/landing.routes.ts';
import { renderMissingPage, wantsHtml } from '../web/landing-page.ts';
import { pageLocale } from '../web/page-language.ts';
import { sendPage } from '../web/page-parts.ts';
import { type CertificateLookup, verifyRoutes } from '../web/verify.routes.ts';
import type { WebhookService } from '../webhooks/webhook.service.ts';
import { protectRoutes } from './auth.ts';
import { unreadableEncoding } from './body-encoding.ts';
import { createIdempotency } from './idempotency.ts';
import { parseJsonBody, TooDeep } from './json-body.ts';
import { trackRoutes } from './method-not-allowed.ts';
import type { Metrics } from './metrics.ts';
import { registerOpenApi } from './openapi.ts';
import { sendProblem, toAppError } from './problem.ts';
import { limitPublicRoutes } from './public-rate-limit.ts';
import { requestIdOf } from './request-id.ts';
import { amendmentRoutes } from './routes/amendment.routes.ts';
import { docsRoutes } from './routes/docs.routes.ts';
import { giveawayRoutes } from './routes/giveaway.routes.ts';
import { healthRoutes } from './routes/health.routes.ts';
import { logRoutes } from './routes/log.routes.ts';
import { meRoutes } from './routes/me.routes.ts';
import { randomRoutes } from './routes/random.routes.ts';
import { webhookRoutes } from './routes/webhook.routes.ts';
import { wellKnownRoutes } from './routes/well-known.routes.ts';
import { createSchemaCompilers } from './schema-compilers.ts';
import { refuseUnknownQuery } from './strict-query.ts';
import { clientErrorHandler, frameworkErrorHandler } from './transport-errors.ts';

/**
 * What the HTTP app reads of the configuration. The root passes its config, which has these
 * among the rest; nothing here sees a setting it does not use.
 */
export interface AppSettings {
  /** Where clients reach this server: problem `type` links, the OpenAPI server, the pages' links. */
  readonly publicBaseUrl: string;
  readonly TYCHE_TRUST_PROXY: boolean;
  /** Requests a minute per address on the routes without a key; 0 turns the limit off. */
  readonly TYCHE_PUBLIC_RATE_LIMIT: number;
  /** The drand relay the verification pages fetch rounds from. */
  readonly DRAND_URL: string;
  /** TYCHE_TSA_TRUST's PEM text, if set: the /g page checks its seal's tokens with it too. */
  readonly tsaTrust?: string;
}

export interface AppDeps {
  config: AppSettings;
  store: Store;
  accounts: AccountService;
  quota: QuotaService;
  random: RandomService;
  giveaways: GiveawayService;
  signer: Signer;
  transparency: LogService;
  webhooks: WebhookService;
  metrics: Metrics;
  clock: Clock;
  logger?: FastifyBaseLogger;
}

export const BODY_LIMIT = 1024 * 1024;
export const REQUEST_TIMEOUT_MS = 30_000;
export const HEADERS_TIMEOUT_MS = 10_000;
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * Fastify's request log lines, but one per request: written when it ends, with what the line at
 * its start held (method, URL, host, client address) beside the status and duration. The second
 * line cost SQLite's random requests 4–5% of their throughput. Errors are logged as before.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error || this.isLogDisabled(request)) super.requestCompleted(error, request, reply);
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** Builds the HTTP app without listening; main.ts listens, tests use inject() or listen on port 0. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    genReqId: requestIdOf,
    logController: new OneLinePerRequest(),
    bodyLimit: BODY_LIMIT,
    // Closing the server must let in-flight requests finish; new ones get 503 meanwhile.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Any id in a path must reach its route and be answered 404 there, not 414 by the router.
    routerOptions: { maxParamLength: 1000 },
    frameworkErrors: frameworkErrorHandler(deps.config.publicBaseUrl),
    // Behind a reverse proxy the client's address is the one the proxy reports.
    trustProxy: deps.config.TYCHE_TRUST_PROXY,
    // A request (headers and body) must arrive within 30 s, its headers within 10 s: a client
    // trickling bytes cannot hold a connection open. Idle keep-alive connections close after 72 s.
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    clientErrorHandler: clientErrorHandler(deps.config.publicBaseUrl),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  const schemas = createSchemaCompilers();
  app.setValidatorCompiler(schemas.validatorCompiler);
  app.setSerializerCompiler(schemas.serializerCompiler);
  app.decorate('compileAllSchemas', schemas.compileAll);
  app.decorateRequest('principal', null);
  app.decorateRequest('quotaTicket', null);
  app.decorateRequest('idempotency', null);
  app.decorateRequest('meter', null);
  const idempotency = createIdempotency({
    keys: createIdempotencyRepository(deps.store.db),
    quota: deps.quota,
    clock: deps.clock,
  });
  const routes = trackRoutes(app);
  allowPublicReads(app);
  tagImmutableAnswers(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // While closing, answers still in flight end their keep-alive connection, so close() does not
  // wait for clients to drop idle connections (up to the 72 s keep-alive timeout).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    deps.metrics.requests.inc({ route, method: request.method, status: reply.statusCode });
    deps.metrics.latency.observe({ route, method: request.method }, reply.elapsedTime / 1000);
  });

  acceptJsonOnly(app);

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendProblem(request, reply, appError, deps.config.publicBaseUrl);
  });

  app.setNotFoundHandler((request, reply) => {
    const allowed = routes.allowedMethods(request.url);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      const error = new AppError(
        'method_not_allowed',
        `${request.method} is not allowed here; use ${allowed.join(', ')}`,
      );
      return sendProblem(request, reply, error, deps.config.publicBaseUrl);
    }
    // A browser that followed a wrong link gets a page to find its way from; API clients the problem.
    if (request.method === 'GET' && wantsHtml(request.headers.accept)) {
      return sendPage(reply, 404, renderMissingPage(request.url.split('?')[0], pageLocale(request)));
    }
    const error = new AppError(
      'not_found',
      `No route matches ${request.method} ${request.url.split('?')[0]}`,
    );
    return sendProblem(request, reply, error, deps.config.publicBaseUrl);
  });

  await limitPublicRoutes(app, deps.config.TYCHE_PUBLIC_RATE_LIMIT);
  await registerOpenApi(app, deps.config.publicBaseUrl);
  await app.register(healthRoutes, { store: deps.store, metrics: deps.metrics });
  await app.register(docsRoutes, { publicBaseUrl: deps.config.publicBaseUrl });
  await app.register(wellKnownRoutes, { signer: deps.signer, log: deps.transparency });
  await app.register(logRoutes, { log: deps.transparency });
  const winnerNames = createWinnerNamesRepository(deps.store.db);
  await app.register(landingRoutes);
  await app.register(verifyRoutes, {
    publicBaseUrl: deps.config.publicBaseUrl,
    drandUrl: deps.config.DRAND_URL,
    certificates: deps.giveaways.certificates as CertificateLookup,
    names: winnerNames,
  });
  await app.register(giveawayPublicRoutes, {
    drandUrl: deps.config.DRAND_URL,
    giveaways: deps.giveaways.public,
    tsaTrust: deps.config.tsaTrust,
    certificates: deps.giveaways.certificates as CertificateLookup,
    names: winnerNames,
    series: createEntrantSeriesQuery(deps.store.db),
  });
  await app.register(
    async (api) => {
      api.addHook('onRoute', refuseUnknownQuery);
      protectRoutes(api, { ...deps, idempotency });
      await api.register(meRoutes, { accounts: deps.accounts, clock: deps.clock });
      await api.register(randomRoutes, { random: deps.random });
      await api.register(giveawayRoutes, { giveaways: deps.giveaways });
      await api.register(amendmentRoutes, { giveaways: deps.giveaways });
      await api.register(webhookRoutes, { webhooks: deps.webhooks });
    },
    { prefix: '/api/v1' },
  );
  return app;
}

/**
 * Only JSON bodies are read. An empty body counts as none (a draw may be posted without one);
 * anything that is not a JSON object is refused as invalid_json before validation.
 */
function acceptJsonOnly(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (request, body, done) => {
      const unreadable = unreadableEncoding(request.headers, 'the JSON body');
      if (unreadable) return done(new AppError('unsupported_media_type', unreadable));
      const text = String(body);
      if (text.trim() === '') return done(null, undefined);
      let value: unknown;
      try {
        value = parseJsonBody(text);
      } catch (error) {
        const reason = error instanceof TooDeep ? 'Body is nested too deeply' : 'Body is not valid JSON';
        return done(new AppError('invalid_json', `${reason}: ${(error as Error).message}`));
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return done(new AppError('invalid_json', 'Body must be a JSON object'));
      }
      done(null, value);
    },
  );
}

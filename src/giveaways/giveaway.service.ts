import type { Kysely } from 'kysely';
import type { LogService } from '../log/log.service.ts';
import type { Seal } from '../proof/v2-types.ts';
import type { OperationContext, RandomService } from '../randomness/random.service.ts';
import type { DrandRounds } from '../randomness/sources/drand-rounds.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { Signer } from '../signing/signer.ts';
import type { Database } from '../store/schema.ts';
import { channelPostJob } from './bot-jobs.ts';
import { createConditionChecks } from './conditions/condition-check.ts';
import { createDrawer, type DrawnEvent } from './draw/giveaway-draw.ts';
import { createSealedDrawer } from './draw/giveaway-draw-v2.ts';
import { createVerifiableDraws, type SealJobPayload } from './draw/verifiable-draw.ts';
import { createEntrantReceipts, entrantReceiptUrl } from './entrants/entrant-receipts.ts';
import { addParticipants, type ParticipantInput } from './entrants/participants.ts';
import type { GiveawayRow } from './giveaway.repository.ts';
import { type BotGiveawayOptions, ConditionNotMet, createGiveawayConsole } from './giveaway-console.ts';
import { checkNewGiveaway, type NewGiveawayInput } from './giveaway-input.ts';
import { giveawayRepositories, giveawayUnitOfWork } from './giveaway-store.ts';
import { isCertificateId, isPublicId, newPublicId } from './ids.ts';
import { participantCsvLines } from './results/csv-lines.ts';
import { type AnyCertificate, type Giveaway, giveawayOf } from './results/giveaway.views.ts';
import { type ListPage, type ListQuery, listPage } from './results/giveaway-cursor.ts';
import { type DrawOutcome, drawnEventOf, drawnResponseOf } from './results/giveaway-draw-views.ts';
import { createLogViews } from './results/giveaway-log-views.ts';
import { createPublicGiveaways } from './results/public-giveaway.ts';
import { createSealer, SEAL_JOB, sealJobKey } from './seal/giveaway-seal.ts';

export type { DrawnEvent } from './draw/giveaway-draw.ts';
export type { ParticipantInput } from './entrants/participants.ts';
export { type BotGiveawayOptions, type CloseOutcome, ConditionNotMet } from './giveaway-console.ts';
export { TITLE_MAX } from './giveaway-input.ts';
export { CSV_PAGE_ROWS } from './results/csv-lines.ts';
export type { AnyDrawResponse, DrawOutcome, DrawResponseV2 } from './results/giveaway-draw-views.ts';

export type JoinUrl = (publicId: string) => string;
export type DrawnListener = (event: DrawnEvent) => void | Promise<void>;

interface Deps {
  db: Kysely<Database>;
  random: Pick<RandomService, 'operate' | 'rows'>;
  clock: Clock;
  signer: Signer;
  publicBaseUrl: string;
  owners: { ownerPseudonym(accountId: string, candidate: string): Promise<string> };
  drand: DrandRounds;
  /** DRAND_URL: where the public pages tell browsers to fetch the round themselves. */
  drandRelay: string;
  /** TYCHE_SEAL_DELAY_ROUNDS and TYCHE_DRAW_WAIT_MS. */
  delayRounds: number;
  drawWaitMs: number;
  log?: { warn(obj: object, msg: string): void };
  /** The transparency log every seal and certificate is appended to. */
  transparency: LogService;
  /** Set when the Telegram bot runs: its `https://t.me/<bot>?start=g_<public_id>` link. */
  joinUrl?: JoinUrl | undefined;
  /**
   * Whether the Telegram bot runs: then each change also enqueues, in its transaction, what the
   * bot must say about it (winner notices, receipts, channel posts).
   */
  botRuns?: boolean;
  /** Where a failing onDrawn listener is reported; it never reaches the draw. */
  reportError?: (error: unknown) => void;
}

export interface JoinResult {
  status: 'joined' | 'duplicate';
  entryNumber: number;
  giveaway: { public_id: string; title: string };
  /** The entrant's receipt page (CONTRACT §7.8), with their id and salt in the fragment. */
  receiptUrl: string | undefined;
}

const notFound = () => new AppError('not_found', 'No giveaway has this id');
const completed = () =>
  new AppError('giveaway_completed', 'This giveaway has been drawn and no longer accepts participants');
const sealedNow = () =>
  new AppError(
    'giveaway_sealed',
    'Entries are closed: the entrant list is sealed and no entrant can be added',
  );

/** The refusal for a join that found the giveaway no longer active. */
function closed(status: string | undefined): AppError {
  return status === 'sealed' ? sealedNow() : completed();
}

export function createGiveawayService(deps: Deps) {
  const { db, clock } = deps;
  const { transparency } = deps;
  const botRuns = deps.botRuns ?? false;
  const repos = giveawayRepositories(db, transparency, deps.publicBaseUrl, botRuns);
  const { giveaways, participants, seals, operations, conditions } = repos;
  const uow = giveawayUnitOfWork(db, transparency, deps.publicBaseUrl, botRuns);
  const eventsIn = (trx: Kysely<Database>) =>
    giveawayRepositories(trx, transparency, deps.publicBaseUrl, botRuns).events;
  const checks = createConditionChecks({ conditions, clock, log: deps.log ?? { warn: () => {} } });
  const logViews = createLogViews({ giveaways, transparency });
  const draw = createDrawer({
    ...deps,
    giveaways,
    participants,
    operations,
    logIn: (trx) => giveawayRepositories(trx, transparency, deps.publicBaseUrl).log,
    eventsIn,
  });
  const sealer = createSealer({ ...deps, uow });
  const drawer = createSealedDrawer({
    ...deps,
    uow,
    repos,
    sealLogIndex: (sealId) => transparency.indexOf('seal', sealId),
    sealWitness: async (sealId, roundAt) => {
      const index = await transparency.indexOf('seal', sealId);
      return index === null ? null : transparency.sealWitness(index, roundAt);
    },
  });
  const verifiable = createVerifiableDraws({
    giveaways,
    seals,
    seal: sealer,
    beforeSeal: (row) => checks.recheck(row.id, row.public_id),
    drawer,
    drand: deps.drand,
    clock,
    waitMs: deps.drawWaitMs,
    log: deps.log ?? { warn: () => {} },
    announce: async (giveawayId, done) => {
      const row = await giveaways.findById(giveawayId);
      if (row) notify(drawnEventOf(row, done, deps.publicBaseUrl));
    },
  });
  const receipts = createEntrantReceipts({
    participants,
    seals,
    signer: deps.signer,
    publicBaseUrl: deps.publicBaseUrl,
  });
  const listeners = new Set<DrawnListener>();
  let joinUrl = deps.joinUrl;

  async function find(publicId: string): Promise<GiveawayRow> {
    const row = isPublicId(publicId) ? await giveaways.findByPublicId(publicId) : undefined;
    if (!row) throw notFound();
    return row;
  }

  /** Unknown → 404 whatever the id's form; another account's → 403. */
  async function owned(accountId: string, publicId: string): Promise<GiveawayRow> {
    const row = await find(publicId);
    if (row.account_id !== accountId)
      throw new AppError('forbidden', 'This giveaway belongs to another account');
    return row;
  }

  async function certificateOf(id: string | null): Promise<AnyCertificate | undefined> {
    if (id === null || !isCertificateId(id)) return undefined;
    const row = await giveaways.findCertificate(id);
    return row ? (JSON.parse(row.body) as AnyCertificate) : undefined;
  }

  async function sealOf(row: GiveawayRow): Promise<Seal | undefined> {
    if (row.status === 'active' || row.draw_mode !== 'verifiable') return undefined;
    const found = await seals.find(row.id);
    return found ? (JSON.parse(found.body) as Seal) : undefined;
  }

  const full = async (row: GiveawayRow): Promise<Giveaway> => {
    const seal = await sealOf(row);
    return giveawayOf(row, {
      joinUrl: joinUrl?.(row.public_id),
      publicBaseUrl: deps.publicBaseUrl,
      certificate: await certificateOf(row.certificate_id),
      seal,
      sealLogIndex: seal ? await transparency.indexOf('seal', seal.seal_id) : null,
    });
  };

  /** Entries into an active giveaway, refused with the right code once it is sealed or drawn. */
  async function enter(row: GiveawayRow, list: ParticipantInput[]) {
    if (row.status !== 'active') throw closed(row.status);
    const added = await addParticipants({ db, giveaways, participants, clock, eventsIn }, row, list);
    if (!added) throw closed((await giveaways.findById(row.id))?.status);
    return added;
  }

  /**
   * A giveaway with channel conditions is sealed only after every entrant was checked again:
   * the seal job does that pass, so a call that would seal now starts it and is told to retry.
   */
  async function refuseWhileChecking(row: GiveawayRow): Promise<void> {
    if (row.draw_mode !== 'verifiable' || !(await checks.pending(row.id))) return;
    await sealSoon(row);
    throw new AppError(
      'checks_in_progress',
      'Entrants are being checked against the channels this giveaway requires; the seal follows by itself',
      { headers: { 'retry-after': '10' } },
    );
  }

  /** Makes the seal job due now (enqueued if the giveaway had no ends_at). */
  async function sealSoon(row: GiveawayRow): Promise<void> {
    const now = clock.now().getTime();
    const payload: SealJobPayload = { giveawayId: row.id };
    if (!(await repos.jobs.reschedule(sealJobKey(row.public_id), now))) {
      await repos.jobs.enqueue({ kind: SEAL_JOB, key: sealJobKey(row.public_id), runAt: now, payload });
    }
  }

  function notify(event: DrawnEvent) {
    const report = deps.reportError ?? (() => {});
    for (const listener of listeners) {
      // After the response is on its way, and isolated: a listener can neither delay nor fail a draw.
      setImmediate(() => {
        try {
          Promise.resolve(listener(event)).catch(report);
        } catch (error) {
          report(error);
        }
      });
    }
  }

  const forTheBot = createGiveawayConsole({
    db,
    publicBaseUrl: deps.publicBaseUrl,
    giveaways,
    participants,
    seals,
    conditions,
    checks,
    receipts,
    find,
    owned,
    closed,
    drawInstant: async (ctx, row) => {
      const { response, event } = await draw(ctx, row);
      notify(event);
      return response.certificate_id;
    },
    seal: sealer,
    sealSoon,
  });

  return {
    ...forTheBot,

    list: (accountId: string, query: ListQuery): Promise<ListPage> => listPage(giveaways, accountId, query),

    async create(accountId: string, input: NewGiveawayInput, bot?: BotGiveawayOptions): Promise<Giveaway> {
      const now = clock.now().getTime();
      const checked = checkNewGiveaway(input, now);
      const row = await uow.run(async (trx) => {
        const inserted = await trx.giveaways.insert({
          public_id: newPublicId(),
          account_id: accountId,
          title: checked.title,
          description: checked.description,
          winners_count: checked.winnersCount,
          reserve_count: checked.reserveCount,
          draw_mode: checked.drawMode,
          ends_at: checked.endsAt,
          status: 'active',
          created_at: now,
          drawn_at: null,
          certificate_id: null,
          sealed_at: null,
          join_challenge: bot?.joinChallenge ? 1 : 0,
        });
        if (bot) {
          // The giveaway, its conditions and the promise of its channel post commit together.
          await trx.conditions.insert(inserted.id, bot.conditions);
          await trx.channelPosts.insert(inserted.id, bot.post.chatId, bot.post.language, now);
          await trx.jobs.enqueue(
            channelPostJob(inserted.public_id, { giveawayId: inserted.id, kind: 'giveaway' }, now),
          );
        }
        // The seal at ends_at is a promise kept by the jobs table, committed with the giveaway.
        if (checked.endsAt !== null) {
          const payload: SealJobPayload = { giveawayId: inserted.id };
          await trx.jobs.enqueue({
            kind: SEAL_JOB,
            key: sealJobKey(inserted.public_id),
            runAt: checked.endsAt,
            payload,
          });
        }
        return inserted;
      });
      return full(row);
    },

    async get(accountId: string, publicId: string): Promise<Giveaway> {
      return full(await owned(accountId, publicId));
    },

    async addParticipants(accountId: string, publicId: string, list: ParticipantInput[]) {
      const added = await enter(await owned(accountId, publicId), list);
      return {
        added: added.added,
        duplicates: added.duplicates,
        participants_count: added.participantsCount,
      };
    },

    /**
     * The bot's join: stored (and committed) before this resolves, so a failed reply loses
     * nothing. A giveaway's channel conditions are checked first; a join that does not meet
     * them stores nothing and throws ConditionNotMet.
     */
    async join(publicId: string, participant: ParticipantInput): Promise<JoinResult> {
      const id = participant.telegram_id;
      if (!Number.isSafeInteger(id) || id < 1) {
        throw new AppError('invalid_parameter', `telegram_id must be a positive integer, got ${id}`, {
          errors: [{ parameter: 'telegram_id', message: 'must be a positive integer' }],
        });
      }
      const row = await find(publicId);
      if (row.status !== 'active') throw closed(row.status);
      const unmet = await checks.unmetAtJoin(row.id, id);
      if (unmet) throw new ConditionNotMet(unmet, { public_id: row.public_id, title: row.title });
      const added = await enter(row, [participant]);
      const entrant = await participants.entrantById(row.id, id);
      return {
        status: added.added === 1 ? 'joined' : 'duplicate',
        entryNumber: added.entryNumbers[0],
        giveaway: { public_id: row.public_id, title: row.title },
        receiptUrl: entrant
          ? entrantReceiptUrl(deps.publicBaseUrl, row.public_id, id, entrant.salt)
          : undefined,
      };
    },

    async draw(ctx: OperationContext, publicId: string): Promise<DrawOutcome> {
      const row = await owned(ctx.accountId, publicId);
      if (row.status === 'active') await refuseWhileChecking(row);
      if (row.draw_mode !== 'verifiable') {
        const { response, event } = await draw(ctx, row);
        notify(event);
        return { status: 200, body: await logViews.withLogIndices(response) };
      }
      const result = await verifiable.drawCall(ctx, row);
      const now = (await giveaways.findById(row.id)) ?? row;
      if (result.kind === 'pending') {
        return { status: 202, giveaway: await full(now), retryAfterSeconds: result.retryAfterSeconds };
      }
      return {
        status: 200,
        body: await logViews.withLogIndices(drawnResponseOf(result.draw, deps.publicBaseUrl)),
      };
    },

    /** Closes entries now and commits to a future drand round, without waiting for it. */
    async seal(ctx: OperationContext, publicId: string): Promise<Giveaway> {
      const row = await owned(ctx.accountId, publicId);
      if (row.status === 'active') await refuseWhileChecking(row);
      await sealer(row, ctx);
      return full((await giveaways.findById(row.id))!);
    },

    async entrants(
      accountId: string,
      publicId: string,
      query: { limit: number; cursor?: string | undefined },
    ) {
      return receipts.entrantsPage(await owned(accountId, publicId), query);
    },

    async receipt(accountId: string, publicId: string, telegramId: number) {
      return receipts.receipt(await owned(accountId, publicId), telegramId);
    },

    /** The public, keyless side: /g pages, proofs and tickets. */
    public: createPublicGiveaways({
      findByPublicId: async (publicId) =>
        isPublicId(publicId) ? giveaways.findByPublicId(publicId) : undefined,
      sealOf,
      receipts,
      conditions,
      logIndexOf: (kind, id) => transparency.indexOf(kind, id),
      publicBaseUrl: deps.publicBaseUrl,
      drand: { chain_hash: deps.drand.chain.hash, relay: deps.drandRelay },
    }),

    /** The background work of verifiable giveaways, for the job runner. */
    jobHandlers: verifiable.handlers,

    /** Checks run now; rows are read page by page as the returned iterable is consumed. */
    async participantsCsv(accountId: string, publicId: string, options: { bom: boolean }) {
      const row = await owned(accountId, publicId);
      const certificate = await certificateOf(row.certificate_id);
      const winners = new Set(certificate?.winners.map((w) => w.telegram_id));
      return {
        filename: `participants-${row.public_id}.csv`,
        lines: participantCsvLines(participants, row.id, winners, options.bom),
      };
    },

    /** Called after each draw commits; returns a function that removes the listener. */
    onDrawn(listener: DrawnListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** For the bot, which learns its username (getMe) after the services are built. */
    setJoinUrl(fn: JoinUrl | undefined): void {
      joinUrl = fn;
    },

    certificates: {
      /** The sealed certificate as issued, for the public verification pages. */
      get: logViews.publishedCertificate,
    },
  };
}

export type GiveawayService = ReturnType<typeof createGiveawayService>;

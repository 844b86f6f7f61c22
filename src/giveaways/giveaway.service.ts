import type { AmendmentReason } from '../proof/amendments.ts';
import { NO_TIMESTAMPS, type Timestamps } from '../timestamps/timestamp.service.ts';
import { createAmendmentService } from './amendments/amendment.service.ts';
import { type ReplaceResponse, replaceResponseOf } from './amendments/amendment-views.ts';
import { createConditionChecks, type MembershipCheck } from './conditions/condition-check.ts';
import type { GiveawayRow } from './core/giveaway.repository.ts';
import { isPublicId } from './core/ids.ts';
import { createEntrantReceipts } from './entrants/entrant-receipts.ts';
import { type ClosingDeps, createGiveawayClosing } from './giveaway-closing.ts';
import { createGiveawayConsole } from './giveaway-console.ts';
import { createGiveawayCreation } from './giveaway-creation.ts';
import { createGiveawayEntry } from './giveaway-entry.ts';
import { createGiveawayLookup, type JoinUrl } from './giveaway-lookup.ts';
import type { GiveawayRepositories } from './giveaway-store.ts';
import { participantCsvLines } from './results/csv-lines.ts';
import { withAmendments } from './results/giveaway.views.ts';
import { type ListPage, type ListQuery, listPage } from './results/giveaway-cursor.ts';
import { createLogViews } from './results/giveaway-log-views.ts';
import { createOrganizerRecords } from './results/organizer-record.ts';
import { createPublicGiveaways } from './results/public-giveaway.ts';

export type { ReplaceResponse } from './amendments/amendment-views.ts';
export { ConditionNotMet } from './conditions/condition-check.ts';
export type { ParticipantInput } from './entrants/participants.ts';
export type { JoinResult } from './giveaway-entry.ts';
export type { JoinUrl } from './giveaway-lookup.ts';

export interface GiveawayServiceDeps
  extends Omit<ClosingDeps, 'repos' | 'log' | 'checks' | 'lookup' | 'logViews' | 'timestamps'> {
  /** The repositories outside any transaction, for reads; writes go through `uow`. */
  repos: GiveawayRepositories;
  /** DRAND_URL: where the public pages tell browsers to fetch the round themselves. */
  drandRelay: string;
  log?: ClosingDeps['log'] | undefined;
  /** Set when the Telegram bot runs: its `https://t.me/<bot>?start=g_<public_id>` link. */
  joinUrl?: JoinUrl | undefined;
  /** Outside timestamps of seals and certificates (CONTRACT §13); none when not given. */
  timestamps?: Pick<Timestamps, 'promise' | 'stamp' | 'of'> | undefined;
  /** Owners' pseudonyms: given at the seal, read as they stand for the public pages. */
  owners: ClosingDeps['owners'] & { pseudonymOf(accountId: string): Promise<string | null> };
}

/** Giveaways for the API, the bot and the public pages: the rules, over repositories and a unit of work. */
export function createGiveawayService(deps: GiveawayServiceDeps) {
  const { uow, repos, clock, transparency, publicBaseUrl } = deps;
  const { giveaways, participants, seals, conditions } = repos;
  const log = deps.log ?? { warn: () => {} };
  const timestamps = deps.timestamps ?? NO_TIMESTAMPS;
  const sealTimestampsOf = (sealId: string) => timestamps.of('seal', sealId);
  const checks = createConditionChecks({ conditions, clock, log });
  const logViews = createLogViews({
    giveaways,
    transparency,
    timestamps,
    amendmentsOf: (giveawayId) => repos.amendments.signedOf(giveawayId),
  });
  const receipts = createEntrantReceipts({
    participants,
    leaves: repos.leaves,
    seals,
    signer: deps.signer,
    publicBaseUrl,
    sealTimestampsOf,
  });
  const lookup = createGiveawayLookup({
    giveaways,
    seals,
    terms: repos.terms,
    transparency,
    timestamps,
    publicBaseUrl,
    joinUrl: deps.joinUrl,
  });
  const closing = createGiveawayClosing({ ...deps, log, checks, lookup, logViews, timestamps });
  const entry = createGiveawayEntry({ uow, clock, giveaways, participants, checks, lookup, publicBaseUrl });
  const afterDraw = createAmendmentService({
    uow,
    amendments: repos.amendments,
    giveaways,
    conditions,
    certificateOf: (row) => lookup.certificateOf(row.certificate_id),
    signer: deps.signer,
    clock,
    log,
  });

  /** The API's giveaway, with the signed amendments and the winners after them once there are any. */
  async function viewWithAmendments(row: GiveawayRow) {
    const view = await lookup.view(row);
    if (row.status !== 'completed' || row.draw_mode !== 'verifiable') return view;
    return withAmendments(view, await afterDraw.signedOf(row.id));
  }

  const forTheBot = createGiveawayConsole({
    ...repos,
    publicBaseUrl,
    checks,
    receipts,
    lookup,
    drawInstant: closing.drawInstant,
    seal: closing.sealer,
    beginSeal: closing.beginSeal,
    standing: afterDraw.standing,
  });

  return {
    ...forTheBot,
    ...entry,

    list: (accountId: string, query: ListQuery): Promise<ListPage> => listPage(giveaways, accountId, query),

    create: createGiveawayCreation({ uow, clock, view: (row) => lookup.view(row) }),

    async get(accountId: string, publicId: string) {
      return viewWithAmendments(await lookup.owned(accountId, publicId));
    },

    /** CONTRACT §14: the owner replaces the winner at `position` by the next unused reserve. */
    async replaceWinner(
      accountId: string,
      publicId: string,
      position: number,
      request: { reason: AmendmentReason; note?: string | undefined },
    ): Promise<ReplaceResponse> {
      const row = await lookup.owned(accountId, publicId);
      return replaceResponseOf(await afterDraw.replace(row, position, request));
    },

    /** CONTRACT §14: the owner records that the winner at `position` claimed the prize. */
    async claimWinner(accountId: string, publicId: string, position: number) {
      return afterDraw.claim(await lookup.owned(accountId, publicId), position, { by: 'owner' });
    },

    /** The bot's Claim button: the winner at `position` claims for themselves. */
    async claimAsWinner(publicId: string, position: number, telegramId: number) {
      return afterDraw.claim(await lookup.find(publicId), position, { by: 'winner', telegramId });
    },

    /** The bot's console: the owner's drawn giveaway with its winners as they stand. */
    async standingOf(accountId: string, publicId: string) {
      const row = await lookup.owned(accountId, publicId);
      return { title: row.title, publicId: row.public_id, standing: await afterDraw.standing(row) };
    },

    /**
     * The bot's Replace buttons: like `replaceWinner`, for the winner the buttons were shown for
     * (`expectedIndex`), so a press after someone else's replacement changes nothing.
     */
    async replaceFromConsole(
      accountId: string,
      publicId: string,
      position: number,
      reason: AmendmentReason,
      expectedIndex: number,
    ) {
      const row = await lookup.owned(accountId, publicId);
      return replaceResponseOf(await afterDraw.replace(row, position, { reason }, { expectedIndex }));
    },

    draw: closing.draw,
    seal: closing.seal,

    async entrants(
      accountId: string,
      publicId: string,
      query: { limit: number; cursor?: string | undefined },
    ) {
      return receipts.entrantsPage(await lookup.owned(accountId, publicId), query);
    },

    async receipt(accountId: string, publicId: string, telegramId: number) {
      return receipts.receipt(await lookup.ownedIdentity(accountId, publicId), telegramId);
    },

    /** The public, keyless side: /g pages, proofs and tickets. */
    public: createPublicGiveaways({
      findByPublicId: async (publicId) =>
        isPublicId(publicId) ? giveaways.findByPublicId(publicId) : undefined,
      sealOf: lookup.sealOf,
      receipts,
      conditions,
      logIndexOf: (kind, id) => transparency.indexOf(kind, id),
      sealTimestampsOf,
      publicBaseUrl,
      drand: { chain_hash: deps.drand.chain.hash, relay: deps.drandRelay },
      ownerOf: (row) => deps.owners.pseudonymOf(row.account_id),
      termsOf: lookup.termsOf,
      organizers: createOrganizerRecords({ log: transparency }),
    }),

    /** The background work of verifiable giveaways, for the job runner. */
    jobHandlers: { ...closing.jobHandlers, ...afterDraw.jobHandlers },

    /** Set by the bot when it runs: channel memberships (joins, the seal's re-check, `left_channel`). */
    setMembership(check: MembershipCheck | undefined): void {
      forTheBot.setMembership(check);
      afterDraw.setMembership(check);
    },

    /** Checks run now; rows are read page by page as the returned iterable is consumed. */
    async participantsCsv(accountId: string, publicId: string, options: { bom: boolean }) {
      const row = await lookup.owned(accountId, publicId);
      const certificate = await lookup.certificateOf(row.certificate_id);
      const winners = new Set(certificate?.winners.map((w) => w.telegram_id));
      return {
        filename: `participants-${row.public_id}.csv`,
        lines: participantCsvLines(participants, row.id, winners, options.bom),
      };
    },

    /** For the bot, which learns its username (getMe) after the services are built. */
    setJoinUrl: lookup.setJoinUrl,

    certificates: {
      /** The sealed certificate as issued, for the public verification pages. */
      get: logViews.publishedCertificate,
    },
  };
}

export type GiveawayService = ReturnType<typeof createGiveawayService>;

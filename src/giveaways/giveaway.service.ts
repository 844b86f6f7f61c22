import { createConditionChecks } from './conditions/condition-check.ts';
import { isPublicId } from './core/ids.ts';
import { createEntrantReceipts } from './entrants/entrant-receipts.ts';
import { type ClosingDeps, createGiveawayClosing } from './giveaway-closing.ts';
import { createGiveawayConsole } from './giveaway-console.ts';
import { createGiveawayCreation } from './giveaway-creation.ts';
import { createGiveawayEntry } from './giveaway-entry.ts';
import { createGiveawayLookup, type JoinUrl } from './giveaway-lookup.ts';
import type { GiveawayRepositories } from './giveaway-store.ts';
import { participantCsvLines } from './results/csv-lines.ts';
import { type ListPage, type ListQuery, listPage } from './results/giveaway-cursor.ts';
import { createLogViews } from './results/giveaway-log-views.ts';
import { createPublicGiveaways } from './results/public-giveaway.ts';

export { ConditionNotMet } from './conditions/condition-check.ts';
export type { ParticipantInput } from './entrants/participants.ts';
export type { JoinResult } from './giveaway-entry.ts';
export type { JoinUrl } from './giveaway-lookup.ts';
export { CSV_PAGE_ROWS } from './results/csv-lines.ts';

export interface GiveawayServiceDeps
  extends Omit<ClosingDeps, 'repos' | 'log' | 'checks' | 'lookup' | 'logViews'> {
  /** The repositories outside any transaction, for reads; writes go through `uow`. */
  repos: GiveawayRepositories;
  /** DRAND_URL: where the public pages tell browsers to fetch the round themselves. */
  drandRelay: string;
  log?: ClosingDeps['log'] | undefined;
  /** Set when the Telegram bot runs: its `https://t.me/<bot>?start=g_<public_id>` link. */
  joinUrl?: JoinUrl | undefined;
}

/** Giveaways for the API, the bot and the public pages: the rules, over repositories and a unit of work. */
export function createGiveawayService(deps: GiveawayServiceDeps) {
  const { uow, repos, clock, transparency, publicBaseUrl } = deps;
  const { giveaways, participants, seals, conditions } = repos;
  const log = deps.log ?? { warn: () => {} };
  const checks = createConditionChecks({ conditions, clock, log });
  const logViews = createLogViews({ giveaways, transparency });
  const receipts = createEntrantReceipts({ participants, seals, signer: deps.signer, publicBaseUrl });
  const lookup = createGiveawayLookup({
    giveaways,
    seals,
    transparency,
    publicBaseUrl,
    joinUrl: deps.joinUrl,
  });
  const closing = createGiveawayClosing({ ...deps, log, checks, lookup, logViews });
  const entry = createGiveawayEntry({ uow, clock, giveaways, participants, checks, lookup, publicBaseUrl });

  const forTheBot = createGiveawayConsole({
    ...repos,
    publicBaseUrl,
    checks,
    receipts,
    lookup,
    drawInstant: closing.drawInstant,
    seal: closing.sealer,
    beginSeal: closing.beginSeal,
  });

  return {
    ...forTheBot,
    ...entry,

    list: (accountId: string, query: ListQuery): Promise<ListPage> => listPage(giveaways, accountId, query),

    create: createGiveawayCreation({ uow, clock, view: (row) => lookup.view(row) }),

    async get(accountId: string, publicId: string) {
      return lookup.view(await lookup.owned(accountId, publicId));
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
      return receipts.receipt(await lookup.owned(accountId, publicId), telegramId);
    },

    /** The public, keyless side: /g pages, proofs and tickets. */
    public: createPublicGiveaways({
      findByPublicId: async (publicId) =>
        isPublicId(publicId) ? giveaways.findByPublicId(publicId) : undefined,
      sealOf: lookup.sealOf,
      receipts,
      conditions,
      logIndexOf: (kind, id) => transparency.indexOf(kind, id),
      publicBaseUrl,
      drand: { chain_hash: deps.drand.chain.hash, relay: deps.drandRelay },
    }),

    /** The background work of verifiable giveaways, for the job runner. */
    jobHandlers: closing.jobHandlers,

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

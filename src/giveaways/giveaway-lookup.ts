import type { LogService } from '../log/log.service.ts';
import type { Seal } from '../proof/v2-types.ts';
import { AppError } from '../shared/errors.ts';
import { createKeptResults } from '../shared/kept-results.ts';
import type { Stamp, Timestamps } from '../timestamps/timestamp.service.ts';
import type { AnyCertificate, GiveawayRepository, GiveawayRow } from './core/giveaway.repository.ts';
import { isCertificateId, isPublicId } from './core/ids.ts';
import type { SealRepository } from './core/seal.repository.ts';
import type { TermsRepository } from './core/terms.repository.ts';
import { type Giveaway, giveawayOf } from './results/giveaway.views.ts';

export type JoinUrl = (publicId: string) => string;

const notFound = () => new AppError('not_found', 'No giveaway has this id');
const forbidden = () => new AppError('forbidden', 'This giveaway belongs to another account');

/** A giveaway's ids and owner: fixed at its creation. */
export type GiveawayIdentity = Pick<GiveawayRow, 'id' | 'public_id' | 'account_id'>;

/** Identities `ownedIdentity` keeps at most (about 100 bytes each); the least recently used goes first. */
const KEPT_IDENTITIES = 10_000;

/** The refusal for an entry that found the giveaway no longer active. */
export function closed(status: string | undefined): AppError {
  if (status === 'sealing') {
    return new AppError(
      'giveaway_sealed',
      'Entries are closed: the entrants are being checked before the seal and no entrant can be added',
    );
  }
  if (status === 'sealed') {
    return new AppError(
      'giveaway_sealed',
      'Entries are closed: the entrant list is sealed and no entrant can be added',
    );
  }
  return new AppError(
    'giveaway_completed',
    'This giveaway has been drawn and no longer accepts participants',
  );
}

/**
 * How the giveaway service finds a giveaway (with the API's and the bot's refusals alike) and
 * shows it as the API does.
 */
export function createGiveawayLookup(deps: {
  giveaways: Pick<GiveawayRepository, 'findByPublicId' | 'findCertificate'>;
  seals: Pick<SealRepository, 'find'>;
  terms: Pick<TermsRepository, 'of'>;
  transparency: Pick<LogService, 'indexOf'>;
  /** The RFC 3161 tokens kept for seals (CONTRACT §13). */
  timestamps: Pick<Timestamps, 'of'>;
  publicBaseUrl: string;
  /** Set when the Telegram bot runs: its `https://t.me/<bot>?start=g_<public_id>` link. */
  joinUrl?: JoinUrl | undefined;
}) {
  const { giveaways, seals, transparency, publicBaseUrl } = deps;
  let joinUrl = deps.joinUrl;
  const identities = createKeptResults<GiveawayIdentity>(KEPT_IDENTITIES);

  async function find(publicId: string): Promise<GiveawayRow> {
    const row = isPublicId(publicId) ? await giveaways.findByPublicId(publicId) : undefined;
    if (!row) throw notFound();
    return row;
  }

  /** Unknown → 404 whatever the id's form; another account's → 403. */
  async function owned(accountId: string, publicId: string): Promise<GiveawayRow> {
    const row = await find(publicId);
    if (row.account_id !== accountId) throw forbidden();
    return row;
  }

  async function certificateOf(id: string | null): Promise<AnyCertificate | undefined> {
    if (id === null || !isCertificateId(id)) return undefined;
    const row = await giveaways.findCertificate(id);
    return row ? (JSON.parse(row.body) as AnyCertificate) : undefined;
  }

  /** The terms' text: read only for a giveaway that has terms (its row holds their hash). */
  async function termsOf(row: GiveawayRow): Promise<string | null> {
    if (row.terms_sha256 === null || row.terms_sha256 === undefined) return null;
    return (await deps.terms.of(row.id)) ?? null;
  }

  async function sealOf(row: GiveawayRow): Promise<Seal | undefined> {
    if (row.status === 'active' || row.status === 'sealing' || row.draw_mode !== 'verifiable')
      return undefined;
    const found = await seals.find(row.id);
    return found ? (JSON.parse(found.body) as Seal) : undefined;
  }

  return {
    find,
    certificateOf,
    sealOf,
    termsOf,

    owned,

    /**
     * What never changes of an owned giveaway (its ids), for a request that needs nothing else:
     * kept in memory once read, so such a request spends no query on it.
     */
    async ownedIdentity(accountId: string, publicId: string): Promise<GiveawayIdentity> {
      const identity = await identities.get(publicId, async () => {
        const { id, public_id, account_id } = await find(publicId);
        return { id, public_id, account_id };
      });
      if (identity.account_id !== accountId) throw forbidden();
      return identity;
    },

    /** The giveaway as the API shows it; `known` is what the caller just wrote, not read again. */
    async view(
      row: GiveawayRow,
      known: { seal?: Seal; sealLogIndex?: number; sealTimestamps?: readonly Stamp[] } = {},
    ): Promise<Giveaway> {
      const seal = known.seal ?? (await sealOf(row));
      return giveawayOf(row, {
        joinUrl: joinUrl?.(row.public_id),
        publicBaseUrl,
        certificate: await certificateOf(row.certificate_id),
        terms: await termsOf(row),
        seal,
        sealLogIndex: seal
          ? (known.sealLogIndex ?? (await transparency.indexOf('seal', seal.seal_id)))
          : null,
        sealTimestamps: seal
          ? (known.sealTimestamps ?? (await deps.timestamps.of('seal', seal.seal_id)))
          : undefined,
      });
    },

    setJoinUrl(fn: JoinUrl | undefined): void {
      joinUrl = fn;
    },
  };
}

export type GiveawayLookup = ReturnType<typeof createGiveawayLookup>;

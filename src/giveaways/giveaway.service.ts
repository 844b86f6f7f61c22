import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import { createOperationRepository } from '../randomness/operation.repository.ts';
import type { OperationContext, RandomService } from '../randomness/random.service.ts';
import type { Database } from '../store/schema.ts';
import type { Certificate } from './certificate.ts';
import { CSV_HEADER, csvRowLine, UTF8_BOM } from './csv.ts';
import { createGiveawayRepository, type GiveawayRow, type GiveawayStatus } from './giveaway.repository.ts';
import { type Giveaway, type GiveawaySummary, giveawayOf, summaryOf } from './giveaway.views.ts';
import { createDrawer, type DrawnEvent } from './giveaway-draw.ts';
import { isCertificateId, isPublicId, newPublicId } from './ids.ts';
import { type CsvPosition, createParticipantRepository } from './participant.repository.ts';
import { addParticipants, type ParticipantInput } from './participants.ts';
import type { Signer } from './signer.ts';

export type { DrawnEvent } from './giveaway-draw.ts';
export type { ParticipantInput } from './participants.ts';

export const TITLE_MAX = 200;
export const CSV_PAGE_ROWS = 5000;

export type JoinUrl = (publicId: string) => string;
export type DrawnListener = (event: DrawnEvent) => void | Promise<void>;

interface Deps {
  db: Kysely<Database>;
  random: Pick<RandomService, 'operate' | 'rows'>;
  clock: Clock;
  signer: Signer;
  publicBaseUrl: string;
  /** Set when the Telegram bot runs: its `https://t.me/<bot>?start=g_<public_id>` link. */
  joinUrl?: JoinUrl | undefined;
  /** Where a failing onDrawn listener is reported; it never reaches the draw. */
  reportError?: (error: unknown) => void;
}

export interface ListQuery {
  status?: GiveawayStatus | undefined;
  limit: number;
  cursor?: string | undefined;
}

export interface JoinResult {
  status: 'joined' | 'duplicate';
  entryNumber: number;
  giveaway: { public_id: string; title: string };
}

const CURSOR = /^g1\.([1-9][0-9]{0,15})$/;
const encodeCursor = (id: number) => Buffer.from(`g1.${id}`).toString('base64url');

function decodeCursor(cursor: string): number {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const id = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(id)) {
    throw new AppError('invalid_parameter', 'cursor is not one this API issued', {
      errors: [{ parameter: 'cursor', message: 'must be a next_cursor value from a previous page' }],
    });
  }
  return id;
}

function checkTitle(raw: string): string {
  const title = raw.trim();
  const length = [...title].length;
  if (length < 1 || length > TITLE_MAX) {
    const message = `must be 1–${TITLE_MAX} characters after trimming (got ${length})`;
    throw new AppError('invalid_parameter', `title ${message}`, {
      errors: [{ parameter: 'title', message }],
    });
  }
  return title;
}

const notFound = () => new AppError('not_found', 'No giveaway has this id');
const completed = () =>
  new AppError('giveaway_completed', 'This giveaway has been drawn and no longer accepts participants');

export function createGiveawayService(deps: Deps) {
  const { db, clock } = deps;
  const giveaways = createGiveawayRepository(db);
  const participants = createParticipantRepository(db);
  const draw = createDrawer({ ...deps, giveaways, participants, operations: createOperationRepository(db) });
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

  async function certificateOf(id: string | null): Promise<Certificate | undefined> {
    if (id === null || !isCertificateId(id)) return undefined;
    const row = await giveaways.findCertificate(id);
    return row ? (JSON.parse(row.body) as Certificate) : undefined;
  }

  const full = async (row: GiveawayRow): Promise<Giveaway> =>
    giveawayOf(row, {
      joinUrl: joinUrl?.(row.public_id),
      publicBaseUrl: deps.publicBaseUrl,
      certificate: await certificateOf(row.certificate_id),
    });

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

  return {
    async list(
      accountId: string,
      query: ListQuery,
    ): Promise<{
      giveaways: GiveawaySummary[];
      total: number;
      next_cursor: string | null;
    }> {
      const beforeId = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      const filter = { accountId, status: query.status };
      const rows = await giveaways.list({ ...filter, beforeId, limit: query.limit + 1 });
      const page = rows.slice(0, query.limit);
      const more = rows.length > query.limit;
      return {
        giveaways: page.map(summaryOf),
        total: await giveaways.count(filter),
        next_cursor: more ? encodeCursor(page[page.length - 1].id) : null,
      };
    },

    async create(
      accountId: string,
      input: { title: string; winners_count: number; description?: string | undefined },
    ): Promise<Giveaway> {
      const row = await giveaways.insert({
        public_id: newPublicId(),
        account_id: accountId,
        title: checkTitle(input.title),
        description: input.description ?? null,
        winners_count: input.winners_count,
        status: 'active',
        created_at: clock.now().getTime(),
        drawn_at: null,
        certificate_id: null,
      });
      return full(row);
    },

    async get(accountId: string, publicId: string): Promise<Giveaway> {
      return full(await owned(accountId, publicId));
    },

    async addParticipants(accountId: string, publicId: string, list: ParticipantInput[]) {
      const row = await owned(accountId, publicId);
      if (row.status !== 'active') throw completed();
      const added = await addParticipants({ db, giveaways, participants, clock }, row, list);
      if (!added) throw completed();
      return {
        added: added.added,
        duplicates: added.duplicates,
        participants_count: added.participantsCount,
      };
    },

    /** The bot's join: stored (and committed) before this resolves, so a failed reply loses nothing. */
    async join(publicId: string, participant: ParticipantInput): Promise<JoinResult> {
      const id = participant.telegram_id;
      if (!Number.isSafeInteger(id) || id < 1) {
        throw new AppError('invalid_parameter', `telegram_id must be a positive integer, got ${id}`, {
          errors: [{ parameter: 'telegram_id', message: 'must be a positive integer' }],
        });
      }
      const row = await find(publicId);
      if (row.status !== 'active') throw completed();
      const added = await addParticipants({ db, giveaways, participants, clock }, row, [participant]);
      if (!added) throw completed();
      return {
        status: added.added === 1 ? 'joined' : 'duplicate',
        entryNumber: added.entryNumbers[0],
        giveaway: { public_id: row.public_id, title: row.title },
      };
    },

    async draw(ctx: OperationContext, publicId: string) {
      const { response, event } = await draw(ctx, await owned(ctx.accountId, publicId));
      notify(event);
      return response;
    },

    /** Checks run now; rows are read page by page as the returned iterable is consumed. */
    async participantsCsv(accountId: string, publicId: string, options: { bom: boolean }) {
      const row = await owned(accountId, publicId);
      const certificate = await certificateOf(row.certificate_id);
      const winners = new Set(certificate?.winners.map((w) => w.telegram_id));
      async function* lines(): AsyncGenerator<string> {
        yield (options.bom ? UTF8_BOM : '') + CSV_HEADER;
        let after: CsvPosition | undefined;
        for (;;) {
          const page = await participants.csvPage(row.id, after, CSV_PAGE_ROWS);
          const parts = new Array<string>(page.length);
          for (let i = 0; i < page.length; i++) parts[i] = csvRowLine(page[i], winners.has(page[i][0]));
          if (parts.length > 0) yield parts.join('');
          if (page.length < CSV_PAGE_ROWS) return;
          const last = page[page.length - 1];
          after = { second: Math.floor(last[3] / 1000), telegramId: last[0] };
        }
      }
      return { filename: `participants-${row.public_id}.csv`, lines: lines() };
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
      get: async (certificateId: string): Promise<Certificate | undefined> => certificateOf(certificateId),
    },
  };
}

export type GiveawayService = ReturnType<typeof createGiveawayService>;

import type { Kysely } from 'kysely';
import type { JobRepository } from '../jobs/job.repository.ts';
import type { Seal } from '../proof/v2-types.ts';
import type { Database } from '../store/schema.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import {
  channelPostJob,
  hasChannelPost,
  SEALED_JOB,
  type SealedJobPayload,
  WINNERS_JOB,
  type WinnersJobPayload,
} from './bot-jobs.ts';
import type { ParticipantRow } from './entrants/participant.repository.ts';
import type { GiveawayRow } from './giveaway.repository.ts';
import { type AnyCertificate, giveawayOf } from './results/giveaway.views.ts';

/**
 * The webhook events of a giveaway's life (CONTRACT §9), recorded in the transaction of the
 * change. `data` is the giveaway as the API shows it at that moment (without `join_url`, which
 * depends on the running bot), plus what the event adds: the entrant for `participant.joined`,
 * `certificate_id` and `verify_url` (already part of a drawn giveaway) for `giveaway.drawn`.
 */
/** When the bot runs: the transaction's handle and jobs, for the promises made to it. */
export interface BotPromises {
  handle: Kysely<Database>;
  jobs: Pick<JobRepository, 'enqueue'>;
}

export function createGiveawayEvents(
  outbox: Outbox,
  publicBaseUrl: string,
  /** Given when the bot runs: each change also enqueues what the bot must say about it. */
  bot?: BotPromises,
) {
  const view = (
    row: GiveawayRow,
    extra: { seal?: Seal; sealLogIndex?: number | null; certificate?: AnyCertificate },
  ) => giveawayOf(row, { publicBaseUrl, ...extra });

  return {
    /** One event per new entrant, in entry order; `row` is the giveaway after the addition. */
    async joined(row: GiveawayRow, entrants: readonly ParticipantRow[]) {
      const giveaway = view(row, {});
      if (bot && entrants.length > 0 && (await hasChannelPost(bot.handle, row.id))) {
        const at = Number(entrants[0].joined_at);
        await bot.jobs.enqueue(channelPostJob(row.public_id, { giveawayId: row.id, kind: 'count' }, at));
      }
      return outbox.record(
        entrants.map((e) => ({
          accountId: row.account_id,
          type: 'participant.joined' as const,
          orderingKey: row.public_id,
          at: Number(e.joined_at),
          data: {
            ...giveaway,
            entrant: {
              telegram_id: Number(e.telegram_id),
              username: e.username,
              first_name: e.first_name,
              entry_number: Number(e.entry_number),
              joined_at: new Date(Number(e.joined_at)).toISOString(),
            },
          },
        })),
      );
    },

    async sealed(row: GiveawayRow, seal: Seal, sealLogIndex: number | null, at: number) {
      if (bot) {
        const payload: SealedJobPayload = { giveawayId: row.id };
        await bot.jobs.enqueue({
          kind: SEALED_JOB,
          key: `sealed:${row.public_id}`,
          runAt: at,
          payload,
          createdAt: at,
        });
      }
      return outbox.record([
        {
          accountId: row.account_id,
          type: 'giveaway.sealed',
          orderingKey: row.public_id,
          at,
          data: view(row, { seal, sealLogIndex }),
        },
      ]);
    },

    async drawn(
      row: GiveawayRow,
      certificate: AnyCertificate,
      at: number,
      seal?: Seal,
      sealLogIndex?: number | null,
    ) {
      const giveaway = view(row, { certificate, seal, sealLogIndex });
      if (bot) {
        const payload: WinnersJobPayload = {
          publicId: row.public_id,
          title: row.title,
          certificateId: certificate.certificate_id,
          verifyUrl: giveaway.verify_url!,
          winners: certificate.winners.map((w) => ({
            telegram_id: w.telegram_id,
            username: w.username,
            position: w.position,
          })),
        };
        await bot.jobs.enqueue({
          kind: WINNERS_JOB,
          key: `winners:${certificate.certificate_id}`,
          runAt: at,
          payload,
          createdAt: at,
        });
      }
      return outbox.record([
        {
          accountId: row.account_id,
          type: 'giveaway.drawn',
          orderingKey: row.public_id,
          at,
          data: { ...giveaway, certificate_id: certificate.certificate_id, verify_url: giveaway.verify_url },
        },
      ]);
    },
  };
}

export type GiveawayEvents = ReturnType<typeof createGiveawayEvents>;

import type { NewJob } from '../jobs/job.repository.ts';
import type { Seal } from '../proof/v2-types.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { GiveawayRow } from './giveaway.repository.ts';
import { type AnyCertificate, giveawayOf } from './giveaway.views.ts';
import type { DrawnEvent } from './giveaway-draw.ts';
import type { ParticipantRow } from './participant.repository.ts';

/**
 * The webhook events of a giveaway's life (CONTRACT §9), recorded in the transaction of the
 * change. `data` is the giveaway as the API shows it at that moment (without `join_url`, which
 * depends on the running bot), plus what the event adds: the entrant for `participant.joined`,
 * `certificate_id` and `verify_url` (already part of a drawn giveaway) for `giveaway.drawn`.
 */
/**
 * The promise to tell a draw's winners (the Telegram bot keeps it): one job per draw, in the
 * draw's transaction, so a crash between the draw and the messages loses none of them.
 */
export const WINNERS_JOB = 'winners.notify';
export type WinnersJobPayload = DrawnEvent;

export function createGiveawayEvents(
  outbox: Outbox,
  publicBaseUrl: string,
  /** Given when winners are told (the bot runs): where their job is enqueued. */
  winners?: { enqueue(job: NewJob): Promise<void> },
) {
  const view = (
    row: GiveawayRow,
    extra: { seal?: Seal; sealLogIndex?: number | null; certificate?: AnyCertificate },
  ) => giveawayOf(row, { publicBaseUrl, ...extra });

  return {
    /** One event per new entrant, in entry order; `row` is the giveaway after the addition. */
    joined(row: GiveawayRow, entrants: readonly ParticipantRow[]) {
      const giveaway = view(row, {});
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

    sealed(row: GiveawayRow, seal: Seal, sealLogIndex: number | null, at: number) {
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
      if (winners) {
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
        await winners.enqueue({
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

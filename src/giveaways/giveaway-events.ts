import type { Amendment } from '../proof/amendments.ts';
import type { Seal } from '../proof/v2-types.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { WebhookEvent } from '../webhooks/webhook-events.ts';
import type { AnyCertificate, GiveawayRow } from './core/giveaway.repository.ts';
import type { GiveawayPromises } from './core/giveaway-promises.ts';
import { giveawayOf } from './results/giveaway.views.ts';

/**
 * The webhook events of a giveaway's life (CONTRACT §9), recorded in the transaction of the
 * change. `data` is the giveaway as the API shows it at that moment (without `join_url`, which
 * depends on the running bot), plus what the event adds: the entrant for `participant.joined`,
 * `certificate_id` and `verify_url` (already part of a drawn giveaway) for `giveaway.drawn`, the
 * signed `amendment` and its `amendment_log_index` for `giveaway.amended` (the giveaway then
 * carries every amendment and its `amended_winners`).
 */
export function createGiveawayEvents(outbox: Outbox, publicBaseUrl: string): GiveawayPromises {
  const view = (
    row: GiveawayRow,
    extra: {
      seal?: Seal | undefined;
      sealLogIndex?: number | null;
      certificate?: AnyCertificate;
      amendments?: readonly Amendment[];
    },
  ) => {
    // The terms' text stays out of events (each join would repeat it); `terms_sha256` names them.
    const { terms: _text, ...giveaway } = giveawayOf(row, { publicBaseUrl, ...extra });
    return giveaway;
  };
  const recordOne = (row: GiveawayRow, type: WebhookEvent, at: number, data: object) =>
    outbox.record([{ accountId: row.account_id, type, orderingKey: row.public_id, at, data }]);

  return {
    // CONTRACT §9 has no event for a new giveaway: its creator is the one who asked for it.
    async created() {},

    async joined(row, entrants) {
      const giveaway = view(row, {});
      await outbox.record(
        entrants.map((e) => ({
          accountId: row.account_id,
          type: 'participant.joined' as const,
          orderingKey: row.public_id,
          at: Number(e.joined_at),
          data: () => ({
            ...giveaway,
            entrant: {
              telegram_id: Number(e.telegram_id),
              username: e.username,
              first_name: e.first_name,
              entry_number: Number(e.entry_number),
              joined_at: new Date(Number(e.joined_at)).toISOString(),
            },
          }),
        })),
      );
    },

    async sealed(row, seal, sealLogIndex, at) {
      await recordOne(row, 'giveaway.sealed', at, view(row, { seal, sealLogIndex }));
    },

    async drawn(row, certificate, at, seal, sealLogIndex) {
      const giveaway = view(row, { certificate, seal, sealLogIndex });
      await recordOne(row, 'giveaway.drawn', at, {
        ...giveaway,
        certificate_id: certificate.certificate_id,
        verify_url: giveaway.verify_url,
      });
    },

    async amended(row, change, at) {
      const giveaway = view(row, { certificate: change.certificate, amendments: change.amendments });
      await recordOne(row, 'giveaway.amended', at, {
        ...giveaway,
        amendment: change.amendment,
        amendment_log_index: change.logIndex,
      });
    },
  };
}

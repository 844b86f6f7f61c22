import type { LogService, SealWitness } from '../../log/log.service.ts';
import { type Amendment, amendedWinners } from '../../proof/amendments.ts';
import type { Timestamps } from '../../timestamps/timestamp.service.ts';
import type { AnyCertificate, GiveawayRepository } from '../core/giveaway.repository.ts';
import { isCertificateId } from '../core/ids.ts';
import type { PublishedCertificate } from './giveaway.views.ts';
import type { AnyDrawResponse, LoggedDrawResponse } from './giveaway-draw-views.ts';

/** What the giveaway service publishes with the log's entry numbers beside the signed objects. */
export function createLogViews(deps: {
  giveaways: Pick<GiveawayRepository, 'findCertificate'>;
  transparency: Pick<LogService, 'indexOf'>;
  /** The RFC 3161 tokens kept for seals and certificates (CONTRACT §13). */
  timestamps: Pick<Timestamps, 'of'>;
  /** A giveaway's signed amendments, in sequence (CONTRACT §14). */
  amendmentsOf?(giveawayId: number): Promise<Amendment[]>;
}) {
  const { giveaways, transparency } = deps;

  /**
   * The certificate as published: the signed object plus, beside it, its log index and RFC 3161
   * tokens and, for v2, its seal's index, tokens and witnessed checkpoint (CONTRACT §8, §13),
   * which no signature covers.
   */
  async function publishedCertificate(id: string): Promise<PublishedCertificate | undefined> {
    if (!isCertificateId(id)) return undefined;
    const row = await giveaways.findCertificate(id);
    if (!row) return undefined;
    const certificate = JSON.parse(row.body) as AnyCertificate;
    const published: PublishedCertificate = {
      ...certificate,
      log_index: await transparency.indexOf('certificate', id),
      certificate_timestamps: await deps.timestamps.of('certificate', id),
    };
    if ('seal' in certificate) {
      published.seal_log_index = await transparency.indexOf('seal', certificate.seal.seal_id);
      published.seal_timestamps = await deps.timestamps.of('seal', certificate.seal.seal_id);
      if (row.seal_witness !== null) published.seal_witness = JSON.parse(row.seal_witness) as SealWitness;
      const amendments = (await deps.amendmentsOf?.(row.giveaway_id)) ?? [];
      if (amendments.length > 0) {
        published.amendments = amendments;
        published.amended_winners = amendedWinners(certificate, amendments);
      }
    }
    return published;
  }

  /**
   * A draw's 200 with the log indices of its certificate (and seal) beside it: those the draw
   * itself just appended (`known`), else looked up.
   */
  async function withLogIndices(
    body: AnyDrawResponse,
    known?: { logIndex: number; sealLogIndex?: number | null },
  ): Promise<LoggedDrawResponse> {
    const log_index = known ? known.logIndex : await transparency.indexOf('certificate', body.certificate_id);
    if (body.algorithm !== 'tyche-draw-v2') return { ...body, log_index };
    const seal_log_index =
      known?.sealLogIndex === undefined
        ? await transparency.indexOf('seal', body.seal.seal_id)
        : known.sealLogIndex;
    return { ...body, log_index, seal_log_index };
  }

  return { publishedCertificate, withLogIndices };
}

export type LogViews = ReturnType<typeof createLogViews>;

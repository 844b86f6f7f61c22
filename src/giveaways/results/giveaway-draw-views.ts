import type { Seal } from '../../proof/v2-types.ts';
import type { DrawnEvent, DrawResponse } from '../draw/giveaway-draw.ts';
import type { CompletedDraw } from '../draw/giveaway-draw-v2.ts';
import type { GiveawayRow } from '../giveaway.repository.ts';
import { type Giveaway, verifyUrlOf } from './giveaway.views.ts';

/** The 200 of a draw, for either algorithm. */
export type AnyDrawResponse = DrawResponse | DrawResponseV2;
export interface DrawResponseV2 {
  winners: { username: string | null; telegram_id: number }[];
  reserves: { username: string | null; telegram_id: number }[];
  certificate_id: string;
  verify_url: string;
  qrng_source: 'drand';
  request_id: string;
  participants_count: number;
  seal: Seal;
  drawn_at: string;
  algorithm: 'tyche-draw-v2';
}

/** A draw's 200 with, beside the signed objects, their transparency-log entries. */
export type LoggedDrawResponse =
  | (DrawResponse & { log_index: number | null })
  | (DrawResponseV2 & { log_index: number | null; seal_log_index: number | null });

/** A draw call's outcome: drawn (200), or sealed and waiting for its round (202). */
export type DrawOutcome =
  | { status: 200; body: LoggedDrawResponse }
  | { status: 202; giveaway: Giveaway; retryAfterSeconds: number };

const person = (w: { username: string | null; telegram_id: number }) => ({
  username: w.username,
  telegram_id: w.telegram_id,
});

/** The 200 of a verifiable draw, the same for every caller whoever completed it. */
export function drawnResponseOf(done: CompletedDraw, publicBaseUrl: string): DrawResponseV2 {
  const cert = done.certificate;
  return {
    winners: cert.winners.map(person),
    reserves: cert.reserves.map(person),
    certificate_id: cert.certificate_id,
    verify_url: verifyUrlOf(publicBaseUrl, cert.certificate_id),
    qrng_source: 'drand',
    request_id: done.requestId,
    participants_count: cert.seal.entrants.count,
    seal: cert.seal,
    drawn_at: cert.drawn_at,
    algorithm: 'tyche-draw-v2',
  };
}

/** What the bot hears of a verifiable draw. */
export function drawnEventOf(row: GiveawayRow, done: CompletedDraw, publicBaseUrl: string): DrawnEvent {
  const certificateId = done.certificate.certificate_id;
  return {
    publicId: row.public_id,
    title: row.title,
    certificateId,
    verifyUrl: verifyUrlOf(publicBaseUrl, certificateId),
    winners: done.certificate.winners.map((w) => ({
      telegram_id: w.telegram_id,
      username: w.username,
      position: w.position,
    })),
  };
}

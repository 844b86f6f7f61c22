import { ALGORITHM } from '../../proof/draw-v1.ts';
import type { Seal } from '../../proof/v2-types.ts';
import type { SourceName } from '../../randomness/source.ts';
import type { InstantDraw } from '../draw/giveaway-draw.ts';
import type { CompletedDraw } from '../draw/giveaway-draw-v2.ts';
import { type Giveaway, verifyUrlOf, type Winner, winnersOf } from './giveaway.views.ts';

/** The 200 of an instant draw (tyche-draw-v1). */
export interface DrawResponse {
  winners: Winner[];
  certificate_id: string;
  verify_url: string;
  qrng_source: SourceName;
  request_id: string;
  participants_count: number;
  participants_hash: string;
  drawn_at: string;
  algorithm: typeof ALGORITHM;
}

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

/**
 * A draw call's outcome: drawn, or sealed and waiting for its committed round, which the caller
 * may ask about again after `retryAfterSeconds`.
 */
export type DrawOutcome =
  | { kind: 'drawn'; draw: LoggedDrawResponse }
  | { kind: 'pending'; giveaway: Giveaway; retryAfterSeconds: number };

const person = (w: { username: string | null; telegram_id: number }) => ({
  username: w.username,
  telegram_id: w.telegram_id,
});

/** The 200 of an instant draw, from what its transaction committed. */
export function instantResponseOf(done: InstantDraw, publicBaseUrl: string): DrawResponse {
  const cert = done.certificate;
  return {
    winners: winnersOf(cert),
    certificate_id: cert.certificate_id,
    verify_url: verifyUrlOf(publicBaseUrl, cert.certificate_id),
    qrng_source: done.source,
    request_id: done.requestId,
    participants_count: cert.participants_count,
    participants_hash: cert.participants_hash,
    drawn_at: cert.drawn_at,
    algorithm: ALGORITHM,
  };
}

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

import { AppError } from '../../shared/errors.ts';
import type { DrawMode } from './giveaway.repository.ts';

export const TITLE_MAX = 200;
export const WINNERS_MAX = 1000;
export const DESCRIPTION_MAX = 4000;
export const ENDS_AT_MIN_AHEAD_MS = 60_000;
export const ENDS_AT_MAX_AHEAD_MS = 366 * 86_400_000;
// RFC 3339 with its zone: a time without one would mean a different instant on every server.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

export interface NewGiveawayInput {
  title: string;
  winners_count: number;
  description?: string | undefined;
  ends_at?: string | undefined;
  draw_mode?: DrawMode | undefined;
  reserve_count?: number | undefined;
}

export interface CheckedGiveaway {
  title: string;
  description: string | null;
  winnersCount: number;
  reserveCount: number;
  drawMode: DrawMode;
  endsAt: number | null;
}

function invalid(parameter: string, message: string): AppError {
  return new AppError('invalid_parameter', `${parameter} ${message}`, { errors: [{ parameter, message }] });
}

export function checkTitle(raw: string): string {
  const title = raw.trim();
  const length = [...title].length;
  if (length < 1 || length > TITLE_MAX) {
    throw invalid('title', `must be 1–${TITLE_MAX} characters after trimming (got ${length})`);
  }
  return title;
}

export function checkEndsAt(raw: string, now: number): number {
  const at = RFC3339.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(at))
    throw invalid('ends_at', 'must be an RFC 3339 time with a zone, e.g. 2026-12-01T18:00:00Z');
  if (at < now + ENDS_AT_MIN_AHEAD_MS) throw invalid('ends_at', 'must be at least 60 seconds ahead');
  if (at > now + ENDS_AT_MAX_AHEAD_MS) throw invalid('ends_at', 'must be at most 366 days ahead');
  return at;
}

/** CONTRACT §3 "POST /api/v1/giveaways": everything the schema cannot say. */
export function checkNewGiveaway(input: NewGiveawayInput, now: number): CheckedGiveaway {
  const drawMode = input.draw_mode ?? 'verifiable';
  if (input.ends_at !== undefined && drawMode !== 'verifiable') {
    throw invalid(
      'ends_at',
      'applies to verifiable giveaways only: an instant giveaway is drawn when you call draw',
    );
  }
  if (
    !Number.isInteger(input.winners_count) ||
    input.winners_count < 1 ||
    input.winners_count > WINNERS_MAX
  ) {
    throw invalid('winners_count', `must be an integer from 1 to ${WINNERS_MAX}`);
  }
  if (input.description !== undefined && [...input.description].length > DESCRIPTION_MAX) {
    throw invalid('description', `must be at most ${DESCRIPTION_MAX} characters`);
  }
  return {
    title: checkTitle(input.title),
    description: input.description ?? null,
    winnersCount: input.winners_count,
    reserveCount: input.reserve_count ?? 0,
    drawMode,
    endsAt: input.ends_at === undefined ? null : checkEndsAt(input.ends_at, now),
  };
}

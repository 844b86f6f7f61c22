import { TERMS_MAX } from '../../proof/terms.ts';
import { AppError } from '../../shared/errors.ts';
import { controlCharacterMessage, hasControlCharacters } from '../../shared/text-rules.ts';
import type { DrawMode } from './giveaway.repository.ts';

export const TITLE_MAX = 200;
export const WINNERS_MAX = 1000;
export const DESCRIPTION_MAX = 4000;
export const ENDS_AT_MIN_AHEAD_MS = 60_000;
export const ENDS_AT_MAX_AHEAD_MS = 366 * 86_400_000;
export const CLAIM_WITHIN_MIN_MS = 3_600_000;
export const CLAIM_WITHIN_MAX_MS = 30 * 86_400_000;
// RFC 3339 with its zone: a time without one would mean a different instant on every server.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

export interface NewGiveawayInput {
  title: string;
  winners_count: number;
  description?: string | undefined;
  ends_at?: string | undefined;
  draw_mode?: DrawMode | undefined;
  reserve_count?: number | undefined;
  /** ISO 8601 duration, PT1H to P30D: how long each winner has to claim (CONTRACT §14). */
  claim_within?: string | undefined;
  /** The giveaway's rules, committed to by its seal (CONTRACT §14). */
  terms?: string | undefined;
}

export interface CheckedGiveaway {
  title: string;
  description: string | null;
  winnersCount: number;
  reserveCount: number;
  drawMode: DrawMode;
  endsAt: number | null;
  claimWithinMs: number | null;
  terms: string | null;
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

// Weeks, days and clock time only: years and months have no fixed length.
const DURATION = /^P(?:(\d{1,6})W|(?:(\d{1,6})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,6})M)?(?:(\d{1,7})S)?)?)$/;
const UNIT_MS = [7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000];

/** An ISO 8601 duration (`PT1H`, `P1DT12H`, `P2W` …) in milliseconds; NaN when it is not one. */
export function durationMs(text: string): number {
  const match = DURATION.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return Number.NaN;
  return match
    .slice(1)
    .reduce((sum, part, i) => sum + (part === undefined ? 0 : Number(part) * UNIT_MS[i]), 0);
}

/** Milliseconds as the ISO 8601 duration the API shows back: days, then hours, minutes, seconds. */
export function isoDuration(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  const rest = ms % 86_400_000;
  const [h, m, s] = [
    Math.floor(rest / 3_600_000),
    Math.floor((rest % 3_600_000) / 60_000),
    (rest % 60_000) / 1000,
  ];
  const time = `${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s ? `${s}S` : ''}`;
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}

export function checkClaimWithin(raw: string): number {
  const ms = durationMs(raw);
  if (Number.isNaN(ms)) {
    throw invalid(
      'claim_within',
      'must be an ISO 8601 duration in weeks, days, hours, minutes or seconds, e.g. PT12H, P3D or P1DT12H',
    );
  }
  if (ms < CLAIM_WITHIN_MIN_MS || ms > CLAIM_WITHIN_MAX_MS) {
    throw invalid(
      'claim_within',
      `must be from PT1H (one hour) to P30D (30 days); ${raw} is ${isoDuration(ms) || 'PT0S'}`,
    );
  }
  return ms;
}

/**
 * The terms as stored and hashed into the seal: exactly as given (no trimming, no line-break
 * changes, since the seal commits to these bytes), multi-line text by the rules of every other
 * text people type, at most TERMS_MAX characters, not blank, and well-formed Unicode (a lone
 * surrogate has no UTF-8 bytes to hash).
 */
export function checkTerms(raw: string): string {
  const length = [...raw].length;
  if (length > TERMS_MAX) throw invalid('terms', `must be at most ${TERMS_MAX} characters (got ${length})`);
  if (raw.trim() === '')
    throw invalid('terms', 'must not be blank: leave it out when the giveaway has no terms');
  if (hasControlCharacters(raw, 'multiline')) throw invalid('terms', controlCharacterMessage('multiline'));
  if (!raw.isWellFormed()) throw invalid('terms', 'must be well-formed Unicode (it holds a lone surrogate)');
  return raw;
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
  if (input.claim_within !== undefined && drawMode !== 'verifiable') {
    throw invalid(
      'claim_within',
      'applies to verifiable giveaways only: an unclaimed prize goes to the next reserve, and only a verifiable draw has reserves',
    );
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
    claimWithinMs: input.claim_within === undefined ? null : checkClaimWithin(input.claim_within),
    terms: input.terms === undefined ? null : checkTerms(input.terms),
  };
}

import {
  CLAIM_WITHIN_MAX_MS,
  CLAIM_WITHIN_MIN_MS,
  checkTerms,
  checkTitle,
  durationMs,
  ENDS_AT_MAX_AHEAD_MS,
  ENDS_AT_MIN_AHEAD_MS,
  TITLE_MAX,
  WINNERS_MAX,
} from '../../giveaways/core/giveaway-input.ts';
import { sha256 } from '../../giveaways/draw/certificate.ts';
import { TERMS_MAX, termsSha256 } from '../../proof/terms.ts';
import { isAppError } from '../../shared/errors.ts';

/**
 * The typed answers of `/new` (CONTRACT §11), read into values or into what is wrong with them
 * (a catalogue key and its variables). The rules the API shares (title, winners, ends_at) come
 * from the giveaway service's own checks.
 */
export type Answer<T> =
  | { ok: true; value: T }
  | { ok: false; key: string; vars?: Record<string, string | number> };

const ok = <T>(value: T): Answer<T> => ({ ok: true, value });
const wrong = <T>(key: string, vars?: Record<string, string | number>): Answer<T> => ({
  ok: false,
  key,
  vars,
});

/** A post carries the description with its other lines inside Telegram's 4096 characters. */
export const DESCRIPTION_MAX = 3000;
/** Required channels per giveaway: each costs one membership check per entrant at the seal. */
export const REQUIRED_MAX = 5;
export const NONE = '-';

export function readTitle(text: string): Answer<string> {
  try {
    return ok(checkTitle(text));
  } catch (error) {
    if (isAppError(error)) return wrong('new-bad-title', { max: TITLE_MAX });
    throw error;
  }
}

export function readDescription(text: string): Answer<string | null> {
  const description = text.trim();
  if (description === NONE || description === '') return ok(null);
  if ([...description].length > DESCRIPTION_MAX)
    return wrong('new-bad-description', { max: DESCRIPTION_MAX });
  return ok(description);
}

export function readWinners(text: string): Answer<number> {
  const answer = text.trim();
  const n = /^\d{1,4}$/.test(answer) ? Number(answer) : Number.NaN;
  if (!(n >= 1 && n <= WINNERS_MAX))
    return wrong('new-bad-winners', { answer: answer.slice(0, 40), max: WINNERS_MAX });
  return ok(n);
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DELAY = /^in\s+(\d{1,6})\s*([mhd])$/i;
const UTC_MINUTE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** An example end time in the format the step asks for: tomorrow at 18:00 UTC. */
export function exampleEnd(now: number): string {
  const day = new Date(now + 86_400_000).toISOString().slice(0, 10);
  return `${day} 18:00`;
}

/** `in 90m` / `in 6h` / `in 3d`, `YYYY-MM-DD HH:MM` in UTC, or RFC 3339 with a zone. */
export function readEnds(text: string, now: number): Answer<number> {
  const answer = text.trim();
  let at = Number.NaN;
  const delay = DELAY.exec(answer);
  const minute = UTC_MINUTE.exec(answer);
  if (delay) at = now + Number(delay[1]) * UNIT_MS[delay[2].toLowerCase() as keyof typeof UNIT_MS];
  else if (minute) {
    const [, y, mo, d, h, mi] = minute.map(Number);
    at = Date.UTC(y, mo - 1, d, h, mi);
    // Date.UTC rolls 2026-02-31 over into March: only a real calendar time is taken.
    if (new Date(at).getUTCDate() !== d || h > 23 || mi > 59) at = Number.NaN;
  } else if (RFC3339.test(answer)) at = Date.parse(answer);
  if (Number.isNaN(at))
    return wrong('new-bad-ends', { answer: answer.slice(0, 40), example: exampleEnd(now) });
  if (at < now + ENDS_AT_MIN_AHEAD_MS) return wrong('new-ends-past');
  if (at > now + ENDS_AT_MAX_AHEAD_MS) return wrong('new-ends-far');
  return ok(at);
}

const CHANNEL = /^(@[A-Za-z][A-Za-z0-9_]{3,31}|-100\d{5,15})$/;

/** A channel as Telegram's getChat takes it: `@username`, or the numeric id of a private one. */
export function readChannelRef(text: string): string | number | undefined {
  const answer = text.trim();
  if (!CHANNEL.test(answer)) return undefined;
  return answer.startsWith('@') ? answer : Number(answer);
}

/** `-` for none, else up to REQUIRED_MAX channel references separated by spaces or commas. */
export function readRequired(text: string): Answer<(string | number)[]> {
  const answer = text.trim();
  if (answer === NONE) return ok([]);
  const parts = answer.split(/[\s,]+/).filter(Boolean);
  const refs = parts.map(readChannelRef);
  if (parts.length === 0 || parts.length > REQUIRED_MAX || refs.some((r) => r === undefined)) {
    return wrong('new-bad-required', { max: REQUIRED_MAX });
  }
  return ok([...new Set(refs as (string | number)[])]);
}

const CLAIM_SHORT = /^(\d{1,4})\s*([hd])$/i;

/** The claim deadlines offered as buttons (by their button action); any other is typed. */
export const CLAIM_PRESETS = { claim1d: UNIT_MS.d, claim3d: 3 * UNIT_MS.d, claim7d: 7 * UNIT_MS.d } as const;
export type ClaimPreset = keyof typeof CLAIM_PRESETS;

/**
 * The optional claim deadline (CONTRACT §14): `-` for none, `24h` / `3d`, or an ISO 8601
 * duration as the API takes it (`PT12H`, `P3D`), from one hour to 30 days.
 */
export function readClaim(text: string): Answer<number | null> {
  const answer = text.trim();
  if (answer === NONE) return ok(null);
  const short = CLAIM_SHORT.exec(answer);
  const ms = short
    ? Number(short[1]) * UNIT_MS[short[2].toLowerCase() as 'h' | 'd']
    : durationMs(answer.toUpperCase());
  if (!(ms >= CLAIM_WITHIN_MIN_MS && ms <= CLAIM_WITHIN_MAX_MS)) {
    return wrong('new-bad-claim', { answer: answer.slice(0, 40) });
  }
  return ok(ms);
}

/** A claim deadline as the preview shows it: `3d`, `1d 12h`, `90m`. */
export function claimLabel(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ['d', UNIT_MS.d],
    ['h', UNIT_MS.h],
    ['m', UNIT_MS.m],
  ] as const) {
    if (rest >= size) parts.push(`${Math.floor(rest / size)}${unit}`);
    rest %= size;
  }
  return parts.join(' ');
}

/**
 * The optional terms (CONTRACT §14): `-` for none, else the message's text, by the API's rules
 * (the seal commits to their SHA-256). One Telegram message holds at most 4096 characters; longer
 * terms, up to TERMS_MAX, are given through the API.
 */
export function readTerms(text: string): Answer<string | null> {
  const answer = text.trim();
  if (answer === NONE) return ok(null);
  try {
    return ok(checkTerms(answer));
  } catch (error) {
    if (isAppError(error)) return wrong('new-bad-terms', { max: TERMS_MAX });
    throw error;
  }
}

/** How the preview names the terms: their length, and the start of the SHA-256 the seal will hold. */
export function termsFingerprint(terms: string): { chars: number; hash: string } {
  return { chars: [...terms].length, hash: termsSha256(terms, sha256).slice(0, 16) };
}

// The Mini App's own credentials: a bearer token for its calls (CONTRACT §15) and short-lived
// signed links for downloads a browser opens without headers (the CSV). Both are HMAC-SHA256 under
// keys derived from the bot token, so every process behind one bot agrees without a stored secret,
// and changing the bot token ends every session. Never the API key: that stays out of browsers.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';

/** CONTRACT §15: a session lasts at most one hour. */
export const SESSION_TTL_MS = 3_600_000;
/** A download link is opened at once; five minutes covers a slow hand. */
export const LINK_TTL_MS = 300_000;

const TOKEN = /^v1\.([0-9]{1,16})\.([0-9]{1,16})\.([A-Za-z0-9_-]{43})$/;

export interface AppSession {
  telegramId: number;
  /** Epoch ms. */
  expiresAt: number;
}

const derive = (botToken: string, purpose: string) => createHmac('sha256', botToken).update(purpose).digest();

function sameMac(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createAppTokens(deps: { botToken: string; clock: Clock }) {
  const sessionKey = derive(deps.botToken, 'tyche-mini-app-session-v1');
  const linkKey = derive(deps.botToken, 'tyche-mini-app-link-v1');
  const mac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('base64url');
  const now = () => deps.clock.now().getTime();
  const expired = () => new AppError('unauthorized', 'The app session has expired; open the app again');

  return {
    /** `v1.<telegram id>.<expiry ms>.<mac>`: bound to one Telegram user, valid for an hour. */
    issue(telegramId: number): { token: string; expiresAt: number } {
      const expiresAt = now() + SESSION_TTL_MS;
      const body = `v1.${telegramId}.${expiresAt}`;
      return { token: `${body}.${mac(sessionKey, body)}`, expiresAt };
    },

    /** The session of an `Authorization: Bearer <token>` header, or a 401. */
    verify(authorization: string | undefined): AppSession {
      const bearer = /^Bearer ([^\s]+)$/i.exec(authorization ?? '')?.[1];
      if (!bearer) throw new AppError('unauthorized', 'Authorization header must be `Bearer <app token>`');
      const match = TOKEN.exec(bearer);
      if (!match || !sameMac(match[3], mac(sessionKey, `v1.${match[1]}.${match[2]}`))) {
        throw new AppError('unauthorized', 'The app token is not valid');
      }
      const session = { telegramId: Number(match[1]), expiresAt: Number(match[2]) };
      if (session.expiresAt <= now()) throw expired();
      return session;
    },

    /** The query string of a link to `resource` for this user, valid for five minutes. */
    signLink(resource: string, telegramId: number): { query: string; expiresAt: number } {
      const expiresAt = now() + LINK_TTL_MS;
      const sig = mac(linkKey, `${resource}\n${telegramId}\n${expiresAt}`);
      return { query: `u=${telegramId}&exp=${expiresAt}&sig=${sig}`, expiresAt };
    },

    /** The Telegram user a link to `resource` was signed for, or a 401 (altered, other resource, expired). */
    checkLink(resource: string, query: { u?: string; exp?: string; sig?: string }): number {
      const { u = '', exp = '', sig = '' } = query;
      const valid =
        /^[0-9]{1,16}$/.test(u) &&
        /^[0-9]{1,16}$/.test(exp) &&
        sameMac(sig, mac(linkKey, `${resource}\n${u}\n${exp}`));
      if (!valid) throw new AppError('unauthorized', 'The download link is not valid');
      if (Number(exp) <= now()) {
        throw new AppError('unauthorized', 'The download link has expired; ask the app for a new one');
      }
      return Number(u);
    },
  };
}

export type AppTokens = ReturnType<typeof createAppTokens>;

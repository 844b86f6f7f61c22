import { randomUUID } from 'node:crypto';
import { type Clock, utcDay } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { AccountRepository, AccountRow, KeyWithAccount } from './account.repository.ts';
import { newAccountPseudonym } from './account-pseudonym.ts';
import { generateApiKey, KEY_PREFIX_LENGTH, keyMatchesHash, looksLikeApiKey } from './api-key.ts';
import { keyRefused } from './key-refusal.ts';
import { hasBusinessAccess, type Plan } from './plans.ts';
import type { UsageRepository } from './usage.repository.ts';

/**
 * Who is calling: resolved from the key by `authenticate` on every request, so revocations and
 * plan changes apply from the next request. `recall` answers from memory only where the request's
 * commit reads the key's standing again (see there).
 */
export interface Principal {
  keyId: string;
  accountId: string;
  plan: Plan;
  keyPrefix: string;
  label: string | null;
  dailyLimit: number;
  telegramId: number | null;
}

export interface CreatedKey {
  key: string;
  key_prefix: string;
  plan: Plan;
  daily_limit: number;
  account_id: string;
  label: string | null;
}

export interface KeySummary {
  key_prefix: string;
  account_id: string;
  plan: Plan;
  owner_telegram_id: number | null;
  label: string | null;
  daily_limit: number;
  requests_today: number;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface CreateKeyInput {
  plan?: Plan | undefined;
  ownerTelegramId?: number | undefined;
  label?: string | undefined;
  dailyLimit?: number | undefined;
}

interface Deps {
  accounts: AccountRepository;
  usage: UsageRepository;
  clock: Clock;
  defaultDailyLimit: number;
}

/** Compared against when no key has the prefix: a hash no key has (all zero bytes). */
const NO_KEY_HASH = '0'.repeat(64);
/** Keys `recall` remembers at most; the oldest goes first. */
const REMEMBERED_KEYS = 10_000;
const BEARER = /^Bearer ([^\s]+)$/i;

export function createAccountService({ accounts, usage, clock, defaultDailyLimit }: Deps) {
  const now = () => clock.now().getTime();
  /** Business keys this process authenticated lately, by prefix, with their stored hash. */
  const remembered = new Map<string, { hash: string; principal: Principal }>();

  function remember(hash: string, principal: Principal) {
    remembered.delete(principal.keyPrefix);
    if (!hasBusinessAccess(principal.plan)) return;
    if (remembered.size >= REMEMBERED_KEYS) remembered.delete(remembered.keys().next().value!);
    remembered.set(principal.keyPrefix, { hash, principal });
  }

  async function ensureTelegramAccount(telegramId: number, plan: Plan = 'free') {
    const row: AccountRow = {
      id: randomUUID(),
      plan,
      telegram_id: telegramId,
      created_at: now(),
      owner_pseudonym: newAccountPseudonym(),
    };
    return accounts.ensureTelegramAccount(row);
  }

  return {
    ensureTelegramAccount,

    async createKey(input: CreateKeyInput): Promise<CreatedKey> {
      let account: AccountRow;
      if (input.ownerTelegramId === undefined) {
        account = {
          id: randomUUID(),
          plan: input.plan ?? 'business',
          telegram_id: null,
          created_at: now(),
          owner_pseudonym: newAccountPseudonym(),
        };
        await accounts.insertAccount(account);
      } else {
        account = (await ensureTelegramAccount(input.ownerTelegramId, input.plan ?? 'business')).account;
        if (input.plan && account.plan !== input.plan) {
          await accounts.setPlan(account.id, input.plan);
          account = { ...account, plan: input.plan };
        }
      }
      const secret = generateApiKey();
      const dailyLimit = input.dailyLimit ?? defaultDailyLimit;
      await accounts.insertKey({
        id: randomUUID(),
        account_id: account.id,
        prefix: secret.prefix,
        hash: secret.hash,
        label: input.label ?? null,
        daily_limit: dailyLimit,
        created_at: now(),
        last_used_at: null,
        revoked_at: null,
      });
      return {
        key: secret.key,
        key_prefix: secret.prefix,
        plan: account.plan,
        daily_limit: dailyLimit,
        account_id: account.id,
        label: input.label ?? null,
      };
    },

    /** Keys of one account, or of every account for the admin CLI. Never the secret. */
    async listKeys(accountId?: string): Promise<KeySummary[]> {
      const rows = await accounts.listKeys(accountId);
      const today = await usage.countsForDay(
        rows.map((r) => r.id),
        utcDay(clock.now()),
      );
      return rows.map((row) => summarize(row, today.get(row.id) ?? 0));
    },

    /** Returns false when no active key has that prefix (within the account, when given). */
    async revokeKey(prefix: string, accountId?: string): Promise<boolean> {
      return accounts.revokeKey(prefix, now(), accountId);
    },

    async setPlan(telegramId: number, plan: Plan): Promise<{ account: AccountRow; created: boolean }> {
      const { account, created } = await ensureTelegramAccount(telegramId, plan);
      if (account.plan !== plan) await accounts.setPlan(account.id, plan);
      return { account: { ...account, plan }, created };
    },

    async findByTelegramId(telegramId: number): Promise<AccountRow | undefined> {
      return accounts.findByTelegramId(telegramId);
    },

    /** Resolves an Authorization header value to the calling key, or refuses with 401. */
    async authenticate(authorization: string | undefined): Promise<Principal> {
      const match = BEARER.exec(authorization ?? '');
      if (!match) {
        const detail = authorization
          ? 'Authorization header must be `Bearer <key>`'
          : 'Authorization header is missing';
        throw new AppError('unauthorized', detail);
      }
      const key = match[1];
      const row = looksLikeApiKey(key)
        ? await accounts.findKeyByPrefix(key.slice(0, KEY_PREFIX_LENGTH))
        : undefined;
      // The hash is computed whether or not the prefix is known, so the answer's timing does not
      // tell a caller which prefixes exist.
      const matches = keyMatchesHash(key, row?.hash ?? NO_KEY_HASH);
      if (!row || !matches || row.revoked_at !== null) {
        // A wrong key with a known prefix says nothing about the key of that prefix.
        if (!row || row.revoked_at !== null) remembered.delete(key.slice(0, KEY_PREFIX_LENGTH));
        throw keyRefused();
      }
      const principal: Principal = {
        keyId: row.id,
        accountId: row.account_id,
        plan: row.plan,
        keyPrefix: row.prefix,
        label: row.label,
        dailyLimit: row.daily_limit,
        telegramId: row.telegram_id,
      };
      remember(row.hash, principal);
      return principal;
    },

    /**
     * The Business key of `authorization` as this process last authenticated it, without reading
     * the store; undefined when it is not remembered (then `authenticate`). Its revocation or a
     * plan change is not seen here: only a request whose commit reads the key's standing again
     * (the random endpoints' records, key-standing.repository.ts) may act on it, and any other
     * answer to it must `authenticate` first. The key is compared with the stored hash in
     * constant time, as `authenticate` does.
     */
    recall(authorization: string | undefined): Principal | undefined {
      const key = BEARER.exec(authorization ?? '')?.[1];
      if (key === undefined || !looksLikeApiKey(key)) return undefined;
      const known = remembered.get(key.slice(0, KEY_PREFIX_LENGTH));
      return known && keyMatchesHash(key, known.hash) ? known.principal : undefined;
    },

    /** Drops what `recall` knows of a key: a commit found it refused. */
    forget(keyPrefix: string): void {
      remembered.delete(keyPrefix);
    },

    async requestsToday(keyId: string): Promise<number> {
      return usage.countFor(keyId, utcDay(clock.now()));
    },

    async touch(keyId: string): Promise<void> {
      await accounts.touchKey(keyId, now());
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;

function summarize(row: KeyWithAccount, requestsToday: number): KeySummary {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    key_prefix: row.prefix,
    account_id: row.account_id,
    plan: row.plan,
    owner_telegram_id: row.telegram_id,
    label: row.label,
    daily_limit: row.daily_limit,
    requests_today: requestsToday,
    created_at: iso(row.created_at)!,
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
  };
}

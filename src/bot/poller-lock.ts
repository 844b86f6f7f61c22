import { createHash } from 'node:crypto';
import pg from 'pg';
import type { BotLogger } from './bot-logger.ts';

/**
 * Telegram serves getUpdates to one client at a time, so among processes sharing a store
 * only the holder of this lock polls.
 */
export interface PollerLock {
  /** One attempt; true when this process holds the lock afterwards. */
  tryAcquire(): Promise<boolean>;
  /** Called when a held lock is lost because its connection broke. */
  onLost(listener: () => void): void;
  release(): Promise<void>;
}

/** SQLite is one process's store (see docs): nobody else can be polling. */
export function createLocalPollerLock(): PollerLock {
  return { tryAcquire: async () => true, onLost() {}, release: async () => {} };
}

/** How often the lock's connection is checked while held. */
const HEALTH_CHECK_MS = 15_000;

/**
 * A session-level advisory lock on a connection of its own (not the pool's): PostgreSQL
 * releases it as soon as that connection ends, so a crashed process cannot keep it.
 */
export function createPostgresPollerLock(url: string, botId: number, log: BotLogger): PollerLock {
  const key = lockKey(botId);
  const listeners: (() => void)[] = [];
  let client: pg.Client | undefined;
  let held = false;
  let health: NodeJS.Timeout | undefined;

  function drop(from: pg.Client, error?: Error) {
    if (from !== client) return;
    const wasHeld = held;
    client = undefined;
    held = false;
    clearInterval(health);
    from.end().catch(() => {});
    if (!wasHeld) return;
    log.warn({ err: { message: error?.message } }, 'bot poller lock lost with its connection');
    for (const listener of listeners) listener();
  }

  async function connect(): Promise<pg.Client> {
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    next.on('error', (error) => drop(next, error));
    next.on('end', () => drop(next));
    try {
      await next.connect();
    } catch (error) {
      next.end().catch(() => {});
      throw error;
    }
    client = next;
    return next;
  }

  return {
    async tryAcquire() {
      if (held) return true;
      const current = client ?? (await connect());
      const { rows } = await current.query<{ locked: boolean }>(
        'select pg_try_advisory_lock($1::bigint) as locked',
        [key],
      );
      held = rows[0].locked === true;
      if (held) {
        health = setInterval(() => {
          current.query('select 1').catch((error: Error) => drop(current, error));
        }, HEALTH_CHECK_MS);
        health.unref();
      }
      return held;
    },
    onLost(listener) {
      listeners.push(listener);
    },
    async release() {
      const current = client;
      if (!current) return;
      client = undefined;
      clearInterval(health);
      try {
        if (held) await current.query('select pg_advisory_unlock($1::bigint)', [key]);
      } finally {
        held = false;
        await current.end().catch(() => {});
      }
    },
  };
}

/** One lock per bot, so two bots sharing a database do not wait on each other. */
function lockKey(botId: number): string {
  return createHash('sha256').update(`tyche:bot-poller:${botId}`).digest().readBigInt64BE(0).toString();
}

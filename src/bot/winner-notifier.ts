import { setTimeout as delay } from 'node:timers/promises';
import type { Api } from 'grammy';
import type { BotLogger } from './bot-logger.ts';
import type { BotUserService } from './bot-user.service.ts';
import type { DrawnEvent, DrawnWinner } from './giveaway-port.ts';
import * as text from './messages.ts';
import { classifyTelegramError, type GrammySignal } from './telegram-errors.ts';

/** Waits `ms`, or rejects once `signal` aborts; tests pass one that does not touch the clock. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) => delay(ms, undefined, { signal });

export interface WinnerNotifierDeps {
  api: Pick<Api, 'sendMessage'>;
  botUsers: Pick<BotUserService, 'startedAmong'>;
  log: BotLogger;
  sleep?: Sleep;
  /** Parallel sends; Telegram allows about 30 messages a second per bot. */
  concurrency?: number;
  /** Tries per winner, counting 429 waits and network failures. */
  maxAttempts?: number;
}

type Delivery = 'sent' | 'blocked' | 'failed';

/**
 * Sends each winner who has started the bot a message with the verify URL. The draw's
 * listener only queues the work and returns, so nothing here can delay or fail a draw.
 */
export function createWinnerNotifier(deps: WinnerNotifierDeps) {
  const { api, botUsers, log } = deps;
  const sleep = deps.sleep ?? realSleep;
  const concurrency = deps.concurrency ?? 8;
  const maxAttempts = deps.maxAttempts ?? 5;
  const shutdown = new AbortController();
  const inFlight = new Set<Promise<void>>();
  // A 429 is a limit on the whole bot: every sender waits it out, not only the one that hit it.
  let gate: Promise<void> = Promise.resolve();

  function onDrawn(event: DrawnEvent): void {
    if (shutdown.signal.aborted) {
      log.warn({ certificate_id: event.certificateId }, 'winner notices not sent: shutting down');
      return;
    }
    const task: Promise<void> = deliver(event)
      .catch((error: unknown) => {
        log.error(
          { certificate_id: event.certificateId, err: { message: (error as Error)?.message } },
          'winner notices stopped',
        );
      })
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  }

  async function deliver(event: DrawnEvent): Promise<void> {
    const started = await botUsers.startedAmong(event.winners.map((w) => w.telegram_id));
    const queue = event.winners.filter((w) => started.has(w.telegram_id));
    const counts: Record<Delivery, number> = { sent: 0, blocked: 0, failed: 0 };
    const worker = async () => {
      for (let winner = queue.shift(); winner; winner = queue.shift()) {
        counts[await sendOne(event, winner)]++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
    log.info(
      { certificate_id: event.certificateId, ...counts, not_started: event.winners.length - started.size },
      'winner notices done',
    );
  }

  async function sendOne(event: DrawnEvent, winner: DrawnWinner): Promise<Delivery> {
    const where = { certificate_id: event.certificateId, telegram_id: winner.telegram_id };
    for (let attempt = 1; ; attempt++) {
      await gate;
      try {
        await api.sendMessage(
          winner.telegram_id,
          text.winnerNotice(event, winner),
          { parse_mode: 'HTML' },
          shutdown.signal as GrammySignal,
        );
        return 'sent';
      } catch (error) {
        const failure = classifyTelegramError(error);
        const fields = {
          ...where,
          error_code: failure.error_code,
          description: failure.description,
          attempt,
        };
        if (failure.kind === 'blocked') {
          log.warn(fields, 'winner notice skipped: the user blocked the bot');
          return 'blocked';
        }
        if (shutdown.signal.aborted || failure.kind === 'rejected' || attempt >= maxAttempts) {
          log.error(fields, 'winner notice not delivered');
          return 'failed';
        }
        if (failure.kind === 'rate_limited') {
          log.info(
            { ...fields, retry_after: failure.retryAfterSeconds },
            'winner notice rate limited; waiting',
          );
          gate = sleep(failure.retryAfterSeconds * 1000, shutdown.signal);
          // Senders awaiting the gate see a rejection at shutdown; nobody else must.
          gate.catch(() => {});
        } else {
          await sleep(250 * 2 ** attempt, shutdown.signal);
        }
      }
    }
  }

  return {
    onDrawn,
    /** Resolves when every queued notice has been sent or given up (tests, shutdown). */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    /** Lets deliveries finish for up to `graceMs`, then abandons the rest. */
    async close(graceMs = 5000): Promise<void> {
      const grace = new AbortController();
      const timer = delay(graceMs, undefined, { signal: grace.signal, ref: false }).catch(() => {});
      await Promise.race([this.idle(), timer]);
      grace.abort();
      shutdown.abort();
      await this.idle();
    },
  };
}

export type WinnerNotifier = ReturnType<typeof createWinnerNotifier>;

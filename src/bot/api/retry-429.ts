import type { Transformer } from 'grammy';
import type { BotLogger } from '../bot-logger.ts';
import { realSleep, type Sleep } from '../sleep.ts';

export interface Retry429Options {
  sleep?: Sleep;
  log: BotLogger;
  /** A retry_after longer than this is not waited for: the call fails with the 429. */
  maxWaitSeconds: number;
  /** Tries after the first; the plugin-equivalent default is 3. */
  maxRetries?: number;
}

/**
 * Every Bot API call that meets Telegram's 429 waits `retry_after` and is made again (as grammY's
 * auto-retry plugin does), with the wait from an injected sleep so tests need no real time. A
 * wait beyond `maxWaitSeconds` is left to the caller: background work reschedules itself in the
 * jobs table instead of holding its lease.
 */
export function retry429(options: Retry429Options): Transformer {
  const sleep = options.sleep ?? realSleep;
  const maxRetries = options.maxRetries ?? 3;
  return async (prev, method, payload, signal) => {
    for (let retry = 0; ; retry++) {
      const result = await prev(method, payload, signal);
      if (result.ok || result.error_code !== 429 || retry >= maxRetries) return result;
      const waitSeconds = result.parameters?.retry_after ?? 1;
      if (waitSeconds > options.maxWaitSeconds) return result;
      options.log.info(
        { method, retry_after: waitSeconds, retry: retry + 1 },
        'Telegram 429; waiting to retry',
      );
      await sleep(waitSeconds * 1000, (signal as AbortSignal | undefined) ?? new AbortController().signal);
    }
  };
}

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Transformer } from 'grammy';
import { retry429 } from '../../src/bot/api/retry-429.ts';
import { throttle } from '../../src/bot/api/throttle.ts';
import { silentLogger } from '../../src/bot/bot-logger.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';

type Prev = Parameters<Transformer>[0];
const ok: Prev = async () => ({ ok: true, result: true }) as never;

/** A sleep on the fake clock: waiting moves time, as the real one would. */
function clockedSleep(clock: ReturnType<typeof createFakeClock>) {
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
    clock.advance(ms);
  };
  return { sleep, waits };
}

test('bulk calls are spaced to the overall pace, and a channel gets at most 20 a minute', async () => {
  const clock = createFakeClock(Date.parse('2026-11-23T00:00:00Z'));
  const { sleep } = clockedSleep(clock);
  const call = throttle({ perSecond: 25, perGroupPerMinute: 20, now: () => clock.now().getTime(), sleep });
  const started = clock.now().getTime();
  const at: number[] = [];
  for (let i = 0; i < 100; i++) {
    await call(ok, 'sendMessage', { chat_id: 1000 + i, text: 'x' } as never);
    at.push(clock.now().getTime() - started);
  }
  // 100 private messages at 25 a second: the last leaves 99 gaps of 40 ms after the first.
  assert.equal(at[99], 99 * 40);
  for (let i = 1; i < at.length; i++) assert.ok(at[i] - at[i - 1] >= 40, `gap before call ${i}`);

  const channel = -1_001_000_000_001;
  const posted: number[] = [];
  for (let i = 0; i < 21; i++) {
    await call(ok, 'editMessageText', { chat_id: channel, message_id: 5, text: `${i}` } as never);
    posted.push(clock.now().getTime());
  }
  const minute = posted.filter((t) => t < posted[0] + 60_000);
  assert.equal(minute.length, 20, 'twenty in the first minute, the 21st after it');
  // getChatMember is paced overall but not by the chat's message limit.
  const before = clock.now().getTime();
  await call(ok, 'getChatMember', { chat_id: channel, user_id: 7 } as never);
  assert.ok(clock.now().getTime() - before <= 40);
});

test('a 429 is waited out for retry_after and the call made again; a longer wait is handed back', async () => {
  const clock = createFakeClock(0);
  const { sleep, waits } = clockedSleep(clock);
  let calls = 0;
  const flaky: Prev = async () => {
    calls++;
    return (
      calls < 3
        ? {
            ok: false,
            error_code: 429,
            description: 'Too Many Requests: retry after 2',
            parameters: { retry_after: 2 },
          }
        : { ok: true, result: true }
    ) as never;
  };
  const retried = retry429({ sleep, log: silentLogger, maxWaitSeconds: 5 });
  const result = await retried(flaky, 'sendMessage', { chat_id: 1, text: 'x' } as never);
  assert.equal(result.ok, true);
  assert.equal(calls, 3);
  assert.deepEqual(waits, [2000, 2000]);

  let long = 0;
  const slow: Prev = async () => {
    long++;
    return {
      ok: false,
      error_code: 429,
      description: 'Too Many Requests',
      parameters: { retry_after: 30 },
    } as never;
  };
  const handedBack = await retried(slow, 'sendMessage', { chat_id: 1, text: 'x' } as never);
  assert.equal(handedBack.ok, false);
  assert.equal(long, 1, 'a wait beyond the limit is not made here: the job is due again later');
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createCascade } from '../../src/randomness/cascade.ts';
import {
  createBeaconPool,
  createPrivatePool,
  createSystemPool,
  type PoolEvents,
  type PoolOptions,
} from '../../src/randomness/pool.ts';
import { type RandomSource, type SourceBatch, SourceError } from '../../src/randomness/source.ts';
import { isAppError } from '../../src/shared/errors.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { settledYet } from '../helpers/source-testing.ts';

/**
 * A source whose every answer the test decides, resolved when the test says; like the real ones,
 * it gives up with a SourceError when its signal aborts.
 */
function scriptedSource(name: 'anu' | 'nist', kind: 'private' | 'beacon') {
  const pending: { resolve(b: SourceBatch): void; reject(e: unknown): void }[] = [];
  let calls = 0;
  const source: RandomSource = {
    name,
    kind,
    fetch: (signal) => {
      calls++;
      return new Promise<SourceBatch>((resolve, reject) => {
        const call = { resolve, reject };
        pending.push(call);
        signal?.addEventListener('abort', () => {
          if (!pending.includes(call)) return;
          pending.splice(pending.indexOf(call), 1);
          reject(new SourceError(name, 'no answer in time'));
        });
      });
    },
  };
  return {
    source,
    get calls() {
      return calls;
    },
    async deliver(batch: Partial<SourceBatch> & { bytes: Uint8Array }, at = new Date(0)) {
      pending.shift()!.resolve({
        source: name,
        kind,
        reference: `${name}:ref${calls}`,
        producedAt: at,
        fetchedAt: at,
        ...batch,
      });
      await new Promise((r) => setImmediate(r));
    },
    async fail() {
      pending.shift()!.reject(new SourceError(name, 'scripted failure'));
      await new Promise((r) => setImmediate(r));
    },
    get waiting() {
      return pending.length;
    },
  };
}

const events = (): PoolEvents & { log: string[] } => {
  const log: string[] = [];
  return { log, fetched: (s) => log.push(`ok:${s}`), failed: (s) => log.push(`fail:${s}`) };
};

/** Options every pool here shares, plus what a test changes. */
const opts = (
  clock: ReturnType<typeof createFakeClock>,
  extra: Partial<PoolOptions> & { lowWater?: number } = {},
) => ({
  clock,
  timers: clock,
  events: events(),
  fetchTimeoutMs: 1000,
  ...extra,
});

describe('private pool', () => {
  test('hands every byte out once, in chunks that never straddle two batches', async () => {
    const clock = createFakeClock();
    const anu = scriptedSource('anu', 'private');
    const pool = createPrivatePool(anu.source, opts(clock, { lowWater: 0 }));
    assert.equal(pool.tryTake(16), undefined, 'empty at first');
    assert.equal(anu.calls, 0, 'lowWater 0: an empty pool asks only through refilled()');
    pool.refilled();
    await anu.deliver({ bytes: Uint8Array.from({ length: 40 }, (_, i) => i) });
    const a = pool.tryTake(16)!;
    const b = pool.tryTake(16)!;
    assert.deepEqual(
      [...a.bytes],
      Array.from({ length: 16 }, (_, i) => i),
    );
    assert.deepEqual(
      [...b.bytes],
      Array.from({ length: 16 }, (_, i) => i + 16),
    );
    assert.equal(a.reference, 'anu:ref1#0-16');
    assert.equal(b.reference, 'anu:ref1#16-32');
    assert.equal(pool.tryTake(16), undefined, 'the 8 bytes left cannot make a chunk');
    assert.equal(pool.state().fill, 0);
  });

  test('refills in the background below the low-water mark, one fetch at a time', async () => {
    const clock = createFakeClock();
    const anu = scriptedSource('anu', 'private');
    const pool = createPrivatePool(anu.source, opts(clock, { lowWater: 32 }));
    pool.refilled();
    pool.refilled();
    assert.equal(anu.calls, 1);
    await anu.deliver({ bytes: new Uint8Array(64) });
    pool.tryTake(16);
    assert.equal(anu.calls, 1, 'still 48 bytes, above the mark');
    pool.tryTake(16);
    assert.equal(anu.calls, 1, '32 bytes left: at the mark, not below');
    pool.tryTake(16);
    assert.equal(anu.calls, 2, '16 bytes left: refill started');
    pool.tryTake(16);
    assert.equal(anu.calls, 2, 'no second fetch while one is in flight');
  });

  test('a throttle spaces fetches on the clock', async () => {
    const clock = createFakeClock();
    const anu = scriptedSource('anu', 'private');
    const pool = createPrivatePool(anu.source, opts(clock, { minIntervalMs: 60_000 }));
    pool.refilled();
    await anu.deliver({ bytes: new Uint8Array(16) });
    assert.ok(pool.tryTake(16));
    assert.equal(pool.refilled(), undefined, 'throttled');
    assert.equal(pool.retryInMs(), 60_000);
    clock.advance(60_000);
    assert.ok(pool.refilled());
    assert.equal(anu.calls, 2);
  });

  test('the circuit opens after repeated failures and lets one trial through after the cooldown', async () => {
    const clock = createFakeClock();
    const anu = scriptedSource('anu', 'private');
    const ev = events();
    const pool = createPrivatePool(
      anu.source,
      opts(clock, { events: ev, failureThreshold: 2, cooldownMs: 10_000 }),
    );
    pool.refilled();
    await anu.fail();
    pool.refilled();
    await anu.fail();
    assert.equal(pool.state().breaker, 'open');
    assert.equal(pool.refilled(), undefined, 'an open circuit does not call the upstream');
    assert.equal(anu.calls, 2);
    clock.advance(10_000);
    assert.ok(pool.refilled());
    await anu.deliver({ bytes: new Uint8Array(32) });
    assert.equal(pool.state().breaker, 'closed');
    assert.deepEqual(ev.log, ['fail:anu', 'fail:anu', 'ok:anu']);
  });

  test('a fetch that never answers is cut by the pool’s own timeout and counted as a failure', async () => {
    const clock = createFakeClock();
    const anu = scriptedSource('anu', 'private');
    const ev = events();
    const pool = createPrivatePool(anu.source, opts(clock, { events: ev, fetchTimeoutMs: 1000 }));
    const refill = pool.refilled()!;
    clock.advance(999);
    assert.equal(await settledYet(refill), false, 'still in flight a millisecond before the timeout');
    assert.equal(pool.refilled(), refill, 'and no second fetch goes out meanwhile');
    clock.advance(1);
    await refill;
    assert.deepEqual(ev.log, ['fail:anu']);
    assert.equal(anu.waiting, 0, 'the source saw the abort');
    assert.ok(pool.refilled(), 'the next refill may go out at once');
    assert.equal(anu.calls, 2);
  });
});

describe('beacon pool', () => {
  test('one fresh value serves every operation until it expires, then is fetched anew', async () => {
    const clock = createFakeClock('2026-01-01T00:00:00Z');
    const nist = scriptedSource('nist', 'beacon');
    const pool = createBeaconPool(nist.source, opts(clock));
    assert.equal(pool.tryTake(16), undefined);
    const produced = clock.now();
    await nist.deliver({
      bytes: new Uint8Array(64).fill(7),
      producedAt: produced,
      expiresAt: new Date(produced.getTime() + 120_000),
    });
    const a = pool.tryTake(16)!;
    const b = pool.tryTake(16)!;
    assert.equal(a.bytes.length, 64, 'the complete beacon value');
    assert.equal(a.reference, b.reference);
    assert.equal(nist.calls, 1);
    clock.advance(61_000);
    assert.ok(pool.tryTake(16), 'still fresh');
    assert.equal(nist.calls, 2, 'half the window passed: a newer value is fetched in the background');
    clock.advance(60_000);
    assert.equal(pool.tryTake(16), undefined, 'expired values never serve');
  });
});

describe('cascade', () => {
  test('takes from the first level that can serve without waiting for an empty one', async () => {
    const clock = createFakeClock();
    const anu = scriptedSource('anu', 'private');
    const cascade = createCascade([createPrivatePool(anu.source, opts(clock)), createSystemPool(clock)], {
      timers: clock,
    });
    const [m] = await cascade.acquire(1, 16, 1000);
    assert.equal(m.source, 'system');
    assert.equal(anu.waiting, 1, 'anu was asked to refill meanwhile');
  });

  test('waits for a refill under way when no level can serve, within the budget', async () => {
    const clock = createFakeClock();
    const anu = scriptedSource('anu', 'private');
    const cascade = createCascade([createPrivatePool(anu.source, opts(clock))], { timers: clock });
    const pending = cascade.acquire(2, 16, 5000);
    await new Promise((r) => setImmediate(r));
    await anu.deliver({ bytes: new Uint8Array(64) });
    const got = await pending;
    assert.deepEqual(
      got.map((m) => m.reference),
      ['anu:ref1#0-16', 'anu:ref1#16-32'],
    );
  });

  test('answers randomness_unavailable with Retry-After once the budget is spent, not before', async () => {
    const clock = createFakeClock();
    const anu = scriptedSource('anu', 'private');
    const cascade = createCascade([createPrivatePool(anu.source, opts(clock))], { timers: clock });
    const pending = cascade.acquire(1, 16, 250);
    clock.advance(249);
    assert.equal(await settledYet(pending), false, 'the refill under way may still come in time');
    clock.advance(1);
    assert.equal(
      anu.waiting,
      1,
      'the fetch, with its own 1000 ms timeout, is still out: the budget ended the wait',
    );
    await assert.rejects(pending, (error: unknown) => {
      assert.ok(isAppError(error));
      assert.equal(error.code, 'randomness_unavailable');
      assert.match(String(error.retryAfterSeconds), /^\d+$/);
      return true;
    });
  });

  test('fails at once when every level is closed and nothing is in flight', async () => {
    const clock = createFakeClock();
    const anu = scriptedSource('anu', 'private');
    const pool = createPrivatePool(anu.source, opts(clock, { failureThreshold: 1, cooldownMs: 30_000 }));
    pool.refilled();
    await anu.fail();
    const cascade = createCascade([pool], { timers: clock });
    await assert.rejects(cascade.acquire(1, 16, 60_000), (error: unknown) => {
      assert.ok(isAppError(error));
      assert.equal(error.retryAfterSeconds, 30, 'the circuit reopens for trials in 30 s');
      return true;
    });
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemTimers } from '../../src/randomness/timers.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { settledYet } from '../helpers/source-testing.ts';

/** Both sides of the seam must behave alike, or a test on the fake proves nothing about production. */
describe('timers', () => {
  it('Node’s: a timeout aborts with a TimeoutError, and a sleep ends when its signal aborts', async () => {
    const signal = systemTimers.timeout(1);
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    assert.equal((signal.reason as DOMException).name, 'TimeoutError');
    const stop = new AbortController();
    const sleeping = systemTimers.sleep(60_000, stop.signal);
    stop.abort();
    await sleeping;
    await systemTimers.sleep(1, AbortSignal.abort());
  });

  it('fake: a timeout aborts with a TimeoutError when the clock reaches it, not before', () => {
    const clock = createFakeClock();
    const signal = clock.timeout(300);
    clock.advance(299);
    assert.equal(signal.aborted, false);
    clock.advance(1);
    assert.equal(signal.aborted, true);
    assert.equal((signal.reason as DOMException).name, 'TimeoutError');
  });

  it('fake: timers fire in time order, then in the order they were set, each at its own time', () => {
    const clock = createFakeClock(0);
    const fired: string[] = [];
    for (const [name, ms] of [
      ['b', 20],
      ['a', 10],
      ['c', 20],
    ] as const) {
      clock.timeout(ms).addEventListener('abort', () => fired.push(`${name}@${clock.monotonicMs()}`));
    }
    clock.advance(25);
    assert.deepEqual(fired, ['a@10', 'b@20', 'c@20']);
    assert.equal(clock.monotonicMs(), 25);
    assert.equal(clock.now().getTime(), 25);
  });

  it('fake: a sleep resolves when the clock reaches it, or at once when its signal aborts', async () => {
    const clock = createFakeClock();
    const sleeping = clock.sleep(100);
    clock.advance(99);
    assert.equal(await settledYet(sleeping), false);
    clock.advance(1);
    await sleeping;

    const stop = new AbortController();
    const cut = clock.sleep(100, stop.signal);
    stop.abort();
    await cut;
    await clock.sleep(100, AbortSignal.abort());
  });

  it('fake: refuses to move backwards', () => {
    assert.throws(() => createFakeClock().advance(-1), RangeError);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCircuitBreaker } from '../../src/randomness/circuit-breaker.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';

const setup = () => {
  const clock = createFakeClock();
  const breaker = createCircuitBreaker({ failureThreshold: 3, cooldownMs: 10_000, clock });
  const fail = (times: number) => {
    for (let i = 0; i < times; i++) breaker.recordFailure();
  };
  return { clock, breaker, fail };
};

describe('circuit breaker', () => {
  it('starts closed and lets calls through', () => {
    const { breaker } = setup();
    assert.equal(breaker.state, 'closed');
    assert.equal(breaker.canTry(), true);
    assert.equal(breaker.canTry(), true);
  });

  it('opens after N consecutive failures, not before', () => {
    const { breaker, fail } = setup();
    fail(2);
    assert.equal(breaker.state, 'closed');
    assert.equal(breaker.consecutiveFailures, 2);
    fail(1);
    assert.equal(breaker.state, 'open');
    assert.equal(breaker.canTry(), false);
  });

  it('counts only consecutive failures: a success in between resets the count', () => {
    const { breaker, fail } = setup();
    fail(2);
    breaker.recordSuccess();
    fail(2);
    assert.equal(breaker.state, 'closed');
    assert.equal(breaker.consecutiveFailures, 2);
  });

  it('stays open for the cooldown, then turns half-open on the clock alone', () => {
    const { breaker, fail, clock } = setup();
    fail(3);
    clock.advance(9_999);
    assert.equal(breaker.state, 'open');
    assert.equal(breaker.canTry(), false);
    clock.advance(1);
    assert.equal(breaker.state, 'half_open');
  });

  it('grants one trial when half-open and closes on its success', () => {
    const { breaker, fail, clock } = setup();
    fail(3);
    clock.advance(10_000);
    assert.equal(breaker.canTry(), true);
    assert.equal(breaker.canTry(), false, 'a second caller waits for the trial');
    assert.equal(breaker.state, 'half_open');
    breaker.recordSuccess();
    assert.equal(breaker.state, 'closed');
    assert.equal(breaker.consecutiveFailures, 0);
    assert.equal(breaker.canTry(), true);
  });

  it('reopens for a full cooldown when the trial fails', () => {
    const { breaker, fail, clock } = setup();
    fail(3);
    clock.advance(10_000);
    assert.equal(breaker.canTry(), true);
    breaker.recordFailure();
    assert.equal(breaker.state, 'open');
    clock.advance(9_999);
    assert.equal(breaker.canTry(), false);
    clock.advance(1);
    assert.equal(breaker.canTry(), true);
  });

  it('grants a new trial after a cooldown when a trial never reports back', () => {
    const { breaker, fail, clock } = setup();
    fail(3);
    clock.advance(10_000);
    assert.equal(breaker.canTry(), true);
    clock.advance(9_999);
    assert.equal(breaker.canTry(), false);
    clock.advance(1);
    assert.equal(breaker.canTry(), true);
  });

  it('refuses nonsensical options', () => {
    assert.throws(() => createCircuitBreaker({ failureThreshold: 0, cooldownMs: 1 }), RangeError);
    assert.throws(() => createCircuitBreaker({ failureThreshold: 1, cooldownMs: -1 }), RangeError);
  });
});

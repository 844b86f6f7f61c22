import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { releaseMemoryWhenIdle } from '../../src/shared/memory-release.ts';

const MB = 2 ** 20;
beforeEach(() => mock.timers.enable({ apis: ['setInterval'] }));
afterEach(() => mock.timers.reset());

/** A process whose resident set the test sets, and the collections asked of it. */
function fakeProcess(startMb: number) {
  const state = { rss: startMb * MB, collections: 0 };
  return {
    state,
    options: {
      checkMs: 1000,
      quietChecks: 2,
      minGrowthBytes: 16 * MB,
      rss: () => state.rss,
      collect: () => {
        state.collections++;
        state.rss -= 30 * MB;
      },
    },
  };
}

test('once quiet after the start, one collection; then none until the process grows again', () => {
  const { state, options } = fakeProcess(180);
  const release = releaseMemoryWhenIdle({ ...options, maxUtilization: 1 });
  mock.timers.tick(1000);
  assert.equal(state.collections, 0, 'one quiet check is not yet quiet');
  mock.timers.tick(1000);
  assert.equal(state.collections, 1);
  mock.timers.tick(10_000);
  assert.equal(state.collections, 1, 'nothing grew since');
  state.rss += 10 * MB;
  mock.timers.tick(10_000);
  assert.equal(state.collections, 1, 'too little growth to be worth a pause');
  state.rss += 40 * MB;
  mock.timers.tick(2000);
  assert.equal(state.collections, 2);
  release.stop();
  state.rss += 100 * MB;
  mock.timers.tick(10_000);
  assert.equal(state.collections, 2, 'stopped');
});

test('a busy process is never paused for it', () => {
  const { state, options } = fakeProcess(400);
  const release = releaseMemoryWhenIdle({ ...options, maxUtilization: -1 });
  mock.timers.tick(60_000);
  assert.equal(state.collections, 0);
  release.stop();
});

test("V8's own memory-reducing collection gives back the young generation a burst grew", () => {
  const young = () =>
    v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;
  const kept: object[] = [];
  for (let i = 0; i < 2_000_000; i++) {
    const garbage = { i, text: `entrant ${i}` };
    if (i % 1000 === 0) kept.push(garbage);
  }
  const grown = young();
  const release = releaseMemoryWhenIdle({
    checkMs: 1000,
    quietChecks: 1,
    maxUtilization: 1,
    minGrowthBytes: 0,
  });
  mock.timers.tick(1000);
  release.stop();
  assert.ok(young() < grown, `young generation ${young()} bytes, ${grown} before`);
  assert.ok(kept.length > 0);
  assert.equal(vm.runInNewContext('typeof gc'), 'undefined', 'the flag is not left set for others');
});

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { Api } from 'grammy';
import { throttle } from '../../src/bot/api/throttle.ts';
import { channelPostJob } from '../../src/bot/bot-jobs.ts';
import { type ChannelPostDeps, createChannelPostJobs } from '../../src/bot/posts/channel-post.jobs.ts';
import { createChannelPostRepository } from '../../src/bot/posts/channel-post.repository.ts';
import type { Sleep } from '../../src/bot/sleep.ts';
import { createJobRepository, type JobRepository } from '../../src/jobs/job.repository.ts';
import { createJobRunner, type JobQueue } from '../../src/jobs/job-runner.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.ts';
import { type FakeTelegram, startFakeTelegram } from '../helpers/fake-telegram.ts';
import { storeTargets } from '../helpers/stores.ts';
import { type RecordingLogger, recordingLogger } from './bot-harness.ts';

/**
 * A channel post's job in two processes sharing one store, with the moments that matter made to
 * happen on purpose instead of waiting for a random SIGKILL: a process that dies after Telegram
 * took the post but before the job was done, one that dies while the post waits for the channel's
 * pace, and one that stalls past its lease while another process takes the job over.
 */
const LEASE = 60_000;
const CHANNEL = -1_007_000_000_002;
const GIVEAWAY_ID = 1;
const PUBLIC_ID = 'jobMsgTest01';

/** The giveaway as the post jobs read it: sealed, with the fields the posts print. */
const giveaways = {
  async byId() {
    const seal = {
      entrants: { count: 3, root: 'ab'.repeat(32) },
      beacon: { round: 1234, round_at: '2026-01-01T00:05:00.000Z' },
    };
    const row = {
      id: GIVEAWAY_ID,
      public_id: PUBLIC_ID,
      title: 'Held post',
      description: null,
      winners_count: 1,
      ends_at: null,
      participants_count: 3,
    };
    return { row, seal: { body: JSON.stringify(seal) }, excluded: [] };
  },
  async sealedEntry() {
    return undefined;
  },
} as unknown as ChannelPostDeps['giveaways'];

/** A pacing wait that lasts until the test lets it end, or until its signal aborts. */
function heldSleep() {
  let entered: () => void = () => {};
  const waiting = new Promise<void>((resolve) => {
    entered = resolve;
  });
  let release: () => void = () => {};
  const sleep: Sleep = (_ms, signal) =>
    new Promise<void>((resolve, reject) => {
      signal.throwIfAborted();
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      release = resolve;
      entered();
    });
  return { sleep, waiting, release: () => release() };
}

const noSleep: Sleep = async () => {};

for (const target of await storeTargets()) {
  describe(`a channel post's job across two processes, on ${target.dialect}`, { skip: target.skip }, () => {
    let store: Store;
    let other: Store;
    let cleanup: () => Promise<void>;
    let fake: FakeTelegram;
    let clock: FakeClock;
    beforeEach(async () => {
      const opened = await target.open();
      ({ store, cleanup } = opened);
      other = openStore(opened.env);
      fake = await startFakeTelegram();
      fake.addChannel({ id: CHANNEL, title: 'Held channel' });
      fake.makeBotAdmin(CHANNEL);
      clock = createFakeClock();
      await createChannelPostRepository(store.db).insert(GIVEAWAY_ID, CHANNEL, 'en', clock.now().getTime());
    });
    afterEach(async () => {
      await fake?.close();
      await other?.close();
      await cleanup?.();
    });

    const now = () => clock.now().getTime();
    const posted = (pattern: RegExp) =>
      fake.calls.filter(
        (c) =>
          c.ok && c.method === 'sendMessage' && c.params.chat_id === CHANNEL && pattern.test(c.params.text),
      );
    const repeats = (log: RecordingLogger) => log.entries.filter((e) => /sent again/.test(e.message));

    /**
     * One `tyche serve` as far as channel posts go: its own connection to the store, its own paced
     * Bot API and its runner. `queue` stands in for the jobs table when the process is to die.
     */
    function process(db: Store, options: { sleep?: Sleep; queue?: (jobs: JobRepository) => JobQueue } = {}) {
      const jobs = createJobRepository(db.db);
      const log = recordingLogger();
      const api = new Api(fake.token, { apiRoot: fake.url });
      api.config.use(
        throttle({ perSecond: 1000, perGroupPerMinute: 20, now, sleep: options.sleep ?? noSleep }),
      );
      const posts = createChannelPostJobs({
        api,
        giveaways,
        posts: createChannelPostRepository(db.db),
        botUsers: { startedEntrants: async () => [] },
        jobs,
        botUsername: 'tyche_test_bot',
        publicBaseUrl: 'http://tyche.test',
        perSecond: 1000,
        clock,
        log,
      });
      const queue = options.queue?.(jobs) ?? jobs;
      const runner = createJobRunner({ jobs: queue, clock, leaseMs: LEASE, handlers: posts.handlers, log });
      return { runner, log, jobs };
    }

    const enqueue = (kind: 'giveaway' | 'closed') =>
      createJobRepository(store.db).enqueue(
        channelPostJob(PUBLIC_ID, { giveawayId: GIVEAWAY_ID, kind }, now()),
      );
    const closedKey = `post:closed:${PUBLIC_ID}`;

    test('killed after Telegram took the post, before the job was done: posted again once, and said so', async () => {
      // This process dies right after the handler returns: its job's outcome is never written.
      const dying = process(store, {
        queue: (jobs) => ({
          claimDue: (input) => jobs.claimDue(input),
          beginEffect: (id, input) => jobs.beginEffect(id, input),
          complete: () => new Promise(() => {}),
          retry: () => new Promise(() => {}),
        }),
      });
      await enqueue('closed');
      void dying.runner.runDue();
      await fake.waitFor((c) => c.method === 'sendMessage' && /Entries closed/.test(c.params.text));

      const next = process(other);
      clock.advance(LEASE);
      assert.equal(await next.runner.runDue(), 0, 'the dead process holds its lease to its end');
      clock.advance(1);
      assert.equal(await next.runner.runDue(), 1);

      // Telegram cannot tell the store whether it has the first one: it is posted again...
      assert.equal(posted(/Entries closed/).length, 2);
      // ...by a process that knows it may be a repeat, and says which job's.
      const [repeat, ...more] = repeats(next.log);
      assert.equal(more.length, 0);
      assert.equal(repeat.level, 'warn');
      assert.equal(repeat.fields.key, closedKey);
      assert.equal(repeat.fields.attempt, 2);
      const job = await next.jobs.find(closedKey);
      assert.equal(job?.doneAt, now());
      assert.equal(job?.lastError, null, 'the note of the effect under way goes once the job is done');
    });

    test('killed while the post waited for the channel’s pace: posted once by the next claim, no repeat', async () => {
      const held = heldSleep();
      const first = process(store, { sleep: held.sleep });
      await enqueue('giveaway');
      assert.equal(await first.runner.runDue(), 1);
      // The channel's next post is three seconds away in this process: it waits, and dies waiting.
      await enqueue('closed');
      void first.runner.runDue();
      await held.waiting;

      const next = process(other);
      clock.advance(LEASE + 1);
      assert.equal(await next.runner.runDue(), 1);
      assert.equal(posted(/Entries closed/).length, 1);
      assert.deepEqual(repeats(next.log), [], 'nothing had left: no repeat to report');
    });

    test('stalled past its lease while waiting, it posts nothing once it wakes: the other process posted', async () => {
      const held = heldSleep();
      const stalled = process(store, { sleep: held.sleep });
      await enqueue('giveaway');
      assert.equal(await stalled.runner.runDue(), 1);
      await enqueue('closed');
      const stalledRun = stalled.runner.runDue();
      await held.waiting;

      // No renewal reaches the store meanwhile (the process is stalled); its lease ends.
      const next = process(other);
      clock.advance(LEASE + 1);
      assert.equal(await next.runner.runDue(), 1);
      assert.equal(posted(/Entries closed/).length, 1);

      // Awake again, the stalled run finds its claim gone when the post is to leave.
      held.release();
      assert.equal(await stalledRun, 1);
      assert.equal(posted(/Entries closed/).length, 1, 'the post is not made a second time');
      assert.ok(stalled.log.entries.some((e) => /job lease lost/.test(e.message)));
      const job = await next.jobs.find(closedKey);
      assert.equal(job?.failures, 0, 'a run that lost its claim has not failed');
      assert.deepEqual([...repeats(stalled.log), ...repeats(next.log)], []);
    });

    test('a renewal that finds the job taken stops the pacing wait: the post is not made', async () => {
      const held = heldSleep();
      const slow = process(store, { sleep: held.sleep });
      await enqueue('giveaway');
      assert.equal(await slow.runner.runDue(), 1);
      await enqueue('closed');
      const slowRun = slow.runner.runDue();
      await held.waiting;

      const next = process(other);
      clock.advance(LEASE + 1);
      assert.equal(await next.runner.runDue(), 1);
      // The heartbeat of the first process learns that the job is someone else's: its wait ends
      // there, and had it ended by itself now, the post would still not leave.
      assert.equal(await slow.runner.renewLeases(), 0);
      held.release();
      assert.equal(await slowRun, 1);
      assert.equal(posted(/Entries closed/).length, 1);
      assert.equal((await next.jobs.find(closedKey))?.failures, 0);
    });
  });
}

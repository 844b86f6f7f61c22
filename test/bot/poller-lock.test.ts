import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createPostgresPollerLock } from '../../src/bot/poller-lock.ts';
import { createTelegram, fetchBotInfo } from '../../src/bot/telegram.setup.ts';
import { createConfig } from '../../src/config.ts';
import { createServices } from '../../src/services.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { type FakeTelegram, startFakeTelegram } from '../helpers/fake-telegram.ts';
import { storeTargets } from '../helpers/stores.ts';
import { recordingLogger } from './bot-harness.ts';
import { createMemoryGiveaways } from './memory-giveaways.ts';
import { telegramUser, textMessage } from './telegram-updates.ts';

const postgres = (await storeTargets()).find((t) => t.dialect === 'postgres')!;

describe('one poller across processes sharing PostgreSQL', { skip: postgres.skip }, () => {
  let opened: Awaited<ReturnType<typeof postgres.open>>;
  let fake: FakeTelegram;
  before(async () => {
    opened = await postgres.open();
    fake = await startFakeTelegram();
  });
  after(async () => {
    await fake.close();
    await opened.cleanup();
  });

  test('the advisory lock has one holder; it passes on at release and is reported lost with its connection', async () => {
    const url = opened.env.DATABASE_URL!;
    const log = recordingLogger();
    const first = createPostgresPollerLock(url, 42, log);
    const second = createPostgresPollerLock(url, 42, log);
    const otherBot = createPostgresPollerLock(url, 43, log);
    try {
      assert.equal(await first.tryAcquire(), true);
      assert.equal(await second.tryAcquire(), false);
      assert.equal(await otherBot.tryAcquire(), true, 'each bot has its own lock');
      await first.release();
      assert.equal(await second.tryAcquire(), true);

      await otherBot.release();
      const lost = new Promise<void>((resolve) => second.onLost(resolve));
      // Only `second` holds an advisory lock in this test database now: end its connection.
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const { rowCount } = await admin.query(
        `select pg_terminate_backend(pid) from pg_locks
          where locktype = 'advisory' and granted
            and database = (select oid from pg_database where datname = current_database())`,
      );
      await admin.end();
      assert.equal(rowCount, 1);
      await lost;
      assert.equal(await first.tryAcquire(), true, 'a dead holder frees the lock');
    } finally {
      await Promise.all([first.release(), second.release(), otherBot.release()]);
    }
  });

  test('of two bots on one database only one polls; the other takes over when it stops', async () => {
    const runA = await process(opened.env.DATABASE_URL!, 'a');
    const pollsFrom = (client: string, after = 0) =>
      fake.calls.slice(after).filter((c) => c.method === 'getUpdates' && c.client === client).length;
    await fake.waitFor((c) => c.method === 'getUpdates' && c.client === 'a');
    const runB = await process(opened.env.DATABASE_URL!, 'b');
    try {
      const mark = fake.calls.length;
      // Several of A's long polls go by while B keeps trying the lock (every 20 ms).
      for (let i = 0; i < 3; i++) {
        const seen = fake.calls.length;
        await fake.waitFor((c) => c.method === 'getUpdates' && c.client === 'a', { after: seen });
      }
      const user = telegramUser();
      fake.push(textMessage(user, '/help'));
      const reply = await fake.waitFor(
        (c) => c.method === 'sendMessage' && Number(c.params.chat_id) === user.id,
      );
      assert.equal(reply.client, 'a');
      assert.equal(pollsFrom('b', mark), 0, 'B never polled while A held the lock');

      await runA.close();
      const handover = fake.calls.length;
      await fake.waitFor((c) => c.method === 'getUpdates' && c.client === 'b', { after: handover });
      const next = telegramUser();
      fake.push(textMessage(next, '/help'));
      const answered = await fake.waitFor(
        (c) => c.method === 'sendMessage' && Number(c.params.chat_id) === next.id,
      );
      assert.equal(answered.client, 'b');
      assert.equal(pollsFrom('a', handover), 0, 'A stopped polling');
    } finally {
      await runA.close();
      await runB.close();
    }
  });

  test('a poller whose lock connection dies stops, then polls again once it holds the lock anew', async () => {
    const run = await process(opened.env.DATABASE_URL!, 'c');
    try {
      await fake.waitFor((c) => c.method === 'getUpdates' && c.client === 'c');
      const admin = new pg.Client({ connectionString: opened.env.DATABASE_URL! });
      await admin.connect();
      await admin.query(
        `select pg_terminate_backend(pid) from pg_locks
          where locktype = 'advisory' and granted
            and database = (select oid from pg_database where datname = current_database())`,
      );
      await admin.end();
      const lost = await run.log.waitFor('bot poller lock lost with its connection');
      assert.equal(lost.level, 'warn');
      const resumed = run.log.entries.length;
      await run.log.waitFor('bot is polling Telegram for updates', resumed);
      const user = telegramUser();
      fake.push(textMessage(user, '/help'));
      const reply = await fake.waitFor(
        (c) => c.method === 'sendMessage' && Number(c.params.chat_id) === user.id,
      );
      assert.equal(reply.client, 'c');
    } finally {
      await run.close();
    }
  });

  /** What one `tyche serve` process runs for the bot: its own store handle, lock and poller. */
  async function process(databaseUrl: string, client: string) {
    const config = createConfig({
      DATABASE_URL: databaseUrl,
      TYCHE_SOURCES: 'system',
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: `${fake.url}/${client}`,
    });
    const store: Store = openStore(config);
    const log = recordingLogger();
    const services = createServices(config, store);
    const telegram = createTelegram(await fetchBotInfo(config), {
      config,
      store,
      accounts: services.accounts,
      giveaways: createMemoryGiveaways(),
      console: services.giveaways,
      jobs: services.jobs,
      clock: services.clock,
      log,
      retryMs: 20,
    });
    telegram.start();
    let closing: Promise<void> | undefined;
    return {
      log,
      close: () => {
        closing ??= telegram.stop().then(() => store.close());
        return closing;
      },
    };
  }
});

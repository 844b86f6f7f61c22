import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { User } from 'grammy/types';
import { systemClock } from '../src/shared/clock.ts';
import { telegramUser, textMessage, buttonPress } from '../test/bot/telegram-updates.ts';
import { runTyche } from '../test/helpers/cli.ts';
import { type FakeTelegram, startFakeTelegram, type TelegramCall } from '../test/helpers/fake-telegram.ts';
import { type FakeDrand, startFakeDrand } from '../test/helpers/fake-upstreams.ts';
import { type ServerProcess, startServerProcess } from '../test/helpers/server-process.ts';
import { storeTargets } from '../test/helpers/stores.ts';
import { pause, until } from './crash-helpers.ts';

/**
 * The bot's promises under SIGKILL: giveaways made with /new, entrants joining through the bot,
 * seals and draws, while a killer restarts the server processes. Afterwards every channel post
 * (the giveaway, entries closed, results), every receipt and every winner notice has been sent,
 * each once — or, when a process was killed between handing that message to Telegram and its
 * job's commit (Telegram has no idempotency key), once more for each such kill, and never without
 * the process that sent it again logging so for that job (src/bot/api/job-message.ts). Random kills
 * rarely land in that window, so one kill is aimed at it: the post cut by it must come again, logged.
 */
const GIVEAWAYS = 3;
const JOINERS = 8;
const KILLS = Number(process.env.CRASH_BOT_KILLS ?? 4);
const CHANNEL = -1_007_000_000_001;

const text = (c: TelegramCall) => String(c.params.text ?? '');
/** The job keys of the messages sent again after an earlier attempt may have reached Telegram. */
const repeatedJobs = (logs: readonly string[][]) =>
  logs
    .flat()
    .filter((line) => line.includes('sent again'))
    .map((line) => String(JSON.parse(line).key));
const sent = (fake: FakeTelegram, chatId: number, pattern: RegExp) =>
  fake.calls.filter((c) => c.ok && c.method === 'sendMessage' && Number(c.params.chat_id) === chatId && pattern.test(text(c)));


const targets = await storeTargets();

for (const target of targets) {
  const processes = target.dialect === 'postgres' ? 2 : 1;
  describe(`the bot's promises under SIGKILL (${target.dialect}, ${processes} process${processes > 1 ? 'es' : ''})`, { skip: target.skip }, () => {
    const servers: (ServerProcess | undefined)[] = [];
    /** Every process's log, the killed ones' included: a repeat is logged by whoever sends it. */
    const logs: string[][] = [];
    let fake: FakeTelegram | undefined;
    let drand: FakeDrand | undefined;
    let cleanup: (() => Promise<void>) | undefined;
    after(async () => {
      await Promise.all(servers.map((s) => s?.stop()));
      await fake?.close();
      await drand?.close();
      await cleanup?.().catch(() => {});
    });

    test('every channel post, receipt and winner notice is sent once', async () => {
      const opened = await target.open();
      await opened.store.close();
      cleanup = opened.cleanup;
      fake = await startFakeTelegram();
      drand = await startFakeDrand({ clock: systemClock, period: 1 });
      const env = {
        ...opened.env,
        PUBLIC_BASE_URL: 'http://tyche.crash.test',
        TYCHE_SOURCES: 'system',
        DRAND_URL: drand.url,
        DRAND_CHAIN: JSON.stringify(drand.info),
        TYCHE_SEAL_DELAY_ROUNDS: '2',
        TYCHE_DRAW_WAIT_MS: '0',
        TELEGRAM_BOT_TOKEN: fake.token,
        TELEGRAM_API_ROOT: fake.url,
        TELEGRAM_BULK_PER_SECOND: '200',
        LOG_LEVEL: 'warn',
      } as Record<string, string>;
      const owner = telegramUser({ username: 'crash_owner' });
      const plan = await runTyche(['accounts', 'plan', String(owner.id), 'business'], env);
      assert.equal(plan.code, 0, plan.stderr);
      const created = await runTyche(['keys', 'create', '--owner', String(owner.id), '--json'], env);
      assert.equal(created.code, 0, created.stderr);
      const key = JSON.parse(created.stdout).key as string;
      fake.addChannel({ id: CHANNEL, title: 'Crash channel', username: 'crash_channel' });
      fake.makeBotAdmin(CHANNEL);
      const start = async (i: number) => {
        const server = await startServerProcess(env);
        servers[i] = server;
        logs.push(server.logs);
      };
      for (let i = 0; i < processes; i++) await start(i);
      const f = fake;

      /** Sends a message and waits for the bot's next answer to that user. */
      const say = async (user: User, message: string, pattern: RegExp) => {
        const after = f.calls.length;
        f.push(textMessage(user, message));
        return f.waitFor((c) => c.ok && c.method === 'sendMessage' && c.params.chat_id === user.id && pattern.test(text(c)), {
          after,
          timeoutMs: 30_000,
        });
      };

      // Giveaways made in the chat, before the kills start.
      const ids: string[] = [];
      for (let g = 0; g < GIVEAWAYS; g++) {
        await say(owner, '/new', /step 1 of 6/);
        await say(owner, `Crash giveaway ${g}`, /Step 2/);
        await say(owner, '-', /Step 3/);
        await say(owner, '2', /Step 4/);
        await say(owner, 'in 3d', /Step 5/);
        await say(owner, '@crash_channel', /Step 6/);
        const preview = await say(owner, '-', /Preview/);
        const publish = (preview.params.reply_markup.inline_keyboard as { text: string; callback_data: string }[][])
          .flat()
          .find((b) => b.text === 'Publish')!;
        const after = f.calls.length;
        f.push(buttonPress(owner, publish.callback_data));
        const published = await f.waitFor((c) => c.method === 'editMessageText' && /Published/.test(text(c)), {
          after,
          timeoutMs: 30_000,
        });
        ids.push(/\/g\/([A-Za-z0-9_-]+)/.exec(text(published))![1]);
      }

      // Entrants join through the bot while processes are killed; a join counts once answered.
      const joined = new Map<string, Set<number>>(ids.map((id) => [id, new Set()]));
      let stop = false;
      const joiners = ids.map(async (id) => {
        for (let j = 0; j < JOINERS && !stop; j++) {
          const user = telegramUser();
          const answered = await say(user, `/start g_${id}`, /entry number/).catch(() => undefined);
          if (answered) joined.get(id)!.add(user.id);
        }
      });
      /** One restart at a time, so the killer and the aimed kill never start one slot twice. */
      let restarts = Promise.resolve();
      let restarting = false;
      const restart = (i: number) => {
        restarts = restarts.then(async () => {
          restarting = true;
          await servers[i]?.stop('SIGKILL');
          servers[i] = undefined;
          await start(i);
          restarting = false;
        });
        return restarts;
      };
      const killer = (async () => {
        for (let k = 0; k < KILLS; k++) {
          await pause(1500);
          await restart(k % processes);
        }
      })();
      // The aimed kill: as the fake Bot API takes a channel post made after a seal, before it
      // answers, every server process is killed (none is starting then, so the sender is among
      // them). The sender never learns that Telegram has the post; its job comes round again when
      // the lease ends.
      let aimed: string | undefined;
      let disarmed = false;
      const aim = f
        .waitFor(
          (c) => {
            if (disarmed) return true;
            if (aimed || restarting || c !== f.calls.at(-1) || !c.ok || c.method !== 'sendMessage') return false;
            const kind = /Entries closed/.test(text(c)) ? 'closed' : /Results/.test(text(c)) ? 'results' : undefined;
            const giveaway = /Crash giveaway (\d+)/.exec(text(c));
            if (Number(c.params.chat_id) !== CHANNEL || !kind || !giveaway) return false;
            for (const server of servers) server?.child.kill('SIGKILL');
            aimed = `post:${kind}:${ids[Number(giveaway[1])]}`;
            return true;
          },
          { after: f.calls.length, timeoutMs: 600_000 },
        )
        .then(async () => {
          if (aimed) for (let i = 0; i < processes; i++) await restart(i);
        });
      await Promise.all(joiners);
      // Then each giveaway is sealed through the API while the killer may still be at work.
      const api = async (path: string) => {
        for (;;) {
          const base = servers.find((s) => s)?.url;
          const res = base
            ? await fetch(`${base}/api/v1${path}`, {
                method: 'POST',
                headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
                body: '{}',
              }).catch(() => undefined)
            : undefined;
          if (res && (res.status === 200 || res.status === 409)) return res.status;
          await pause(200);
        }
      };
      for (const id of ids) await api(`/giveaways/${id}/seal`);
      await killer;
      stop = true;

      // Every promise kept: three posts per giveaway, a receipt per acknowledged joiner (those
      // answered and then sealed in), a notice per winner.
      const posts = (id: string, kind: RegExp) => sent(f, CHANNEL, kind).filter((c) => text(c).includes(`Crash giveaway ${ids.indexOf(id)}`));
      await until('every channel post', () =>
        ids.every(
          (id) =>
            posts(id, /Press Join/).length > 0 && posts(id, /Entries closed/).length > 0 && posts(id, /Results/).length > 0,
        ),
      );
      const receiptsOf = (userId: number) => sent(f, userId, /are closed\. You are entrant/);
      const allJoined = [...joined.values()].flatMap((s) => [...s]);
      await until('every receipt', () => allJoined.every((u) => receiptsOf(u).length > 0));
      const named = sent(f, CHANNEL, /Results/).flatMap((c) => [...text(c).matchAll(/@(tester_\d+)/g)]);
      const winners = [...new Set(named.map((m) => Number(m[1].slice(7))))];
      await until('every winner notice', () => winners.every((u) => sent(f, u, /You are winner/).length > 0));
      // Every post made after a seal may have been sent while a restart was under way: none aimed at.
      disarmed = true;
      await aim;
      assert.ok(aimed, 'a kill was aimed at the send window of a channel post');
      const aimedAt = aimed;
      const [aimedKind, aimedId] = aimedAt.split(':').slice(1);
      const aimedCopies = () => posts(aimedId, aimedKind === 'closed' ? /Entries closed/ : /Results/).length;
      await until(
        'the post cut by the aimed kill, sent again',
        () => repeatedJobs(logs).includes(aimedAt) && aimedCopies() >= 2,
      );

      // Each once, or again only as often as a process said it was sending that job's message again.
      const repeated = repeatedJobs(logs);
      const repeats = (key: (k: string) => boolean) => repeated.filter(key).length;
      let extra = 0;
      const once = (copies: number, key: (k: string) => boolean, what: string) => {
        extra += copies - 1;
        assert.ok(copies - 1 <= repeats(key), `${what}: ${copies} copies, ${repeats(key)} logged as sent again`);
      };
      for (const id of ids) {
        for (const [kind, pattern] of [
          ['giveaway', /Press Join/],
          ['closed', /Entries closed/],
          ['results', /Results/],
        ] as const) {
          once(posts(id, pattern).length, (k) => k === `post:${kind}:${id}`, `${id}: the ${kind} post`);
        }
        for (const u of joined.get(id)!) {
          once(receiptsOf(u).length, (k) => k === `receipt:${id}:${u}`, `the receipt to ${u}`);
        }
      }
      for (const u of winners) {
        const notice = (k: string) => k.startsWith('winner:') && k.endsWith(`:${u}`);
        once(sent(f, u, /You are winner/).length, notice, `the notice to ${u}`);
      }

      process.stdout.write(
        `# bot ${target.dialect}: ${KILLS} kills, ${GIVEAWAYS} giveaways, ${allJoined.length} joins, ` +
          `${winners.length} winners, ${f.calls.length} Bot API calls; ${repeated.length} messages sent ` +
          `again after a kill in their send window (one aimed: ${aimedAt}), ${extra} extra copies\n`,
      );
    });
  });
}

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { webhookSecret } from '../../src/bot/telegram.setup.ts';
import { type ConfigInput, createConfig } from '../../src/config.ts';
import { type RunningServer, startServer } from '../../src/server.ts';
import { createServices } from '../../src/services.ts';
import { type FakeTelegram, startFakeTelegram } from '../helpers/fake-telegram.ts';
import { telegramUser, textMessage } from './telegram-updates.ts';

/** `tyche serve` as composed by startServer, with the bot pointed at a fake Bot API. */
async function serve(fake: FakeTelegram, extra: ConfigInput = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-bot-'));
  const config = createConfig({
    DATA_DIR: dir,
    PORT: '0',
    TYCHE_SOURCES: 'system',
    TELEGRAM_BOT_TOKEN: fake.token,
    TELEGRAM_API_ROOT: fake.url,
    TYCHE_TSA_URLS: '',
    ...extra,
  });
  const server = await startServer(config, pino({ level: 'silent' }));
  return {
    server,
    config,
    async close() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface GiveawayBody {
  public_id: string;
  join_url?: string;
  participants_count: number;
  verify_url: string;
  winners: { telegram_id: number }[];
}

async function api(server: RunningServer, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as GiveawayBody };
}

describe('tyche serve with the bot (long polling)', () => {
  let fake: FakeTelegram;
  let running: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    fake = await startFakeTelegram();
    running = await serve(fake);
  });
  after(async () => {
    await running.close();
    await fake.close();
  });

  test('polls, publishes its commands, and never registers a webhook', async () => {
    await fake.waitFor((c) => c.method === 'getUpdates');
    await fake.waitFor((c) => c.method === 'setMyCommands');
    assert.equal(fake.callsTo('setWebhook').length, 0);
  });

  test('a giveaway from the API is joined in the bot, drawn, and its winner told', async () => {
    const owner = telegramUser();
    const { key } = await keyFor(running.server, owner.id);
    const created = await api(running.server, key, 'POST', '/api/v1/giveaways', {
      title: 'Launch party',
      winners_count: 1,
      draw_mode: 'instant',
    });
    assert.equal(created.status, 201);
    const publicId = created.body.public_id;
    assert.equal(created.body.join_url, `https://t.me/${fake.botInfo.username}?start=g_${publicId}`);

    const user = telegramUser();
    let after = fake.calls.length;
    fake.push(textMessage(user, `/start ${new URL(created.body.join_url!).searchParams.get('start')}`));
    const joined = await fake.waitFor(
      (c) => c.method === 'sendMessage' && Number(c.params.chat_id) === user.id,
      { after },
    );
    assert.match(joined.params.text, /You joined “Launch party”\. Your entry number is 1\./);

    after = fake.calls.length;
    fake.push(textMessage(user, `/start g_${publicId}`));
    const again = await fake.waitFor(
      (c) => c.method === 'sendMessage' && Number(c.params.chat_id) === user.id,
      { after },
    );
    assert.match(again.params.text, /already in .*entry number 1/);

    after = fake.calls.length;
    const drawn = await api(running.server, key, 'POST', `/api/v1/giveaways/${publicId}/draw`, {});
    assert.equal(drawn.status, 200);
    assert.deepEqual(
      drawn.body.winners.map((w) => w.telegram_id),
      [user.id],
    );
    const notice = await fake.waitFor(
      (c) => c.method === 'sendMessage' && Number(c.params.chat_id) === user.id,
      {
        after,
        timeoutMs: 10_000,
      },
    );
    assert.ok(notice.params.text.includes(drawn.body.verify_url));
    assert.match(notice.params.text, /winner #1 of “Launch party”/);

    const late = telegramUser();
    after = fake.calls.length;
    fake.push(textMessage(late, `/start g_${publicId}`));
    const refused = await fake.waitFor(
      (c) => c.method === 'sendMessage' && Number(c.params.chat_id) === late.id,
      { after },
    );
    assert.match(refused.params.text, /already been drawn/);
    const participants = await api(running.server, key, 'GET', `/api/v1/giveaways/${publicId}`);
    assert.equal(participants.body.participants_count, 1);
  });
});

/** A business key for `telegramId`, as `tyche keys create --owner` would make it. */
function keyFor(server: RunningServer, telegramId: number) {
  const services = createServices(createConfig({ TYCHE_SOURCES: 'system' }), server.store);
  return services.accounts.createKey({ plan: 'business', ownerTelegramId: telegramId });
}

describe('tyche serve with the bot (webhook)', () => {
  let fake: FakeTelegram;
  let running: Awaited<ReturnType<typeof serve>>;
  const hook = 'https://bot.example.com/telegram/hook';
  before(async () => {
    fake = await startFakeTelegram();
    running = await serve(fake, { TELEGRAM_WEBHOOK_URL: hook });
  });
  after(async () => {
    await running.close();
    await fake.close();
  });

  const post = (headers: Record<string, string>, body: unknown) =>
    fetch(`${running.server.url}/telegram/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  test('registers the webhook with a secret derived from the token, and does not poll', async () => {
    const call = await fake.waitFor((c) => c.method === 'setWebhook');
    assert.equal(call.params.url, hook);
    assert.equal(call.params.secret_token, webhookSecret(running.config));
    assert.match(call.params.secret_token, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(call.params.allowed_updates, ['message', 'callback_query']);
    assert.equal(fake.callsTo('getUpdates').length, 0);
  });

  test('updates with the secret header reach the bot; others are refused', async () => {
    const user = telegramUser();
    const update = { update_id: 1, ...textMessage(user, '/start') };
    assert.equal((await post({}, update)).status, 401);
    assert.equal((await post({ 'x-telegram-bot-api-secret-token': 'wrong' }, update)).status, 401);
    assert.equal(fake.callsTo('sendMessage').length, 0);

    const secret = webhookSecret(running.config);
    const ok = await post({ 'x-telegram-bot-api-secret-token': secret }, update);
    assert.equal(ok.status, 200);
    const reply = fake.callsTo('sendMessage').find((c) => Number(c.params.chat_id) === user.id);
    assert.match(reply?.params.text, /Welcome to Tyche/, 'answered before the webhook call returned');
    assert.equal((await post({ 'x-telegram-bot-api-secret-token': secret }, { hello: 1 })).status, 400);
  });

  test('an explicit TELEGRAM_WEBHOOK_SECRET is used as given', () => {
    const config = createConfig({ TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_WEBHOOK_SECRET: 'my-secret_1' });
    assert.equal(webhookSecret(config), 'my-secret_1');
  });
});

describe('tyche serve with a refused token', () => {
  test('fails to start with a message naming TELEGRAM_BOT_TOKEN', async () => {
    const fake = await startFakeTelegram();
    try {
      await assert.rejects(serve(fake, { TELEGRAM_BOT_TOKEN: '999:wrong-token' }), /TELEGRAM_BOT_TOKEN: 401/);
    } finally {
      await fake.close();
    }
  });
});

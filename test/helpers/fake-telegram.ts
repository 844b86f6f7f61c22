import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Update, UserFromGetMe } from 'grammy/types';

/** A Bot API payload as sent: its shape depends on the method, and tests read it freely. */
// biome-ignore lint/suspicious/noExplicitAny: any Bot API method's parameters
export type Params = Record<string, any>;

export interface TelegramCall {
  /** First path segment before `/bot<token>`, if any: tells apart bots sharing one fake. */
  client: string;
  token: string;
  method: string;
  params: Params;
  /** What the fake answered. */
  ok: boolean;
  error_code?: number;
}

export interface ScriptedFailure {
  method: string;
  /** Only calls to this chat (`chat_id`); any chat when absent. */
  chatId?: number;
  error_code: number;
  description: string;
  retry_after?: number;
  /** How many matching calls fail; then the rule is spent. Infinity for always. */
  times?: number;
}

/** A channel the fake knows: getChat answers for it, getChatMember from its member table. */
export interface FakeChannel {
  id: number;
  title: string;
  username?: string;
  invite_link?: string;
}

/** A member record as getChatMember returns it (status and, for admins, rights). */
export type FakeMember = Params & { status: string };

export interface FakeTelegram {
  /** The Bot API root to give the bot (TELEGRAM_API_ROOT). */
  readonly url: string;
  readonly token: string;
  readonly botInfo: UserFromGetMe;
  readonly calls: readonly TelegramCall[];
  /** Most getUpdates requests that were ever open at the same time. */
  readonly maxConcurrentPolls: number;
  /** What the last setWebhook registered. */
  readonly webhook: { url: string; secret_token?: string } | undefined;
  callsTo(method: string): TelegramCall[];
  /** Texts of the messages delivered (answered ok) to one chat, in order. */
  messagesTo(chatId: number): string[];
  /** Queues an update for getUpdates; returns its update_id. */
  push(update: Omit<Update, 'update_id'>): number;
  /** Resolves with the first call (from index `after` on) that matches; rejects after `timeoutMs`. */
  waitFor(
    match: (call: TelegramCall) => boolean,
    options?: { after?: number; timeoutMs?: number },
  ): Promise<TelegramCall>;
  fail(rule: ScriptedFailure): void;
  /** Every sendMessage to this chat answers 403, as when the user blocked the bot. */
  block(chatId: number): void;
  /** Registers a channel; the bot is not a member until `setMember(id, botId, …)`. */
  addChannel(channel: FakeChannel): void;
  /** Sets what getChatMember answers for this user in this channel. */
  setMember(chatId: number, userId: number, member: FakeMember): void;
  /** Makes the bot an admin of the channel who may post and edit. */
  makeBotAdmin(chatId: number, rights?: Params): void;
  /** The current text of a message the bot sent or edited, by chat and message id. */
  messageText(chatId: number, messageId: number): string | undefined;
  close(): Promise<void>;
}

const DEFAULT_TOKEN = '123456:TEST-token_for-fake';
/** How long an empty getUpdates is held: long enough not to spin, short enough for quick tests. */
const MAX_HOLD_MS = 200;

/**
 * A Bot API server on 127.0.0.1 for tests: `POST [/client]/bot<token>/<method>` with JSON
 * answers `{ok: true, result}` or `{ok: false, error_code, description, parameters}`, the
 * shapes grammY parses. It feeds pushed updates to getUpdates and records every call.
 */
export async function startFakeTelegram(
  options: { token?: string; username?: string } = {},
): Promise<FakeTelegram> {
  const token = options.token ?? DEFAULT_TOKEN;
  const botInfo: UserFromGetMe = {
    id: Number(token.split(':')[0]),
    is_bot: true,
    first_name: 'Tyche Test',
    username: options.username ?? 'tyche_test_bot',
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
  } as UserFromGetMe;
  const calls: TelegramCall[] = [];
  const queue: Update[] = [];
  const rules: (ScriptedFailure & { left: number })[] = [];
  const blocked = new Set<number>();
  const wakers = new Set<() => void>();
  const callListeners = new Set<() => void>();
  let nextUpdateId = 1;
  let nextMessageId = 1;
  let openPolls = 0;
  let maxConcurrentPolls = 0;
  let webhook: FakeTelegram['webhook'];
  const channels = new Map<number, FakeChannel>();
  const members = new Map<string, FakeMember>();
  /** Messages as they stand now (after edits), by `chat:message`. */
  const messages = new Map<string, { text: string; markup: string }>();
  const memberKey = (chatId: number, userId: number) => `${chatId}:${userId}`;
  const channelOf = (ref: unknown): FakeChannel | undefined => {
    if (typeof ref === 'string' && ref.startsWith('@')) {
      return [...channels.values()].find((c) => c.username?.toLowerCase() === ref.slice(1).toLowerCase());
    }
    return channels.get(Number(ref));
  };
  const botMember = (chatId: number) => members.get(memberKey(chatId, botInfo.id));
  const isAdmin = (m: FakeMember | undefined) => m?.status === 'administrator' || m?.status === 'creator';

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match = /^(?:\/([^/]+))?\/bot([^/]+)\/([A-Za-z]+)$/.exec(
      new URL(req.url ?? '/', 'http://x').pathname,
    );
    const body = await readBody(req);
    if (!match) return send(res, { ok: false, error_code: 404, description: 'Not Found' });
    const [, client = '', callToken, method] = match;
    const params = parseParams(body, req.headers['content-type'], req.url ?? '');
    const call: TelegramCall = { client, token: callToken, method, params, ok: true };
    const answer = (reply: Reply) => {
      call.ok = reply.ok;
      if (!reply.ok) call.error_code = reply.error_code;
      calls.push(call);
      for (const listener of callListeners) listener();
      send(res, reply);
    };
    if (callToken !== token) return answer({ ok: false, error_code: 401, description: 'Unauthorized' });
    const failure = scriptedFailure(method, params);
    if (failure) return answer(failure);
    if (method === 'getUpdates') return answer(await getUpdates(params, req));
    answer(reply(method, params));
  }

  function scriptedFailure(method: string, params: Params): Reply | undefined {
    const chatId = params.chat_id === undefined ? undefined : Number(params.chat_id);
    if (method === 'sendMessage' && chatId !== undefined && blocked.has(chatId)) {
      return { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' };
    }
    const rule = rules.find((r) => r.method === method && (r.chatId === undefined || r.chatId === chatId));
    if (!rule) return undefined;
    if (--rule.left <= 0) rules.splice(rules.indexOf(rule), 1);
    return {
      ok: false,
      error_code: rule.error_code,
      description: rule.description,
      ...(rule.retry_after === undefined ? {} : { parameters: { retry_after: rule.retry_after } }),
    };
  }

  async function getUpdates(params: Params, req: IncomingMessage): Promise<Reply> {
    const offset = Number(params.offset ?? 0);
    // As in Telegram, asking from `offset` confirms (drops) every earlier update.
    while (queue.length > 0 && queue[0].update_id < offset) queue.shift();
    const limit = Number(params.limit ?? 100);
    const holdMs = Math.min(Number(params.timeout ?? 0) * 1000, MAX_HOLD_MS);
    if (queue.length === 0 && holdMs > 0) {
      openPolls++;
      maxConcurrentPolls = Math.max(maxConcurrentPolls, openPolls);
      try {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            wakers.delete(done);
            req.off('close', done);
            resolve();
          };
          const timer = setTimeout(done, holdMs);
          wakers.add(done);
          req.once('close', done);
        });
      } finally {
        openPolls--;
      }
    }
    return { ok: true, result: queue.slice(0, limit) };
  }

  function reply(method: string, params: Params): Reply {
    const now = Math.floor(Date.now() / 1000);
    switch (method) {
      case 'getMe':
        return { ok: true, result: botInfo };
      case 'sendMessage': {
        const channel = channelOf(params.chat_id);
        if (channel && !isAdmin(botMember(channel.id))) {
          return {
            ok: false,
            error_code: 403,
            description: 'Forbidden: bot is not a member of the channel chat',
          };
        }
        const chat = channel
          ? { id: channel.id, type: 'channel', title: channel.title, username: channel.username }
          : chatOf(params.chat_id);
        const messageId = nextMessageId++;
        messages.set(`${chat.id}:${messageId}`, {
          text: String(params.text),
          markup: JSON.stringify(params.reply_markup ?? null),
        });
        return {
          ok: true,
          result: {
            message_id: messageId,
            date: now,
            chat,
            from: botInfo,
            text: params.text,
            ...(params.reply_markup ? { reply_markup: params.reply_markup } : {}),
          },
        };
      }
      case 'editMessageText': {
        const chatId = channelOf(params.chat_id)?.id ?? Number(params.chat_id);
        const key = `${chatId}:${Number(params.message_id ?? 0)}`;
        const current = messages.get(key);
        const markup = JSON.stringify(params.reply_markup ?? null);
        // Buttons pressed in tests sit under messages the fake never sent: only channel posts are tracked.
        if (chatId < 0 && !current) {
          return { ok: false, error_code: 400, description: 'Bad Request: message to edit not found' };
        }
        if (current && current.text === String(params.text) && current.markup === markup) {
          return {
            ok: false,
            error_code: 400,
            description:
              'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
          };
        }
        if (current) messages.set(key, { text: String(params.text), markup });
        return {
          ok: true,
          result: {
            message_id: Number(params.message_id ?? 0),
            date: now,
            chat: chatOf(params.chat_id),
            text: params.text,
          },
        };
      }
      case 'getChat': {
        const channel = channelOf(params.chat_id);
        if (!channel) return { ok: false, error_code: 400, description: 'Bad Request: chat not found' };
        return {
          ok: true,
          result: {
            id: channel.id,
            type: 'channel',
            title: channel.title,
            ...(channel.username ? { username: channel.username } : {}),
            ...(channel.invite_link ? { invite_link: channel.invite_link } : {}),
            accent_color_id: 0,
            max_reaction_count: 11,
            accepted_gift_types: {
              unlimited_gifts: false,
              limited_gifts: false,
              unique_gifts: false,
              premium_subscription: false,
            },
          },
        };
      }
      case 'getChatMember': {
        const channel = channelOf(params.chat_id);
        if (!channel) return { ok: false, error_code: 400, description: 'Bad Request: chat not found' };
        const userId = Number(params.user_id);
        // As in Telegram: only an admin may ask about a channel's members other than itself.
        if (userId !== botInfo.id && !isAdmin(botMember(channel.id))) {
          return { ok: false, error_code: 400, description: 'Bad Request: member list is inaccessible' };
        }
        const member = members.get(memberKey(channel.id, userId)) ?? { status: 'left' };
        return {
          ok: true,
          result: { ...member, user: { id: userId, is_bot: userId === botInfo.id, first_name: 'U' } },
        };
      }
      case 'setWebhook':
        webhook = { url: params.url, secret_token: params.secret_token };
        return { ok: true, result: true };
      case 'deleteWebhook':
        webhook = undefined;
        return { ok: true, result: true };
      case 'getWebhookInfo':
        return {
          ok: true,
          result: { url: webhook?.url ?? '', has_custom_certificate: false, pending_update_count: 0 },
        };
      case 'answerCallbackQuery':
      case 'setMyCommands':
      case 'setChatMenuButton':
        return { ok: true, result: true };
      default:
        return { ok: false, error_code: 404, description: 'Not Found: method not found' };
    }
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    botInfo,
    calls,
    get maxConcurrentPolls() {
      return maxConcurrentPolls;
    },
    get webhook() {
      return webhook;
    },
    callsTo: (method) => calls.filter((c) => c.method === method),
    messagesTo: (chatId) =>
      calls
        .filter((c) => c.method === 'sendMessage' && c.ok && Number(c.params.chat_id) === chatId)
        .map((c) => String(c.params.text)),
    push(update) {
      const full = { ...update, update_id: nextUpdateId++ } as Update;
      queue.push(full);
      for (const wake of [...wakers]) wake();
      return full.update_id;
    },
    waitFor(match, { after = 0, timeoutMs = 5000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = calls.slice(after).find(match);
          if (!found) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching Bot API call within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          callListeners.delete(check);
        };
        callListeners.add(check);
        check();
      });
    },
    fail(rule) {
      rules.push({ ...rule, left: rule.times ?? 1 });
    },
    block(chatId) {
      blocked.add(chatId);
    },
    addChannel(channel) {
      channels.set(channel.id, channel);
    },
    setMember(chatId, userId, member) {
      members.set(memberKey(chatId, userId), member);
    },
    makeBotAdmin(chatId, rights = {}) {
      members.set(memberKey(chatId, botInfo.id), {
        status: 'administrator',
        can_be_edited: false,
        is_anonymous: false,
        can_manage_chat: true,
        can_delete_messages: true,
        can_manage_video_chats: false,
        can_restrict_members: true,
        can_promote_members: false,
        can_change_info: false,
        can_invite_users: true,
        can_post_stories: false,
        can_edit_stories: false,
        can_delete_stories: false,
        can_post_messages: true,
        can_edit_messages: true,
        ...rights,
      });
    },
    messageText(chatId, messageId) {
      return messages.get(`${chatId}:${messageId}`)?.text;
    },
    close() {
      for (const wake of [...wakers]) wake();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

type Reply =
  | { ok: true; result: unknown }
  | { ok: false; error_code: number; description: string; parameters?: { retry_after: number } };

function send(res: ServerResponse, reply: Reply): void {
  const body = JSON.stringify(reply);
  const status = reply.ok ? 200 : reply.error_code;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseParams(body: string, contentType: string | undefined, url: string): Params {
  if (contentType?.includes('application/json') && body) return JSON.parse(body);
  const form = new URLSearchParams(contentType?.includes('x-www-form-urlencoded') ? body : url.split('?')[1]);
  return Object.fromEntries(form);
}

/** The chat a message went to: a private chat by numeric id, a channel by @username or -100… id. */
function chatOf(chatId: unknown): { id: number; type: string; username?: string } {
  if (typeof chatId === 'string' && chatId.startsWith('@')) {
    return { id: -1_000_000_000_000 - chatId.length, type: 'channel', username: chatId.slice(1) };
  }
  const id = Number(chatId);
  return { id, type: id < -1_000_000_000_000 ? 'channel' : 'private' };
}

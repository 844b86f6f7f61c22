import { checkNewGiveaway, type NewGiveawayInput } from '../../giveaways/core/giveaway-input.ts';
import { type Language, translate } from '../../i18n/catalogue.ts';
import type { AmendmentReason } from '../../proof/amendments.ts';
import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import type { AppGiveaways, AppTelegram, FoundChannel } from './app-ports.ts';
import type { AppTokens } from './app-token.ts';

/** The fields of the bot's /new (CONTRACT §11), as the app's form sends them. */
export interface AppNewGiveaway {
  title: string;
  description?: string | undefined;
  winners_count: number;
  reserve_count?: number | undefined;
  ends_at?: string | undefined;
  /** The channel to post in: `@username`, `t.me/username` or a numeric id. */
  channel: string;
  /** Channels an entrant must be a member of, separated by spaces or commas. */
  required_channels?: string | undefined;
  claim_within?: string | undefined;
  terms?: string | undefined;
  /** The channel post's language, and the language of the channel refusals. */
  language: Language;
}

/** Where the owner acts: the operation context the giveaway service records draws under. */
export interface OwnerContext {
  accountId: string;
  telegramId: number;
  requestId: string;
}

const LISTED = 100;
const CHANNEL_REF = /^(?:https?:\/\/)?(?:t\.me\/|@)?([A-Za-z][A-Za-z0-9_]{3,31})$|^(-?[0-9]{5,20})$/;
/** The bot's refusals of a channel, as the app's catalogue words them. */
const CHANNEL_REFUSAL: Record<string, string> = {
  'new-channel-unknown': 'app-channel-unknown',
  'new-required-unknown': 'app-required-unknown',
  'new-not-channel': 'app-channel-not-channel',
  'new-not-admin': 'app-channel-not-admin',
  'new-cannot-post': 'app-channel-cannot-post',
};

/** `@name` for a username (however typed), or the numeric id: what getChat accepts. */
function channelRef(text: string): string | undefined {
  const match = CHANNEL_REF.exec(text.trim());
  if (!match) return undefined;
  return match[1] ? `@${match[1]}` : match[2];
}

/**
 * The owner's side of the app (CONTRACT §15): the same service calls as the API and the bot's
 * console, for the caller's account only (another account's giveaway is refused by the service,
 * 403, and an unknown one is 404). Channel checks are the bot's, since only it talks to Telegram.
 */
export function createAppOwner(deps: {
  giveaways: AppGiveaways;
  telegram: AppTelegram;
  tokens: AppTokens;
  clock: Clock;
  publicBaseUrl: string;
}) {
  const { giveaways, telegram } = deps;
  const operation = (ctx: OwnerContext, endpoint: string) => ({
    accountId: ctx.accountId,
    keyId: '',
    xRequestId: ctx.requestId,
    endpoint: `app ${endpoint}`,
  });

  async function channelOf(
    parameter: string,
    text: string,
    purpose: 'post' | 'required',
    language: Language,
  ): Promise<FoundChannel> {
    const ref = channelRef(text);
    const problem = (key: string) =>
      new AppError('invalid_parameter', `${parameter}: ${translate('en', key, { channel: text })}`, {
        errors: [{ parameter, message: translate(language, key, { channel: text }) }],
      });
    if (ref === undefined) throw problem('app-channel-bad');
    const found = await telegram.lookUpChannel(ref, purpose);
    if (!found.ok) throw problem(CHANNEL_REFUSAL[found.key] ?? 'app-channel-unknown');
    return found.channel;
  }

  async function detail(accountId: string, publicId: string) {
    const giveaway = await giveaways.get(accountId, publicId);
    const [view, series, post] = await Promise.all([
      giveaways.public.view(publicId),
      telegram.seriesOf(publicId),
      telegram.postLinkOf(publicId),
    ]);
    const standing =
      giveaway.status === 'completed'
        ? await giveaways.standingOf(accountId, publicId).then(
            (s) => s.standing,
            () => null,
          )
        : null;
    return {
      giveaway,
      excluded: view?.excluded ?? [],
      conditions: view?.conditions ?? [],
      series: series ?? null,
      standing,
      links: { page: giveaway.public_url, verify: giveaway.verify_url ?? null, post },
    };
  }

  return {
    list: (accountId: string) => giveaways.list(accountId, { limit: LISTED }),

    detail,

    async create(ctx: OwnerContext, body: AppNewGiveaway) {
      // Everything the service checks is checked first, so a bad field is named before any
      // call to Telegram; the channels are then looked up in the order the form shows them.
      const input: NewGiveawayInput = {
        title: body.title,
        winners_count: body.winners_count,
        ...(body.description ? { description: body.description } : {}),
        ...(body.reserve_count ? { reserve_count: body.reserve_count } : {}),
        ...(body.ends_at ? { ends_at: body.ends_at } : {}),
        ...(body.claim_within ? { claim_within: body.claim_within } : {}),
        ...(body.terms ? { terms: body.terms } : {}),
      };
      checkNewGiveaway(input, deps.clock.now().getTime());
      const post = await channelOf('channel', body.channel, 'post', body.language);
      const required: FoundChannel[] = [];
      for (const text of (body.required_channels ?? '').split(/[\s,]+/).filter(Boolean)) {
        required.push(await channelOf('required_channels', text, 'required', body.language));
      }
      const created = await giveaways.create(ctx.accountId, input, {
        conditions: required,
        joinChallenge: false,
        post: { chatId: post.chat_id, language: body.language },
      });
      return { ...created, channel: post.label };
    },

    /** Closes entries now and commits to a future round; 'checking' while channels are re-checked. */
    async seal(ctx: OwnerContext, publicId: string) {
      const outcome = await giveaways.seal(operation(ctx, 'seal'), publicId);
      return { kind: outcome.kind, detail: await detail(ctx.accountId, publicId) };
    },

    /** Seals when still open, then draws when the committed round is out (else it follows by itself). */
    async draw(ctx: OwnerContext, publicId: string) {
      const outcome = await giveaways.draw(operation(ctx, 'draw'), publicId);
      return { kind: outcome.kind, detail: await detail(ctx.accountId, publicId) };
    },

    async replace(ctx: OwnerContext, publicId: string, position: number, reason: AmendmentReason) {
      await giveaways.replaceWinner(ctx.accountId, publicId, position, { reason });
      return detail(ctx.accountId, publicId);
    },

    /** A link that downloads the API's CSV export for five minutes, for this user only. */
    async csvLink(ctx: OwnerContext, publicId: string) {
      await giveaways.get(ctx.accountId, publicId);
      const link = deps.tokens.signLink(`csv:${publicId}`, ctx.telegramId);
      return {
        url: `${deps.publicBaseUrl}/app/csv/${encodeURIComponent(publicId)}?${link.query}`,
        expires_at: new Date(link.expiresAt).toISOString(),
      };
    },

    /** The CSV export itself (ownership checked again: the link names a user, not an account). */
    csv: (accountId: string, publicId: string) =>
      giveaways.participantsCsv(accountId, publicId, { bom: false }),
  };
}

export type AppOwner = ReturnType<typeof createAppOwner>;

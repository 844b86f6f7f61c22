import type { Api } from 'grammy';
import { isLanguage, translatorFor } from '../../i18n/catalogue.ts';
import type { NewJob } from '../../jobs/job.repository.ts';
import type { Job, JobOutcome, JobRun } from '../../jobs/job-runner.ts';
import type { Seal } from '../../proof/v2-types.ts';
import type { Clock } from '../../shared/clock.ts';
import { sendJobMessage } from '../api/job-message.ts';
import { telegramJobOutcome } from '../api/job-outcome.ts';
import {
  CHANNEL_POST_JOB,
  type ChannelPostPayload,
  channelPostJob,
  SEALED_JOB,
  type SealedJobPayload,
} from '../bot-jobs.ts';
import type { BotLogger } from '../bot-logger.ts';
import { AS_HTML } from '../format.ts';
import type { AmendedEvent, ConsoleGiveaways } from '../giveaway-port.ts';
import { joinKeyboard } from '../join/join-link.ts';
import { createReceiptJobs } from '../notices/receipt-jobs.ts';
import type { GrammySignal } from '../telegram-errors.ts';
import type { BotUserService } from '../users/bot-user.service.ts';
import type { ChannelPostRepository } from './channel-post.repository.ts';
import { amendedPost, closedPost, giveawayPost, resultsPost } from './post-texts.ts';

export interface ChannelPostDeps {
  /** The throttled Bot API for background work: no call holds its job's lease on a long wait. */
  api: Pick<Api, 'sendMessage' | 'editMessageText'>;
  giveaways: Pick<ConsoleGiveaways, 'byId' | 'sealedEntry'>;
  posts: ChannelPostRepository;
  botUsers: Pick<BotUserService, 'startedEntrants'>;
  jobs: { enqueue(job: NewJob): Promise<void>; enqueueMany(list: readonly NewJob[]): Promise<void> };
  botUsername: string;
  publicBaseUrl: string;
  perSecond: number;
  clock: Clock;
  log: BotLogger;
}

/** Telegram's answer to an edit that changes nothing: the post already shows it. */
const NOT_MODIFIED = /message is not modified/i;

/**
 * A giveaway's life in its channel (CONTRACT §11), each step a job in the durable table: the
 * post with the Join button (at publish), its entrants count (at most one edit a minute), the
 * "entries closed" post at the seal, and the results post after the draw; and, at the seal, each
 * bot entrant's receipt. A restart loses none of them. Each post is sent by one claim of its job
 * (job-message.ts): a process that lost its claim posts nothing; only one killed between handing
 * the post to Telegram and the job's commit leaves it to be posted again, and that repeat is
 * logged. The giveaway post's message id is stored, so a completed post is never made again.
 */
export function createChannelPostJobs(deps: ChannelPostDeps) {
  const { api, giveaways, posts, clock, log } = deps;
  const now = () => clock.now().getTime();
  const receipts = createReceiptJobs(deps);

  async function loaded(giveawayId: number) {
    const post = await posts.find(giveawayId);
    const found = post ? await giveaways.byId(giveawayId) : undefined;
    if (!post || !found) return undefined;
    const t = translatorFor(isLanguage(post.language) ? post.language : 'en');
    return { post, ...found, t };
  }

  type Loaded = NonNullable<Awaited<ReturnType<typeof loaded>>>;
  type SendOptions = Parameters<ChannelPostDeps['api']['sendMessage']>[2];

  /** How a step reaches the channel: its one new message, and the signal for an edit. */
  interface Channel {
    post(text: string, options: SendOptions): Promise<{ message_id: number }>;
    signal: GrammySignal | undefined;
  }

  const postText = ({ row, t }: Loaded) =>
    giveawayPost(t, {
      title: row.title,
      description: row.description,
      winners: row.winners_count,
      endsAt: row.ends_at === null ? null : Number(row.ends_at),
      count: Number(row.participants_count),
    });
  const keyboard = ({ row, t }: Loaded) =>
    joinKeyboard(deps.botUsername, row.public_id, t('post-button-join'));
  const chat = (g: Loaded) => Number(g.post.chat_id);
  /** Later posts answer the giveaway post, so the channel reads as one thread. */
  const postInThread = (g: Loaded, channel: Channel, text: string) =>
    channel.post(text, {
      ...AS_HTML,
      ...(g.post.message_id === null
        ? {}
        : { reply_parameters: { message_id: Number(g.post.message_id), allow_sending_without_reply: true } }),
    });

  type Step = (g: Loaded, payload: ChannelPostPayload, channel: Channel) => Promise<void>;

  const steps: Record<ChannelPostPayload['kind'], Step> = {
    async giveaway(g, _payload, channel) {
      if (g.post.message_id !== null) return;
      const count = Number(g.row.participants_count);
      const sent = await channel.post(postText(g), { ...AS_HTML, reply_markup: keyboard(g) });
      await posts.sent(g.row.id, sent.message_id, count);
    },

    async count(g, _payload, channel) {
      const count = Number(g.row.participants_count);
      if (g.post.message_id === null || count === Number(g.post.count_shown)) return;
      try {
        // An edit made twice shows the same: it needs no announcement, only the lease's signal.
        await api.editMessageText(
          chat(g),
          Number(g.post.message_id),
          postText(g),
          { ...AS_HTML, reply_markup: keyboard(g) },
          channel.signal,
        );
      } catch (error) {
        if (!NOT_MODIFIED.test((error as Error).message)) throw error;
      }
      await posts.countShown(g.row.id, count);
    },

    async closed(g, _payload, channel) {
      const seal = g.seal ? (JSON.parse(g.seal.body) as Seal) : undefined;
      if (!seal) return;
      const text = closedPost(g.t, {
        title: g.row.title,
        count: seal.entrants.count,
        root: seal.entrants.root,
        round: seal.beacon.round,
        roundAt: Date.parse(seal.beacon.round_at),
        pageUrl: `${deps.publicBaseUrl}/g/${g.row.public_id}`,
        excluded: g.excluded.reduce((sum, e) => sum + e.count, 0),
      });
      await postInThread(g, channel, text);
    },

    async results(g, payload, channel) {
      if (!payload.results) return;
      const text = resultsPost(g.t, { title: g.row.title, ...payload.results });
      await postInThread(g, channel, text);
    },

    async amended(g, payload, channel) {
      if (!payload.amended) return;
      const text = amendedPost(g.t, payload.amended);
      await postInThread(g, channel, text);
    },
  };

  async function channelPost(job: Job, _signal?: AbortSignal, run?: JobRun): Promise<JobOutcome> {
    const payload = job.payload as ChannelPostPayload;
    const g = await loaded(payload.giveawayId);
    if (!g) return { done: true };
    const fields = { public_id: g.row.public_id, chat_id: chat(g), post: payload.kind };
    const message = { job, run, log, what: 'channel post', fields };
    const channel: Channel = {
      post: (text, options) =>
        sendJobMessage(message, (signal) => api.sendMessage(chat(g), text, options, signal)),
      signal: run?.signal as GrammySignal | undefined,
    };
    try {
      await steps[payload.kind](g, payload, channel);
      return { done: true };
    } catch (error) {
      return telegramJobOutcome(error, job, { clock, log }, 'channel post', fields);
    }
  }

  /** The seal's promise: the "entries closed" post, when there is a channel post, and the receipts. */
  async function sealed(job: Job): Promise<JobOutcome> {
    const { giveawayId } = job.payload as SealedJobPayload;
    const found = await giveaways.byId(giveawayId);
    if (!found) return { done: true };
    if (await posts.find(giveawayId)) {
      await deps.jobs.enqueue(channelPostJob(found.row.public_id, { giveawayId, kind: 'closed' }, now()));
    }
    await receipts.start(giveawayId, found.row.public_id);
    return { done: true };
  }

  return {
    handlers: { [CHANNEL_POST_JOB]: channelPost, [SEALED_JOB]: sealed, ...receipts.handlers },
    /** The draw's promise of a results post (from the winners' job), when there is a channel post. */
    async resultsPost(publicId: string, at: number, results: NonNullable<ChannelPostPayload['results']>) {
      const found = await giveaways.byId(publicId);
      if (!found || !(await posts.find(found.row.id))) return;
      await deps.jobs.enqueue(
        channelPostJob(publicId, { giveawayId: found.row.id, kind: 'results', results }, at),
      );
    },
    /** A replacement's promise of a post (from the amendment's job), when there is a channel post. */
    async amendedPost(amended: AmendedEvent, at: number) {
      if (!(await posts.find(amended.giveawayId))) return;
      await deps.jobs.enqueue(
        channelPostJob(amended.publicId, { giveawayId: amended.giveawayId, kind: 'amended', amended }, at),
      );
    },
  };
}

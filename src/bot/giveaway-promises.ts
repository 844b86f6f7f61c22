import type { Kysely } from 'kysely';
import type { GiveawayPromises, GiveawayPromisesIn } from '../giveaways/core/giveaway-promises.ts';
import { verifyUrlOf } from '../giveaways/results/giveaway.views.ts';
import { createJobRepository, type JobRepository } from '../jobs/job.repository.ts';
import type { Database } from '../store/schema.ts';
import {
  AMENDED_JOB,
  type AmendedJobPayload,
  channelPostJob,
  SEALED_JOB,
  type SealedJobPayload,
  WINNERS_JOB,
  type WinnersJobPayload,
} from './bot-jobs.ts';
import { type ChannelPostRepository, createChannelPostRepository } from './posts/channel-post.repository.ts';

/**
 * What each giveaway change promises the bot, recorded in the change's transaction: the channel
 * post of a giveaway made with /new, its entrants count, the receipts and "entries closed" post
 * at the seal, the winners' notices and results post after the draw, and each replacement's post
 * and the new winner's notice.
 */
export function createBotGiveawayPromises(deps: {
  jobs: Pick<JobRepository, 'enqueue'>;
  posts: Pick<ChannelPostRepository, 'insert' | 'exists'>;
  publicBaseUrl: string;
}): GiveawayPromises {
  const { jobs, posts } = deps;
  return {
    async created(row, post) {
      if (!post) return;
      const at = Number(row.created_at);
      await posts.insert(row.id, post.chatId, post.language, at);
      await jobs.enqueue(channelPostJob(row.public_id, { giveawayId: row.id, kind: 'giveaway' }, at));
    },

    async joined(row, entrants) {
      if (entrants.length === 0 || !(await posts.exists(row.id))) return;
      const at = Number(entrants[0].joined_at);
      await jobs.enqueue(channelPostJob(row.public_id, { giveawayId: row.id, kind: 'count' }, at));
    },

    async sealed(row, _seal, _sealLogIndex, at) {
      const payload: SealedJobPayload = { giveawayId: row.id };
      await jobs.enqueue({
        kind: SEALED_JOB,
        key: `sealed:${row.public_id}`,
        runAt: at,
        payload,
        createdAt: at,
      });
    },

    async drawn(row, certificate, at) {
      const claimWithin = row.claim_within === null ? null : Number(row.claim_within);
      const payload: WinnersJobPayload = {
        publicId: row.public_id,
        title: row.title,
        certificateId: certificate.certificate_id,
        verifyUrl: verifyUrlOf(deps.publicBaseUrl, certificate.certificate_id),
        winners: certificate.winners.map((w) => ({
          telegram_id: w.telegram_id,
          username: w.username,
          position: w.position,
        })),
        claimUntil: claimWithin === null ? null : new Date(at + claimWithin).toISOString(),
      };
      const key = `winners:${certificate.certificate_id}`;
      await jobs.enqueue({ kind: WINNERS_JOB, key, runAt: at, payload, createdAt: at });
    },

    async amended(row, change, at) {
      const { amendment } = change;
      const person = (w: { telegram_id: number; username: string | null }) => ({
        telegram_id: w.telegram_id,
        username: w.username,
        position: amendment.position,
      });
      const payload: AmendedJobPayload = {
        giveawayId: row.id,
        publicId: row.public_id,
        title: row.title,
        amendmentId: amendment.amendment_id,
        sequence: amendment.sequence,
        position: amendment.position,
        reason: amendment.reason,
        note: amendment.note,
        replaced: person(change.replaced),
        substitute: person(change.substitute),
        verifyUrl: verifyUrlOf(deps.publicBaseUrl, change.certificate.certificate_id),
        claimUntil: change.claimDeadline === null ? null : new Date(change.claimDeadline).toISOString(),
      };
      const key = `amended:${amendment.amendment_id}`;
      await jobs.enqueue({ kind: AMENDED_JOB, key, runAt: at, payload, createdAt: at });
    },
  };
}

/** The bot's promises bound to each transaction of a giveaway change (the composition root wires it). */
export function botGiveawayPromisesIn(publicBaseUrl: string): GiveawayPromisesIn {
  return (handle: Kysely<Database>) =>
    createBotGiveawayPromises({
      jobs: createJobRepository(handle),
      posts: createChannelPostRepository(handle),
      publicBaseUrl,
    });
}

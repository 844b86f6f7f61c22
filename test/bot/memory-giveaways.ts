import { randomBytes } from 'node:crypto';
import { WINNERS_JOB } from '../../src/bot/bot-jobs.ts';
import type {
  BotGiveaways,
  DrawnEvent,
  JoiningParticipant,
  JoinResult,
} from '../../src/bot/giveaway-port.ts';
import type { NewJob } from '../../src/jobs/job.repository.ts';
import { AppError } from '../../src/shared/errors.ts';

interface MemoryGiveaway {
  public_id: string;
  title: string;
  status: 'active' | 'completed';
  participants: (JoiningParticipant & { entryNumber: number })[];
}

/**
 * The giveaway contract the bot programs against, in memory: unit tests of the bot's own
 * behaviour do not depend on the draw machinery.
 */
export function createMemoryGiveaways(
  /** Where a draw promises its winners' notices, as the service does in the draw's transaction. */
  jobs?: { enqueue(job: NewJob): Promise<void> },
): BotGiveaways & {
  create(title: string): string;
  participants(publicId: string): MemoryGiveaway['participants'];
  /** Completes the giveaway and enqueues its winners' notices, as a draw would; returns the event. */
  draw(publicId: string, winnerIds: number[]): Promise<DrawnEvent>;
  /** Makes the next join throw this instead of storing (a store outage). */
  failNextJoin(error: Error): void;
} {
  const giveaways = new Map<string, MemoryGiveaway>();
  let nextFailure: Error | undefined;

  return {
    create(title) {
      const publicId = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x');
      giveaways.set(publicId, { public_id: publicId, title, status: 'active', participants: [] });
      return publicId;
    },
    participants: (publicId) => giveaways.get(publicId)?.participants ?? [],
    failNextJoin(error) {
      nextFailure = error;
    },
    async gate(publicId) {
      const g = giveaways.get(publicId);
      if (!g) throw new AppError('not_found', 'No giveaway has this id');
      if (g.status !== 'active') throw new AppError('giveaway_completed', 'drawn');
      return { title: g.title, challenge: false };
    },

    async join(publicId, participant): Promise<JoinResult> {
      if (nextFailure) {
        const error = nextFailure;
        nextFailure = undefined;
        throw error;
      }
      const giveaway = giveaways.get(publicId);
      if (!giveaway) throw new AppError('not_found', `No giveaway ${publicId}`);
      if (giveaway.status !== 'active') throw new AppError('giveaway_completed', 'Already drawn');
      const summary = { public_id: giveaway.public_id, title: giveaway.title };
      const existing = giveaway.participants.find((p) => p.telegram_id === participant.telegram_id);
      if (existing) return { status: 'duplicate', entryNumber: existing.entryNumber, giveaway: summary };
      const entryNumber = giveaway.participants.length + 1;
      giveaway.participants.push({ ...participant, entryNumber });
      return { status: 'joined', entryNumber, giveaway: summary };
    },
    // The stand-in has no owners: every giveaway belongs to whoever asks.
    async get(_accountId, publicId) {
      const giveaway = giveaways.get(publicId);
      if (!giveaway) throw new AppError('not_found', `No giveaway ${publicId}`);
      return {
        public_id: giveaway.public_id,
        title: giveaway.title,
        status: giveaway.status,
        winners_count: 1,
      };
    },
    async draw(publicId, winnerIds) {
      const giveaway = giveaways.get(publicId)!;
      giveaway.status = 'completed';
      const certificateId = `c_${randomBytes(8).toString('hex')}`;
      const event: DrawnEvent = {
        publicId,
        title: giveaway.title,
        certificateId,
        verifyUrl: `http://127.0.0.1:8080/verify/${certificateId}`,
        winners: winnerIds.map((id, i) => ({
          telegram_id: id,
          username: giveaway.participants.find((p) => p.telegram_id === id)?.username ?? null,
          position: i + 1,
        })),
      };
      // Due at once, whatever clock the test runs its jobs on.
      await jobs?.enqueue({ kind: WINNERS_JOB, key: `winners:${certificateId}`, runAt: 0, payload: event });
      return event;
    },
  };
}

import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import type { Database, JobsTable } from '../store/schema.ts';
import { skipLocked } from '../store/skip-locked.ts';

/** A unit of promised work, as stored: times are epoch milliseconds. */
export interface Job {
  id: number;
  kind: string;
  /** Names the promise (`draw:<public_id>`); one job per key, however often it is enqueued. */
  key: string;
  payload: unknown;
  runAt: number;
  /** How many times the job has been claimed, this claim included. */
  attempts: number;
  /** Until when the current claim holds it; null when nobody holds it. */
  lockedUntil: number | null;
  lastError: string | null;
  createdAt: number;
  /** When it finished: done, or given up (then `failedAt` is set too). */
  doneAt: number | null;
  /**
   * How many runs failed (the handler threw). Absent for a queue that does not count failures
   * because it decides itself when to give up (the webhook outbox).
   */
  failures?: number;
  /** When it was given up after its last allowed failure: a dead letter, kept for the operator. */
  failedAt?: number | null;
  /**
   * The claim under which a run began an effect it cannot take back (a Telegram message), kept
   * until the job is done: a claim that finds it knows an earlier run may have made the effect.
   * Not an error: a message being sent is neither failing nor retrying. Absent for a queue whose
   * handlers make no such effects (the webhook outbox).
   */
  effectAttempt?: number | null;
}

/**
 * One claim of a job: its id and `attempts` as the claim left it. Every claim counts an attempt,
 * so a write naming the claim does nothing once another process has claimed the job since.
 */
export interface Claim {
  id: number;
  attempts: number;
}

export interface NewJob {
  kind: string;
  key: string;
  runAt: number;
  payload: unknown;
  /** When the promise was made; the wall clock unless the caller has its own. */
  createdAt?: number;
}

export interface ClaimInput {
  now: number;
  leaseMs: number;
  limit: number;
  /** Only these kinds; all kinds when absent. */
  kinds?: string[];
}

export interface RetryInput {
  runAt: number;
  error: string;
  /** The run failed (counted towards the kind's limit), rather than asked to wait. */
  failed?: boolean;
  /** Only while this claim holds the job (its `attempts` at the claim). */
  claim?: number;
  /**
   * The run failed after its effect began (no answer from Telegram, or a write after the send):
   * it cannot say the effect was not made, so the job's note of it stays. Otherwise the outcome
   * is known and the note goes.
   */
  effectBegun?: boolean;
}

/** The work not done yet of one kind, as the metrics report it. */
export interface Backlog {
  kind: string;
  pending: number;
  /**
   * Jobs that failed at least once (or were asked to wait) and wait for another attempt; a job
   * whose message is being sent is not among them unless an earlier run of it failed.
   */
  retrying: number;
  /** The run time of the oldest job due at `now`, or null when none is due. */
  oldestDue: number | null;
}

export function toJob(row: Selectable<JobsTable>): Job {
  return {
    id: Number(row.id),
    kind: row.kind,
    key: row.key,
    payload: JSON.parse(row.payload),
    runAt: Number(row.run_at),
    attempts: Number(row.attempts),
    lockedUntil: row.locked_until === null ? null : Number(row.locked_until),
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    doneAt: row.done_at === null ? null : Number(row.done_at),
    failures: Number(row.failures),
    failedAt: row.failed_at === null ? null : Number(row.failed_at),
    effectAttempt: row.effect_attempt === null ? null : Number(row.effect_attempt),
  };
}

/** Rows of `id` as long as `claim`, when given, is still the newest claim of it. */
function heldBy(id: number, claim: number | undefined) {
  return (eb: ExpressionBuilder<Database, 'jobs'>) =>
    claim === undefined ? eb('id', '=', id) : eb.and([eb('id', '=', id), eb('attempts', '=', claim)]);
}

export function createJobRepository(db: Kysely<Database>) {
  /** Records many promises at once (one statement per 500), each as `enqueue` would. */
  async function enqueueMany(list: readonly NewJob[], trx?: Kysely<Database>): Promise<void> {
    for (let i = 0; i < list.length; i += 500) {
      await (trx ?? db)
        .insertInto('jobs')
        .values(
          list.slice(i, i + 500).map((job) => ({
            kind: job.kind,
            key: job.key,
            payload: JSON.stringify(job.payload ?? null),
            run_at: job.runAt,
            created_at: job.createdAt ?? Date.now(),
            locked_until: null,
            last_error: null,
            done_at: null,
          })),
        )
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    }
  }

  return {
    /**
     * Records a promise of work. Given the caller's transaction, the job exists exactly when
     * the change that promised it commits (a seal and the draw it schedules). A key already
     * taken, done or not, keeps its job: enqueueing is safe to repeat.
     */
    async enqueue(job: NewJob, trx?: Kysely<Database>): Promise<void> {
      await enqueueMany([job], trx);
    },

    enqueueMany,

    /**
     * Takes up to `limit` due jobs that nobody holds, in one statement: each is leased until
     * `now + leaseMs` and its attempt counted before any other claimer can see it. A claimer
     * that dies keeps its jobs only until the lease ends.
     */
    async claimDue(input: ClaimInput): Promise<Job[]> {
      if (input.limit <= 0 || input.kinds?.length === 0) return [];
      let due = db
        .selectFrom('jobs')
        .select('id')
        .where('done_at', 'is', null)
        .where('run_at', '<=', input.now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', input.now)]))
        .orderBy('run_at')
        .orderBy('id')
        .limit(input.limit);
      if (input.kinds) due = due.where('kind', 'in', input.kinds);
      const rows = await db
        .updateTable('jobs')
        .set((eb) => ({ locked_until: input.now + input.leaseMs, attempts: eb('attempts', '+', 1) }))
        .where('id', 'in', skipLocked(db, due))
        .returningAll()
        .execute();
      return rows.map(toJob).sort((a, b) => a.runAt - b.runAt || a.id - b.id);
    },

    /**
     * Marks the job done; with `claim`, only while that claim holds it. Returns whether it was
     * marked: false for a job done already or claimed by another process since.
     */
    async complete(
      id: number,
      at: number,
      options: { claim?: number; trx?: Kysely<Database> } = {},
    ): Promise<boolean> {
      const result = await (options.trx ?? db)
        .updateTable('jobs')
        .set({ done_at: at, locked_until: null, effect_attempt: null })
        .where(heldBy(id, options.claim))
        .where('done_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Lets the job go and makes it due again at `runAt`, keeping why the attempt failed and, for
     * a failure, counting it; the note of an effect under way stays only with `effectBegun`.
     * Returns whether the job was still there to let go (see `complete`).
     */
    async retry(id: number, input: RetryInput): Promise<boolean> {
      const result = await db
        .updateTable('jobs')
        .set((eb) => ({
          run_at: input.runAt,
          last_error: input.error,
          locked_until: null,
          ...(input.failed && { failures: eb('failures', '+', 1) }),
          ...(!input.effectBegun && { effect_attempt: null }),
        }))
        .where(heldBy(id, input.claim))
        .where('done_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Gives the job up after a failure that used up its kind's limit: it becomes a dead letter,
     * with the failure counted and its error kept, and is claimed no more until `revive`. The
     * note of an effect under way stays with `effectBegun`, for a run after `revive`.
     */
    async fail(
      id: number,
      input: { at: number; error: string; claim?: number; effectBegun?: boolean },
    ): Promise<boolean> {
      const result = await db
        .updateTable('jobs')
        .set((eb) => ({
          done_at: input.at,
          failed_at: input.at,
          last_error: input.error,
          locked_until: null,
          failures: eb('failures', '+', 1),
          ...(!input.effectBegun && { effect_attempt: null }),
        }))
        .where(heldBy(id, input.claim))
        .where('done_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Notes, just before a run makes an effect it cannot take back, that the effect is under way
     * (`effect_attempt`, the run's claim, until `complete`), so that a later claim knows the
     * effect may have been made when this run dies before it is done. `last_error` is left as it
     * is: a message being sent is not an error. Only while `claim` still holds the job and its
     * lease has not ended at `at`: false tells the run to make no effect, since another process
     * may be running the job.
     */
    async beginEffect(id: number, input: { claim: number; at: number }): Promise<boolean> {
      const result = await db
        .updateTable('jobs')
        .set({ effect_attempt: input.claim })
        .where(heldBy(id, input.claim))
        .where('done_at', 'is', null)
        .where('locked_until', '>', input.at)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Extends the leases of jobs still held by these claims to `lockedUntil`, in one statement.
     * Returns the ids renewed: a job missing from it was claimed by another process (its lease had
     * ended) or finished, and its current run must stop.
     */
    async renewLeases(claims: readonly Claim[], lockedUntil: number): Promise<number[]> {
      if (claims.length === 0) return [];
      const rows = await db
        .updateTable('jobs')
        .set({ locked_until: lockedUntil })
        .where((eb) => eb.or(claims.map((c) => heldBy(c.id, c.attempts)(eb))))
        .where('done_at', 'is', null)
        .returning('id')
        .execute();
      return rows.map((r) => Number(r.id));
    },

    async find(key: string): Promise<Job | undefined> {
      const row = await db.selectFrom('jobs').selectAll().where('key', '=', key).executeTakeFirst();
      return row && toJob(row);
    },

    /**
     * Moves a pending job to another time (a giveaway that ends earlier or later). A job being
     * run keeps its lease; a done job stays done. Returns whether a pending job was moved.
     */
    async reschedule(key: string, runAt: number, trx?: Kysely<Database>): Promise<boolean> {
      const result = await (trx ?? db)
        .updateTable('jobs')
        .set({ run_at: runAt })
        .where('key', '=', key)
        .where('done_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Makes the job of `key` due at `runAt` whether it is pending, done or dead (a done job runs
     * once more: a promise renewed, such as the seal of a giveaway whose earlier seal job gave up;
     * a dead one starts again with no failures counted). A job being run keeps its lease.
     * Returns whether a job has this key.
     */
    async renew(key: string, runAt: number, trx?: Kysely<Database>): Promise<boolean> {
      const result = await (trx ?? db)
        .updateTable('jobs')
        .set({ run_at: runAt, done_at: null, failed_at: null, failures: 0 })
        .where('key', '=', key)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Every kind's backlog in one statement: what every process owes, not just this one. */
    async backlog(now: number): Promise<Backlog[]> {
      const rows = await db
        .selectFrom('jobs')
        .where('done_at', 'is', null)
        .groupBy('kind')
        .select([
          'kind',
          sql<number>`count(*)`.as('pending'),
          sql<number>`sum(case when last_error is not null then 1 else 0 end)`.as('retrying'),
          sql<number | null>`min(case when run_at <= ${now} then run_at end)`.as('oldest_due'),
        ])
        .execute();
      return rows.map((r) => ({
        kind: r.kind,
        pending: Number(r.pending),
        retrying: Number(r.retrying),
        oldestDue: r.oldest_due === null ? null : Number(r.oldest_due),
      }));
    },
  };
}

export type JobRepository = ReturnType<typeof createJobRepository>;

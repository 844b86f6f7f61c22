import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/schema.ts';
import { type Job, toJob } from './job.repository.ts';

export interface ListInput {
  /** Only dead letters; otherwise every job not done: pending, running and dead. */
  failed?: boolean;
  kind?: string;
  limit: number;
}

/**
 * The operator's side of the jobs table (`tyche jobs`, `/metrics`): what is owed, what was given
 * up, and putting a given-up job back. The runners never use it.
 */
export function createJobAdminRepository(db: Kysely<Database>) {
  return {
    /** Jobs not done (or only the dead ones), oldest due first. */
    async list(input: ListInput): Promise<Job[]> {
      let query = db.selectFrom('jobs').selectAll();
      query = input.failed
        ? query.where('failed_at', 'is not', null)
        : query.where((eb) => eb.or([eb('done_at', 'is', null), eb('failed_at', 'is not', null)]));
      if (input.kind !== undefined) query = query.where('kind', '=', input.kind);
      const rows = await query.orderBy('run_at').orderBy('id').limit(input.limit).execute();
      return rows.map(toJob);
    },

    /**
     * A dead job made due at `runAt` with no failures counted, so it gets the kind's whole
     * allowance again; undefined when `id` names no dead job.
     */
    async revive(id: number, runAt: number): Promise<Job | undefined> {
      const row = await db
        .updateTable('jobs')
        .set({ run_at: runAt, done_at: null, failed_at: null, failures: 0, locked_until: null })
        .where('id', '=', id)
        .where('failed_at', 'is not', null)
        .returningAll()
        .executeTakeFirst();
      return row && toJob(row);
    },

    /** How many dead jobs each kind has; kinds without any are left out. */
    async deadCounts(): Promise<{ kind: string; dead: number }[]> {
      const rows = await db
        .selectFrom('jobs')
        .where('failed_at', 'is not', null)
        .groupBy('kind')
        .select(['kind', sql<number>`count(*)`.as('dead')])
        .execute();
      return rows.map((r) => ({ kind: r.kind, dead: Number(r.dead) }));
    },
  };
}

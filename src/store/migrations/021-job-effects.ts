import type { Kysely } from 'kysely';

/** How a note of an effect under way began in `last_error` before this migration (frozen here). */
const NOTE = 'effect begun';
const FAILED_AFTER = `${NOTE}, then the run failed: `;
const IN_ATTEMPT = /^effect begun in attempt (\d+) /;

interface JobsTable {
  id: number;
  attempts: number;
  last_error: string | null;
  effect_attempt: number | null;
}

/**
 * A job's effect under way in a column of its own. `jobs.effect_attempt`: the claim (`attempts`)
 * under which a run announced an effect it cannot take back (a Telegram message), from then until
 * the job is done, or a later run's known outcome says the effect was not made; set when the next
 * claim finds it, so that run knows the message may have reached Telegram already.
 *
 * The note used to lead `last_error`, so the job backlog's `retrying` and `tyche jobs list` told a
 * message being sent as a failure. The notes of jobs not done (or given up) move over: "effect
 * begun in attempt N at …" becomes attempt N and no error; "effect begun, then the run failed:
 * REASON" (written under the job's latest claim) becomes that claim and the reason.
 *
 * During a rolling restart an old process neither reads nor writes the column: a message that a
 * process of the other version began before it was killed is still sent again (the job is not
 * done), but without the "sent again" log line.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('effect_attempt', 'integer').execute();
  const typed = db as unknown as Kysely<{ jobs: JobsTable }>;
  const noted = await typed
    .selectFrom('jobs')
    .select(['id', 'attempts', 'last_error'])
    .where('last_error', 'like', `${NOTE}%`)
    .execute();
  for (const row of noted) {
    const note = row.last_error ?? '';
    const failed = note.startsWith(FAILED_AFTER);
    const attempt = IN_ATTEMPT.exec(note)?.[1];
    await typed
      .updateTable('jobs')
      .set({
        effect_attempt: attempt === undefined ? Number(row.attempts) : Number(attempt),
        last_error: failed ? note.slice(FAILED_AFTER.length) : null,
      })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('effect_attempt').execute();
}

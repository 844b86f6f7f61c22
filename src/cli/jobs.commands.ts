import type { Job } from '../jobs/job.repository.ts';
import { createJobAdminRepository } from '../jobs/job-admin.repository.ts';
import { stripControlCharacters } from '../shared/text-rules.ts';
import { type Command, parsePositiveInteger, UsageError } from './command.ts';
import { listCommand } from './list-command.ts';
import { withServices } from './store-session.ts';

const DEFAULT_LIMIT = 1000;

/**
 * A job as the operator reads it, with its state at the time of listing: `sending` is a run under
 * way whose message is leaving (not an error; LAST_ERROR says only why an earlier run stopped).
 */
interface ListedJob {
  job: Job;
  state: 'pending' | 'running' | 'sending' | 'failed';
}

function stateOf(job: Job, now: number): ListedJob['state'] {
  if (job.failedAt != null) return 'failed';
  if ((job.lockedUntil ?? 0) <= now) return 'pending';
  return job.effectAttempt === job.attempts ? 'sending' : 'running';
}

const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

/** An error as one table field: a tab or a newline in it would break the row. */
const field = (text: string | null) => stripControlCharacters((text ?? '').replace(/\s+/g, ' '));

export const jobsList = listCommand({
  name: 'jobs list',
  summary: `List the background jobs not done yet (pending, running, sending a Telegram message, and given up after their last allowed failure), oldest due first: the first ${DEFAULT_LIMIT} unless --limit says otherwise. --failed lists only the given-up ones (see tyche jobs retry), --kind only one kind.`,
  filters: {
    options: { failed: { type: 'boolean' }, kind: { type: 'string' }, limit: { type: 'string' } },
    usage: '[--failed] [--kind KIND] [--limit N]',
  },
  parse: (values) => ({
    failed: values.failed === true,
    kind: values.kind as string | undefined,
    limit: parsePositiveInteger('--limit', values.limit as string | undefined) ?? DEFAULT_LIMIT,
  }),
  list: async ({ clock }, query, store): Promise<ListedJob[]> => {
    const jobs = await createJobAdminRepository(store.db).list(query);
    const now = clock.now().getTime();
    return jobs.map((job) => ({ job, state: stateOf(job, now) }));
  },
  empty: 'No jobs to list.',
  json: ({ job, state }) => ({
    id: job.id,
    kind: job.kind,
    key: job.key,
    state,
    attempts: job.attempts,
    failures: job.failures,
    run_at: iso(job.runAt),
    locked_until: iso(job.lockedUntil),
    last_error: job.lastError,
    effect_attempt: job.effectAttempt,
    created_at: iso(job.createdAt),
    failed_at: iso(job.failedAt),
    payload: job.payload,
  }),
  columns: [
    ['ID', ({ job }) => job.id],
    ['KIND', ({ job }) => job.kind],
    ['STATE', ({ state }) => state],
    ['ATTEMPTS', ({ job }) => job.attempts],
    ['FAILURES', ({ job }) => job.failures],
    ['RUN_AT', ({ job }) => iso(job.runAt)],
    ['KEY', ({ job }) => field(job.key)],
    ['LAST_ERROR', ({ job }) => field(job.lastError)],
  ],
});

export const jobsRetry: Command = {
  name: 'jobs retry',
  usage: 'jobs retry ID',
  summary:
    'Put a job given up after its last allowed failure back in the queue, due now and with its failures forgotten. A running server takes it at its next poll.',
  async run({ positionals }, io) {
    if (positionals.length !== 1)
      throw new UsageError('give exactly one job ID (see tyche jobs list --failed)');
    const id = parsePositiveInteger('ID', positionals[0])!;
    const revived = await withServices(io.env, ({ clock }, store) =>
      createJobAdminRepository(store.db).revive(id, clock.now().getTime()),
    );
    if (!revived) {
      io.err(`No given-up job has the id ${id} (see tyche jobs list --failed).`);
      return 1;
    }
    io.out(`Job ${id} (${revived.kind}, ${field(revived.key)}) is due again`);
    return 0;
  },
};

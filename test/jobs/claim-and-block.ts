import { createJobRepository } from '../../src/jobs/job.repository.ts';
import { createJobRunner, type JobOutcome } from '../../src/jobs/job-runner.ts';
import { openStore } from '../../src/store/store.ts';

/**
 * A worker that claims due jobs and never finishes them, standing in for a process that dies
 * mid-job: it prints each job it has claimed and then blocks until it is killed.
 * Usage: node claim-and-block.ts <now ms> <lease ms>, with DATA_DIR or DATABASE_URL set.
 */
const [now, leaseMs] = process.argv.slice(2).map(Number);
const store = openStore({ DATA_DIR: process.env.DATA_DIR ?? '', DATABASE_URL: process.env.DATABASE_URL });
const runner = createJobRunner({
  jobs: createJobRepository(store.db),
  clock: { now: () => new Date(now) },
  leaseMs,
  handlers: {
    crash(job): Promise<JobOutcome> {
      process.stdout.write(`${JSON.stringify({ claimed: job.id, attempts: job.attempts })}\n`);
      return new Promise(() => {});
    },
  },
});
// Nothing else holds the event loop open on SQLite; the process waits here for its kill.
setInterval(() => {}, 1 << 30);
await runner.runDue();

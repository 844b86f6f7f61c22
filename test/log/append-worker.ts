import { createInterface } from 'node:readline';
import { createJobRepository } from '../../src/jobs/job.repository.ts';
import { createTransparencyLog } from '../../src/log/transparency-log.ts';
import { openStore } from '../../src/store/store.ts';

/**
 * One appender among several processes sharing a log. Once its store is open it prints
 * {"ready":true} and waits for a line on stdin, so that every worker starts at once; then it
 * appends `count` entries, each in its own transaction (every other one after a write of the
 * transaction's own, as a seal is stored before it is logged), and prints {"indices":[…]}.
 * Usage: node append-worker.ts <tag> <count>, with DATA_DIR or DATABASE_URL set.
 */
const [tag, count] = [process.argv[2], Number(process.argv[3])];
const store = openStore({ DATA_DIR: process.env.DATA_DIR ?? '', DATABASE_URL: process.env.DATABASE_URL });
const log = createTransparencyLog({ db: store.db });

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once('line', resolve));
lines.close();

const indices: number[] = [];
for (let i = 0; i < count; i++) {
  const id = `${tag}-${i}`;
  const { index } = await store.db.transaction().execute(async (trx) => {
    if (i % 2 === 1)
      await createJobRepository(trx).enqueue({ kind: 'log-test', key: id, runAt: 0, payload: null });
    return log.append(trx, {
      kind: 'seal',
      id,
      leafData: new TextEncoder().encode(JSON.stringify({ tag, i })),
    });
  });
  indices.push(index);
}
process.stdout.write(`${JSON.stringify({ indices })}\n`);
await store.close();

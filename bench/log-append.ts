/**
 * The transparency log's own costs, away from HTTP: appending one entry per transaction (as a
 * seal or certificate is logged) up to `count`, then single reads at that size. Prints one line
 * per figure; DATABASE_URL selects PostgreSQL, otherwise a fresh SQLite file.
 *
 *   node bench/log-append.ts [count=100000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTransparencyLog } from '../src/log/transparency-log.ts';
import { openStore } from '../src/store/store.ts';

const count = Number(process.argv[2] ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'tyche-log-bench-'));
const store = openStore({ DATA_DIR: dir, DATABASE_URL: process.env.DATABASE_URL });
await store.migrate();
const log = createTransparencyLog({ db: store.db });
// About the size of a signed certificate's canonical JSON.
const leafData = (i: number) => new TextEncoder().encode(JSON.stringify({ i, pad: 'c'.repeat(900) }));

const started = performance.now();
let lap = started;
for (let i = 0; i < count; i++) {
  await store.db
    .transaction()
    .execute((trx) => log.append(trx, { kind: 'certificate', id: `c-${i}`, leafData: leafData(i) }));
  if ((i + 1) % 10_000 === 0) {
    const now = performance.now();
    process.stdout.write(`appended ${i + 1}: last 10 000 in ${((now - lap) / 1000).toFixed(1)} s\n`);
    lap = now;
  }
}
const appendS = (performance.now() - started) / 1000;
process.stdout.write(
  `${store.dialect}: ${count} appends, one per transaction: ${appendS.toFixed(1)} s (${((appendS * 1e6) / count).toFixed(0)} µs each)\n`,
);

async function timed(name: string, runs: number, call: (k: number) => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  for (let k = 0; k < runs; k++) await call(k);
  process.stdout.write(`${name}: ${((performance.now() - t0) / runs).toFixed(2)} ms each (${runs} runs)\n`);
}

const pick = (k: number, below: number) => (k * 7919 + 13) % below;
await timed(`inclusion proof at size ${count}`, 200, (k) => log.inclusionProof(pick(k, count), count));
await timed(`consistency proof to size ${count}`, 200, (k) =>
  log.consistencyProof(1 + pick(k, count - 1), count),
);
await timed('root of a past size', 200, (k) => log.root(1 + pick(k, count - 1)));
await timed('1000 entries', 20, (k) => log.entries(pick(k, count - 1000), pick(k, count - 1000) + 1000));
await store.close();
rmSync(dir, { recursive: true, force: true });

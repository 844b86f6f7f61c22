import assert from 'node:assert/strict';
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTransparencyLog } from '../../src/log/transparency-log.ts';
import { toHex } from '../../src/proof/hex.ts';
import { inclusionProofFromLeaves, verifyInclusion } from '../../src/proof/merkle.ts';
import type { Store } from '../../src/store/store.ts';
import { storeTargets } from '../helpers/stores.ts';
import { leafOf, mth, pack, sha256 } from './log-reference.ts';

const WORKER = fileURLToPath(new URL('./append-worker.ts', import.meta.url));

type Worker = { child: ChildProcessByStdio<Writable, Readable, Readable>; lines: AsyncIterator<string> };

function startWorker(tag: string, count: number, env: Record<string, string>): Worker {
  const child = spawn(process.execPath, [WORKER, tag, String(count)], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  child.once('exit', (code) => {
    if (code !== 0) process.stderr.write(`worker ${tag} exited with ${code}: ${stderr}\n`);
  });
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

async function nextLine(worker: Worker): Promise<unknown> {
  const { value, done } = await worker.lines.next();
  if (done) throw new Error(`worker ${worker.child.pid} ended before answering`);
  return JSON.parse(value);
}

// PostgreSQL is the brief's two processes; SQLite runs more, each its own connection to the file.
const PLAN = { postgres: { workers: 2, each: 200 }, sqlite: { workers: 4, each: 100 } };

for (const target of await storeTargets()) {
  const { workers, each } = PLAN[target.dialect];
  describe(`${workers} processes appending to one log on ${target.dialect}`, { skip: target.skip }, () => {
    let store: Store;
    let env: Record<string, string>;
    let cleanup: (() => Promise<void>) | undefined;
    before(async () => {
      ({ store, env, cleanup } = await target.open());
    });
    after(() => cleanup?.());

    test(`${workers} × ${each} appends: every index once, no gap, each worker's in its own order, the recomputed root`, async (t) => {
      const started = Array.from({ length: workers }, (_, w) => startWorker(`w${w}`, each, env));
      try {
        for (const worker of started) assert.deepEqual(await nextLine(worker), { ready: true });
        for (const worker of started) worker.child.stdin.end('go\n');
        const results = await Promise.all(started.map((w) => nextLine(w) as Promise<{ indices: number[] }>));

        const total = workers * each;
        const all = results.flatMap((r) => r.indices).sort((a, b) => a - b);
        assert.deepEqual(
          all,
          Array.from({ length: total }, (_, i) => i),
          'indices 0..total-1, each once',
        );
        for (const { indices } of results) {
          assert.ok(
            indices.every((index, i) => i === 0 || index > indices[i - 1]),
            "a worker's appends in order",
          );
        }
        const interleaved = results.filter((r) => r.indices.at(-1)! - r.indices[0] >= each).length;
        t.diagnostic(`${interleaved} of ${workers} workers' runs were interleaved with another's`);

        const log = createTransparencyLog({ db: store.db });
        assert.equal(await log.size(), total);
        const entries = await log.entries(0, total);
        const leaves = entries.map((e) => leafOf(e.leafData));
        assert.ok(entries.every((e, i) => toHex(e.leafHash) === toHex(leaves[i])));
        for (let w = 0; w < workers; w++) {
          const mine = entries
            .filter((e) => e.id.startsWith(`w${w}-`))
            .map((e) => JSON.parse(new TextDecoder().decode(e.leafData)));
          assert.deepEqual(
            mine,
            Array.from({ length: each }, (_, i) => ({ tag: `w${w}`, i })),
          );
          assert.deepEqual(
            results[w].indices,
            entries.filter((e) => e.id.startsWith(`w${w}-`)).map((e) => e.index),
          );
        }
        assert.equal(toHex(await log.root(total)), toHex(mth(leaves)), 'the head root is the recomputed one');
        for (const n of [1, 2, 3, 100, 255, 256, 257, total - 1]) {
          assert.equal(toHex(await log.root(n)), toHex(mth(leaves.slice(0, n))), `root(${n})`);
        }
        for (const [i, n] of [
          [0, total],
          [total - 1, total],
          [137, 201],
          [each, total],
        ]) {
          const proof = await log.inclusionProof(i, n);
          assert.deepEqual(proof.map(toHex), inclusionProofFromLeaves(pack(leaves), n, i, sha256).map(toHex));
          assert.ok(verifyInclusion(leaves[i], i, n, proof, mth(leaves.slice(0, n)), sha256));
        }
      } finally {
        for (const worker of started) worker.child.kill();
      }
    });
  });
}

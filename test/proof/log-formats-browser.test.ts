import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import { loadStripped } from './browser-load.ts';

const vectors = JSON.parse(
  readFileSync(new URL('../fixtures/signed-note-vectors.json', import.meta.url), 'utf8'),
);
const consistency = JSON.parse(
  readFileSync(new URL('../fixtures/tlog-consistency-vectors.json', import.meta.url), 'utf8'),
);

test('the log formats, type-stripped and on their own, check a real cosigned checkpoint and a consistency proof', async () => {
  const checkpoint = await loadStripped<typeof import('../../src/proof/checkpoint.ts')>('checkpoint');
  const cosignature = await loadStripped<typeof import('../../src/proof/cosignature.ts')>('cosignature');
  const merkle = await loadStripped<typeof import('../../src/proof/merkle-proofs.ts')>('merkle-proofs');
  try {
    const real = vectors.realCheckpoint;
    const opened = checkpoint.module.openCheckpoint(real.note, real.logKey);
    assert.ok(opened.ok);
    assert.equal(opened.checkpoint.size, 1432088532);
    const { cosigners, problems } = cosignature.module.verifyCosignatures(opened.note, [real.witnessKey]);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      cosigners.map((c) => c.name),
      ['remora.n621.de'],
    );
    const b64 = (t: string) => Uint8Array.from(atob(t), (c) => c.charCodeAt(0));
    const probe = consistency.probes.find((p: { file: string }) => p.file === '1/happy-path.json');
    const ok = merkle.module.verifyConsistency(
      probe.size1,
      probe.size2,
      b64(probe.root1),
      b64(probe.root2),
      probe.proof.map(b64),
      (data: Uint8Array) => sha256(data),
    );
    assert.equal(ok, true);
  } finally {
    checkpoint.dispose();
    cosignature.dispose();
    merkle.dispose();
  }
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lateCertificateNotice } from '../../src/proof/receipt-checks.ts';
import type { CertificateV2 } from '../../src/proof/v2-types.ts';
import { type ReceiptInput, verifyReceipt } from '../../src/proof/verifier.ts';
import { buildV2Fixture, QUICKNET_ROUND, sha256 } from '../helpers/v2-fixtures.ts';

const f = buildV2Fixture({ count: 9, winners: 2, reserves: 2 });

const receiptOf = (leaf: string): ReceiptInput => {
  const e = f.entrants.find((x) => x.leaf_hash === leaf)!;
  return { telegram_id: e.telegram_id, salt: e.salt, leaf_hash: leaf, ...f.proofOf(leaf)! };
};

/** What the certificate says of one entrant: its position, and whether as a reserve. */
function listed(cert: CertificateV2, leaf: string) {
  const w = cert.winners.find((x) => x.leaf_hash === leaf);
  if (w) return { won: true, position: w.position, reserve: false };
  const r = cert.reserves.find((x) => x.leaf_hash === leaf);
  return r ? { won: false, position: r.position, reserve: true } : { won: false };
}

describe("an entrant's outcome without the certificate", () => {
  test('from the seal and the round alone, each entrant learns what the certificate would say', async () => {
    for (const leaf of f.sorted) {
      const report = await verifyReceipt({
        receipt: receiptOf(leaf),
        seal: f.seal,
        keys: f.keys,
        sha256,
        round: QUICKNET_ROUND,
      });
      assert.equal(report.valid, true, JSON.stringify(report.checks.filter((c) => !c.ok)));
      assert.deepEqual(report.outcome, listed(f.certificate, leaf), leaf);
      const record = report.checks.find((c) => c.id === 'beacon-record')!;
      assert.equal(
        record.detail,
        `round ${QUICKNET_ROUND.round} as the relay serves it is signed by the chain's key and randomness = SHA-256(signature)`,
      );
      const outcome = report.checks.find((c) => c.id === 'outcome')!;
      assert.match(
        outcome.detail,
        new RegExp(
          `, computed from the seal and drand round ${QUICKNET_ROUND.round}, without a certificate$`,
        ),
      );
      assert.equal(
        report.checks.some((c) => c.id === 'certificate'),
        false,
      );
    }
  });

  test('a round that is not the committed one, or not signed by the chain, gives no outcome', async () => {
    const leaf = f.certificate.winners[0].leaf_hash;
    const run = (round: typeof QUICKNET_ROUND) =>
      verifyReceipt({ receipt: receiptOf(leaf), seal: f.seal, keys: f.keys, sha256, round });
    const other = await run({ ...QUICKNET_ROUND, round: QUICKNET_ROUND.round + 1 });
    assert.equal(other.valid, false);
    assert.equal(other.outcome, undefined);
    assert.equal(
      other.checks.find((c) => c.id === 'beacon-record')?.detail,
      `the round read from the relay: the relay served round ${QUICKNET_ROUND.round + 1}, the seal commits to round ${QUICKNET_ROUND.round}`,
    );
    const flipped = QUICKNET_ROUND.signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    const forged = await run({ ...QUICKNET_ROUND, signature: flipped });
    assert.equal(forged.outcome, undefined);
    assert.match(
      forged.checks.find((c) => c.id === 'beacon-record')?.detail ?? '',
      /^the round read from the relay: randomness is not SHA-256\(signature\)$/,
    );
    // Without a round and without a certificate: the receipt alone, no outcome line.
    const alone = await verifyReceipt({ receipt: receiptOf(leaf), seal: f.seal, keys: f.keys, sha256 });
    assert.equal(alone.valid, true);
    assert.equal(alone.outcome, undefined);
    assert.equal(
      alone.checks.some((c) => c.id === 'outcome'),
      false,
    );
  });

  test('a certificate, when there is one, decides as before, and the late notice reads as promised', async () => {
    const leaf = f.certificate.reserves[0].leaf_hash;
    const report = await verifyReceipt({
      receipt: receiptOf(leaf),
      seal: f.seal,
      keys: f.keys,
      sha256,
      certificate: f.certificate,
      round: QUICKNET_ROUND,
    });
    assert.deepEqual(report.outcome, listed(f.certificate, leaf));
    assert.equal(
      report.checks.find((c) => c.id === 'outcome')?.detail,
      'drawn as reserve (position 3), and listed so',
    );
    assert.equal(
      lateCertificateNotice(657413, '2025-01-01T00:00:00.000Z'),
      'round 657413 is public since 2025-01-01T00:00:00.000Z; the certificate is not published yet — the outcome above is computed from the seal and the round',
    );
  });
});

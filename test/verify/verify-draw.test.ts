import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { sha256 as nodeSha256 } from '../../src/giveaways/certificate.ts';
import { createSigningKey } from '../../src/giveaways/certificate-crypto.ts';
import { sha256 as browserSha256 } from '../../src/proof/sha256.ts';
import { type CheckId, type VerifyReport, verifyDraw } from '../../src/proof/verify-draw.ts';
import { sampleCertificate, tampered } from './certificates.ts';

const failed = (report: VerifyReport): CheckId[] => report.checks.filter((c) => !c.ok).map((c) => c.id);

describe('verifyDraw', () => {
  test('the published example certificate verifies against its key, with either SHA-256', async () => {
    const example = JSON.parse(
      readFileSync(new URL('../fixtures/certificate-example.json', import.meta.url), 'utf8'),
    );
    const ids = [
      5000000001, 123456789, 7, 9007199254740991, 1000000000, 42, 99, 777777777, 2147483648, 4294967296,
    ];
    for (const sha256 of [nodeSha256, browserSha256]) {
      const report = await verifyDraw({
        certificate: example.certificate,
        keys: { keys: [example.key.jwk] },
        participantIds: ids,
        sha256,
      });
      assert.deepEqual(failed(report), [], JSON.stringify(report.checks));
      assert.deepEqual(
        report.checks.map((c) => c.id),
        ['format', 'hash', 'signature', 'randomness', 'seed', 'winners', 'participants'],
      );
      assert.equal(report.valid, true);
    }
  });

  test('a beacon draw: R must be SHA-256(beacon value ‖ system entropy)', async () => {
    const s = sampleCertificate({ vector: 'nist-beacon' });
    const ok = await verifyDraw({
      certificate: s.certificate,
      keys: s.keys,
      participantIds: s.participantIds,
      sha256: nodeSha256,
    });
    assert.equal(ok.valid, true, JSON.stringify(ok.checks));
    assert.match(ok.checks.find((c) => c.id === 'randomness')!.detail, /beacon\.nist\.gov/);
    // Even a forger holding the signing key cannot change the entropy without it showing.
    const forged = tampered(
      s.certificate,
      (c) => {
        c.randomness.system_entropy = '00'.repeat(32);
      },
      s.key,
    );
    const report = await verifyDraw({ certificate: forged, keys: s.keys, sha256: nodeSha256 });
    assert.deepEqual(failed(report), ['randomness']);
  });

  test('each kind of tampering fails the check that covers it', async () => {
    const s = sampleCertificate();
    const other = createSigningKey();
    const cases: [string, ReturnType<typeof tampered>, CheckId[]][] = [
      [
        'hash edited',
        tampered(s.certificate, (c) => {
          c.hash = 'ab'.repeat(32);
        }),
        ['hash'],
      ],
      [
        'title edited',
        tampered(s.certificate, (c) => {
          c.title = 'Another giveaway';
        }),
        ['hash', 'signature'],
      ],
      [
        'signature edited',
        tampered(s.certificate, (c) => {
          c.signature.value = `A${c.signature.value.slice(1)}`;
        }),
        ['signature'],
      ],
      [
        'unknown kid',
        tampered(s.certificate, (c) => {
          c.signature.kid = '0000000000000000';
        }),
        ['signature'],
      ],
      [
        'resealed by another key',
        tampered(
          s.certificate,
          (c) => {
            c.title = 'x';
          },
          other,
        ),
        ['signature'],
      ],
      [
        'winner swapped and resealed with the real key',
        tampered(
          s.certificate,
          (c) => {
            c.winners[0].index = (c.winners[0].index + 1) % c.participants_count;
          },
          s.key,
        ),
        ['winners'],
      ],
      [
        'seed changed and resealed',
        tampered(
          s.certificate,
          (c) => {
            c.seed = '11'.repeat(32);
          },
          s.key,
        ),
        ['seed'],
      ],
      [
        'a winner dropped',
        tampered(
          s.certificate,
          (c) => {
            c.winners.pop();
          },
          s.key,
        ),
        ['winners'],
      ],
    ];
    for (const [name, certificate, expected] of cases) {
      const report = await verifyDraw({ certificate, keys: s.keys, sha256: nodeSha256 });
      assert.deepEqual(failed(report), expected, name);
      assert.equal(report.valid, false, name);
    }
  });

  test('the participant list must hash to participants_hash and hold each winner at its index', async () => {
    const s = sampleCertificate();
    const check = async (ids: readonly (number | bigint)[]) =>
      verifyDraw({ certificate: s.certificate, keys: s.keys, participantIds: ids, sha256: nodeSha256 });
    assert.equal((await check([...s.participantIds].reverse())).valid, true);
    const replaced = s.participantIds.map((id) => (id === 42 ? 43 : id));
    const bad = await check(replaced);
    assert.deepEqual(failed(bad), ['participants']);
    assert.match(bad.checks.at(-1)!.detail, /hash/);
    assert.deepEqual(failed(await check(s.participantIds.slice(1))), ['participants']);
    assert.match((await check([...s.participantIds, 42])).checks.at(-1)!.detail, /duplicate/);
  });

  test('malformed input gives failed checks, never an exception', async () => {
    const s = sampleCertificate();
    const inputs: unknown[] = [
      null,
      'text',
      [],
      {},
      tampered(s.certificate, (c) => {
        (c as { winners: unknown }).winners = 'none';
      }),
      tampered(s.certificate, (c) => {
        c.algorithm = 'tyche-draw-v2' as 'tyche-draw-v1';
      }),
      tampered(s.certificate, (c) => {
        c.randomness.bytes = 'zz';
      }),
      tampered(s.certificate, (c) => {
        c.participants_count = 10 ** 9;
        c.winners_count = 10 ** 9;
      }),
    ];
    for (const certificate of inputs) {
      const report = await verifyDraw({ certificate, keys: s.keys, sha256: nodeSha256 });
      assert.equal(report.valid, false, JSON.stringify(certificate)?.slice(0, 80));
    }
    for (const keys of [
      null,
      {},
      { keys: 'x' },
      { keys: [{ kid: s.key.kid, kty: 'OKP', crv: 'Ed25519', x: 'short' }] },
    ]) {
      const report = await verifyDraw({ certificate: s.certificate, keys, sha256: nodeSha256 });
      assert.deepEqual(failed(report), ['signature']);
    }
  });
});

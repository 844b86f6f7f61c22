import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { OPERATOR_TRUST_LABEL, type Report, verifyCertificate } from '../../src/proof/verifier.ts';
import { createSigningKey } from '../../src/signing/certificate-crypto.ts';
import { sampleCertificate, tampered, VECTORS } from '../helpers/certificates.ts';
import { altered, sha256 } from './v2-fixture.ts';

const failing = (r: Report) => r.checks.filter((c) => !c.ok).map((c) => c.id);
const ids = (r: Report) => r.checks.map((c) => c.id);
const detailOf = (r: Report, id: string) => r.checks.find((c) => c.id === id)!.detail;
// What the pages and tyche-verify.mjs hash with, bundled in; the server and the CLI use node:crypto.
const pageSha256 = (data: Uint8Array) => nobleSha256(data);

const V1_CHECKS = ['format', 'hash', 'signature', 'randomness', 'seed', 'winners', 'participants', 'trust'];

describe('a tyche-draw-v1 certificate', () => {
  test('verifies, labelled as needing trust in the operator', async () => {
    const s = sampleCertificate({ vector: 'ten-participants' });
    const r = await verifyCertificate({
      certificate: s.certificate,
      keys: s.keys,
      sha256,
      participantIds: s.participantIds,
    });
    assert.equal(r.valid, true, JSON.stringify(r.checks));
    assert.equal(r.trust, 'operator');
    assert.equal(r.algorithm, 'tyche-draw-v1');
    assert.deepEqual(ids(r), V1_CHECKS);
    assert.equal(r.checks.at(-1)?.detail, OPERATOR_TRUST_LABEL);
  });

  test('the published example certificate verifies against its key, with either SHA-256', async () => {
    const example = JSON.parse(
      readFileSync(new URL('../fixtures/certificate-example.json', import.meta.url), 'utf8'),
    );
    const participantIds = [
      5000000001, 123456789, 7, 9007199254740991, 1000000000, 42, 99, 777777777, 2147483648, 4294967296,
    ];
    for (const hash of [sha256, pageSha256]) {
      const r = await verifyCertificate({
        certificate: example.certificate,
        keys: { keys: [example.key.jwk] },
        participantIds,
        sha256: hash,
      });
      assert.deepEqual(failing(r), [], JSON.stringify(r.checks));
      assert.deepEqual(ids(r), V1_CHECKS);
      assert.equal(r.valid, true);
    }
  });

  test("every vector with its list verifies with the pages' SHA-256", async () => {
    const listed = [...VECTORS.values()].filter((v) => v.participants && v.participants.length <= 1000);
    assert.ok(listed.length >= 3);
    for (const v of listed) {
      const s = sampleCertificate({ vector: v.name });
      const r = await verifyCertificate({
        certificate: s.certificate,
        keys: s.keys,
        participantIds: s.participantIds,
        sha256: pageSha256,
      });
      assert.deepEqual(failing(r), [], `${v.name}: ${JSON.stringify(r.checks.filter((c) => !c.ok))}`);
    }
  });

  test('a beacon draw: R must be SHA-256(beacon value ‖ system entropy)', async () => {
    const s = sampleCertificate({ vector: 'nist-beacon' });
    const ok = await verifyCertificate({
      certificate: s.certificate,
      keys: s.keys,
      participantIds: s.participantIds,
      sha256,
    });
    assert.equal(ok.valid, true, JSON.stringify(ok.checks));
    assert.match(detailOf(ok, 'randomness'), /beacon\.nist\.gov/);
    // Even a forger holding the signing key cannot change the entropy without it showing.
    const forged = tampered(
      s.certificate,
      (c) => {
        c.randomness.system_entropy = '00'.repeat(32);
      },
      s.key,
    );
    const r = await verifyCertificate({ certificate: forged, keys: s.keys, sha256 });
    assert.deepEqual(failing(r), ['randomness']);
  });

  test('a changed winner fails the hash and signature; re-signed, the participants check', async () => {
    const s = sampleCertificate({ vector: 'ten-participants' });
    const bad = tampered(s.certificate, (c) => {
      c.winners[0].telegram_id = s.participantIds.find((id) => !c.winners.some((w) => w.telegram_id === id))!;
    });
    const r = await verifyCertificate({ certificate: bad, keys: s.keys, sha256 });
    assert.deepEqual(failing(r), ['hash', 'signature']);
    const resigned = altered(bad, () => {}, s.key);
    const p = await verifyCertificate({
      certificate: resigned,
      keys: s.keys,
      sha256,
      participantIds: s.participantIds,
    });
    assert.deepEqual(failing(p), ['participants']);
  });

  test('each kind of tampering fails the check that covers it', async () => {
    const s = sampleCertificate();
    const other = createSigningKey();
    const cases: [string, ReturnType<typeof tampered>, string[]][] = [
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
          // Another first character: a signature that began with A would otherwise be left as it was.
          c.signature.value = `${c.signature.value.startsWith('A') ? 'B' : 'A'}${c.signature.value.slice(1)}`;
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
      const r = await verifyCertificate({ certificate, keys: s.keys, sha256 });
      assert.deepEqual(failing(r), expected, name);
      assert.equal(r.valid, false, name);
    }
  });

  test('the participant list must hash to participants_hash and hold each winner at its index', async () => {
    const s = sampleCertificate();
    const check = (participantIds: readonly (number | bigint)[]) =>
      verifyCertificate({ certificate: s.certificate, keys: s.keys, participantIds, sha256 });
    assert.equal((await check([...s.participantIds].reverse())).valid, true);
    const replaced = s.participantIds.map((id) => (id === 42 ? 43 : id));
    const bad = await check(replaced);
    assert.deepEqual(failing(bad), ['participants']);
    assert.match(detailOf(bad, 'participants'), /hash/);
    assert.deepEqual(failing(await check(s.participantIds.slice(1))), ['participants']);
    assert.match(detailOf(await check([...s.participantIds, 42]), 'participants'), /duplicate/);
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
      const r = await verifyCertificate({ certificate, keys: s.keys, sha256 });
      assert.equal(r.valid, false, JSON.stringify(certificate)?.slice(0, 80));
    }
    for (const keys of [
      null,
      {},
      { keys: 'x' },
      { keys: [{ kid: s.key.kid, kty: 'OKP', crv: 'Ed25519', x: 'short' }] },
    ]) {
      const r = await verifyCertificate({ certificate: s.certificate, keys, sha256 });
      assert.deepEqual(failing(r), ['signature']);
    }
  });
});

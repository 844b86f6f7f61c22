import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { canonicalJsonBytes } from '../../src/proof/canonical-json.ts';
import {
  CERTIFICATE_DIGEST_TYPE,
  certificateDigest,
  certificateDigestProblem,
  certificateLeafData,
  certificateLeafForms,
} from '../../src/proof/certificate-entry.ts';
import { signCheckpoint } from '../../src/proof/checkpoint.ts';
import { fromBase64, toHex } from '../../src/proof/hex.ts';
import { leafDataOf, readLogEntry, splitLogAnnotations } from '../../src/proof/log-entry.ts';
import { checkLogEvidence } from '../../src/proof/log-evidence.ts';
import { inclusionProofFromLeaves, leafHash, rootOfNodes } from '../../src/proof/merkle.ts';
import { verifierKey } from '../../src/proof/note.ts';
import {
  createSigningKey,
  sealCertificate,
  signingKeyFromSecret,
} from '../../src/signing/certificate-crypto.ts';
import { addParticipants, createGiveaway, draw } from '../giveaways/giveaway-helpers.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { freshState, runTyche } from '../helpers/cli.ts';
import { storeTargets } from '../helpers/stores.ts';
import { sha256 } from './log-reference.ts';

const signer = createSigningKey();
/** A signed v1 certificate of `winners` winners with 30-character names: about 95 bytes each. */
function certificate(winners: number, id = 'c_digest', key = signer) {
  const body: Record<string, unknown> = {
    certificate_id: id,
    algorithm: 'tyche-draw-v1',
    public_id: 'g_digest',
    title: 'A thousand prizes',
    winners: Array.from({ length: winners }, (_, i) => ({
      position: i + 1,
      index: i,
      telegram_id: 1_000_000 + i,
      username: `winner_with_a_long_name_${String(i).padStart(5, '0')}`,
    })),
    drawn_at: '2026-05-01T12:00:00.000Z',
  };
  return sealCertificate(body, key);
}

describe('a certificate too long for an entry bundle is logged as its digest', () => {
  const long = certificate(1000);
  const longBytes = canonicalJsonBytes(long);

  test('up to 65 535 bytes a certificate is logged whole; past that, as its digest; verifiers accept both then', () => {
    const short = certificate(3);
    assert.deepEqual(certificateLeafData(short), canonicalJsonBytes(short));
    assert.deepEqual(certificateLeafForms(short), [canonicalJsonBytes(short)]);
    assert.ok(longBytes.length > 65_535);
    const digest = JSON.parse(new TextDecoder().decode(certificateLeafData(long)));
    assert.deepEqual(digest, {
      type: CERTIFICATE_DIGEST_TYPE,
      certificate_id: 'c_digest',
      algorithm: 'tyche-draw-v1',
      public_id: 'g_digest',
      drawn_at: '2026-05-01T12:00:00.000Z',
      certificate_bytes: longBytes.length,
      certificate_hash: long.hash,
      certificate_signature: long.signature,
    });
    assert.ok(certificateLeafData(long).length < 1000);
    assert.deepEqual(certificateLeafForms(long), [certificateLeafData(long), longBytes]);
    const read = readLogEntry(certificateLeafData(long), 'certificate', 'c_digest');
    assert.ok(read.ok, JSON.stringify(read));
    assert.equal(readLogEntry(certificateLeafData(long)).ok, true, 'its kind follows from the entry alone');
    assert.equal(certificateDigestProblem(read.object), null);
  });

  test("a v2 certificate's digest names its seal by id and hash", () => {
    const seal = {
      type: 'tyche-seal-v2',
      seal_id: 's_x',
      giveaway: { public_id: 'g_v2' },
      hash: 'ab'.repeat(32),
    };
    const digest = certificateDigest(
      { ...long, algorithm: 'tyche-draw-v2', seal, public_id: undefined },
      70_000,
    );
    assert.deepEqual(digest.seal, { seal_id: 's_x', hash: 'ab'.repeat(32) });
    assert.equal(digest.public_id, 'g_v2');
    assert.equal(certificateDigestProblem(JSON.parse(JSON.stringify(digest))), null);
  });

  test('a digest the log alone shows to be malformed is named', () => {
    const good = certificateDigest(long, longBytes.length);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...good, certificate_bytes: 65_535 }, /is not above 65535: such a certificate is logged whole/],
      [{ ...good, winners: [] }, /members a certificate digest does not have: winners/],
      [{ ...good, certificate_hash: 'AB' }, /certificate_hash is not 64 lower-case hex/],
      [{ ...good, certificate_signature: { alg: 'Ed25519', kid: 'k' } }, /certificate_signature is not/],
      [{ ...good, algorithm: 'tyche-draw-v2' }, /its seal is not \{"seal_id", "hash"\}/],
      [{ ...good, algorithm: 'tyche-draw-v9' }, /algorithm "tyche-draw-v9" is unknown/],
      [{ ...good, drawn_at: 5 }, /drawn_at is not a string/],
    ];
    for (const [digest, problem] of cases) assert.match(certificateDigestProblem(digest) ?? '', problem);
  });

  test('verifiers find the certificate in the log by either form: the digest, or a log written before digests', () => {
    const seed = new Uint8Array(32).fill(9);
    const logKey = verifierKey('digest.example/log', signingKeyFromSecret(seed).publicKeyRaw);
    const inclusion = (entries: Uint8Array[]) => {
      const packed = new Uint8Array(entries.length * 32);
      for (const [i, e] of entries.entries()) packed.set(leafHash(e, sha256), i * 32);
      const root = rootOfNodes(packed, entries.length, sha256);
      const checkpoint = signCheckpoint({ origin: 'digest.example/log', size: entries.length, root }, seed);
      const proof = inclusionProofFromLeaves(packed, entries.length, 1, sha256).map(toHex);
      const verdict = checkLogEvidence({
        logKey,
        keySource: { code: 'given', given: '--log-key' },
        checkpoint,
        objects: [{ what: 'certificate', object: long, index: 1, proof }],
        keyEntries: {},
        sha256,
      });
      return verdict.checks.find((c) => c.id === 'log-inclusion-certificate');
    };
    const other = new TextEncoder().encode('{"other":1}');
    assert.equal(inclusion([other, certificateLeafData(long)])?.ok, true, 'the digest');
    assert.equal(inclusion([other, longBytes])?.ok, true, 'the certificate whole');
    assert.equal(inclusion([other, other])?.ok, false);
  });
});

for (const target of await storeTargets()) {
  describe(`a draw of 1000 winners in the log (${target.dialect})`, { skip: target.skip }, () => {
    let t: TestApp;
    let url: string;
    let drawn: { certificate_id: string; log_index: number };
    before(async () => {
      t = await startTestApp({ dialect: target.dialect });
      url = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const key = await t.key();
      const id = await createGiveaway(t, key, { title: 'A thousand prizes', winners_count: 1000 });
      const people = Array.from({ length: 1000 }, (_, i) => ({
        telegram_id: 5_000_000 + i,
        username: `a_participant_with_a_long_name_${i}`,
      }));
      await addParticipants(t, key, id, people);
      const res = await draw(t, key, id);
      assert.equal(res.statusCode, 200, res.body);
      drawn = res.json();
    });
    after(() => t.close());

    test('is logged as its digest, bundled, and every verifier holds it', async () => {
      const published = (await t.app.inject({ url: `/verify/${drawn.certificate_id}.json` })).json();
      const { signed } = splitLogAnnotations(published);
      const whole = leafDataOf(signed);
      assert.ok(whole.length > 65_535, `${whole.length} bytes`);
      const page = await t.app.inject({
        url: `/log/entries?start=${drawn.log_index}&end=${drawn.log_index + 1}`,
      });
      const [entry] = page.json().entries;
      assert.equal(entry.kind, 'certificate');
      const digest = JSON.parse(Buffer.from(fromBase64(entry.leaf_data) as Uint8Array).toString('utf8'));
      assert.equal(digest.type, CERTIFICATE_DIGEST_TYPE);
      assert.equal(digest.certificate_bytes, whole.length);
      assert.equal(digest.certificate_hash, (signed as { hash: string }).hash);
      const bundle = await t.app.inject({ url: `/log/tile/entries/000.p/${drawn.log_index + 1}` });
      assert.equal(bundle.statusCode, 200);

      const state = freshState();
      const verified = await runTyche(['verify', `${url}/verify/${drawn.certificate_id}.json`], state);
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);
      assert.match(
        verified.stdout,
        /^✓ Log inclusion \(certificate\): the certificate is entry \d+ of the log/m,
      );
      const audited = await runTyche(['log', 'verify', url], state);
      assert.equal(audited.code, 0, audited.stdout + audited.stderr);
      assert.match(audited.stdout, /^✓ Entries: every entry is canonical/m);
    });

    test('a log written before digests, holding a long certificate whole, is read with --entries; its bundle is not served', async () => {
      const key = await t.services.signer.current();
      const old = certificate(1000, 'c_whole', key);
      const { index } = await t.store.db.transaction().execute((trx) =>
        t.services.transparency.log.append(trx, {
          kind: 'certificate',
          id: 'c_whole',
          leafData: leafDataOf(old),
        }),
      );
      const path = `tile/entries/000.p/${index + 1}`;
      const bundle = await t.app.inject({ url: `/log/${path}` });
      assert.equal(bundle.statusCode, 404);
      assert.match(
        bundle.json().detail,
        new RegExp(
          `entry ${index} has \\d+ bytes, more than an entry bundle holds \\(65535\\); read it from /log/entries`,
        ),
      );
      const state = freshState();
      const entries = await runTyche(['log', 'verify', url, '--entries'], state);
      assert.equal(entries.code, 0, entries.stdout);
      const tiled = await runTyche(['log', 'verify', url], state);
      assert.equal(tiled.code, 3);
      assert.match(
        tiled.stderr,
        /answered 404 \(read a log without tiles, or with an entry too long for a bundle, with --entries\)/,
      );
      const exported = await runTyche(['log', 'export', mkdtempSync(join(tmpdir(), 'tyche-mirror-'))], t.env);
      assert.equal(exported.code, 1);
      assert.match(exported.stderr, /more than an entry bundle holds/);
    });
  });
}

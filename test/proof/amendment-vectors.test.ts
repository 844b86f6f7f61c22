import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  AMENDMENT_CHECKS,
  type Amendment,
  amendedWinners,
  checkAmendments,
  nextReserve,
} from '../../src/proof/amendments.ts';
import { canonicalJson } from '../../src/proof/canonical-json.ts';
import {
  kindOf,
  LOG_ANNOTATIONS,
  leafDataOf,
  readLogEntry,
  splitLogAnnotations,
} from '../../src/proof/log-entry.ts';
import type { CertificateV2, EntrantWinner } from '../../src/proof/v2-types.ts';
import { sealCertificate, signingKeyFromSecret } from '../../src/signing/certificate-crypto.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const VECTORS = root('test/fixtures/amendment-vectors.json');
const GENERATOR = root('docs/amendment-vectors.py');

interface Fixture {
  keys: unknown;
  signing_secret: string;
  certificate: CertificateV2;
  valid: { amendments: Amendment[]; canonical: string[]; amended_winners: EntrantWinner[] };
  invalid: {
    name: string;
    description: string;
    amendments: unknown[];
    failures: { check: string; at: number }[];
  }[];
}
const fixture = JSON.parse(readFileSync(VECTORS, 'utf8')) as Fixture;
const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const check = (amendments: unknown, certificate: unknown = fixture.certificate) =>
  checkAmendments({ certificate, amendments, keys: fixture.keys, sha256 });

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const noPython = python.status === 0 ? undefined : 'python3 is not installed';

describe('amendments: the vectors made by the Python reference', () => {
  test('the valid chain passes every check and gives the amended winners', () => {
    const verdict = check(fixture.valid.amendments);
    assert.deepEqual(verdict.failures, []);
    assert.equal(verdict.valid, true);
    assert.deepEqual(verdict.amendedWinners, fixture.valid.amended_winners);
    assert.deepEqual(
      amendedWinners(fixture.certificate, fixture.valid.amendments),
      fixture.valid.amended_winners,
    );
  });

  test('each amendment is the canonical bytes the reference signs, signed as a seal is', () => {
    const key = signingKeyFromSecret(Buffer.from(fixture.signing_secret, 'hex'));
    fixture.valid.amendments.forEach((amendment, i) => {
      const { hash: _hash, signature: _signature, ...body } = amendment;
      assert.equal(canonicalJson(body), fixture.valid.canonical[i]);
      // The seal's own signing code (Ed25519 is deterministic): the same bytes, hash and signature.
      assert.deepEqual(sealCertificate(body, key), amendment);
    });
  });

  test('the reserve taken is always the next unused one, and there is none after the last', () => {
    const reserves = fixture.certificate.reserves;
    assert.deepEqual(nextReserve(fixture.certificate, 0), { reservePosition: 1, entrant: reserves[0] });
    assert.deepEqual(nextReserve(fixture.certificate, 1), { reservePosition: 2, entrant: reserves[1] });
    assert.equal(nextReserve(fixture.certificate, reserves.length), undefined);
  });

  for (const broken of fixture.invalid) {
    test(`${broken.name}: ${broken.description}`, () => {
      const verdict = check(broken.amendments);
      assert.equal(verdict.valid, false);
      assert.deepEqual(
        verdict.failures.map(({ check, at }) => ({ check, at })),
        broken.failures,
        JSON.stringify(verdict.failures, null, 2),
      );
      for (const failure of verdict.failures) {
        assert.ok(failure.check in AMENDMENT_CHECKS, failure.check);
        assert.ok(failure.detail.length > 0);
      }
    });
  }

  test('a certificate that cannot be amended is named, not thrown on', () => {
    for (const certificate of [null, { ...fixture.certificate, reserves: 'none' }, { winners: [] }]) {
      const verdict = check(fixture.valid.amendments, certificate);
      assert.deepEqual(
        verdict.failures.map((f) => f.check),
        ['amendment-certificate'],
      );
      assert.equal(verdict.amendedWinners, null);
    }
    assert.deepEqual(
      check('not a list').failures.map((f) => f.check),
      ['amendment-format'],
    );
    assert.deepEqual(check([]).amendedWinners, fixture.certificate.winners, 'no amendment, no change');
  });

  test('an amendment is a log entry of kind amendment, named by its id; the annotations are not signed', () => {
    const [first] = fixture.valid.amendments;
    assert.equal(kindOf(first), 'amendment');
    const read = readLogEntry(leafDataOf(first), 'amendment', first.amendment_id);
    assert.ok(read.ok, JSON.stringify(read));
    assert.ok(LOG_ANNOTATIONS.includes('amendments') && LOG_ANNOTATIONS.includes('amended_winners'));
    const published = { ...fixture.certificate, amendments: fixture.valid.amendments, amended_winners: [] };
    assert.deepEqual(splitLogAnnotations(published).signed, fixture.certificate);
  });

  test('the Python reference re-derives the vectors', { skip: noPython }, () => {
    const derived = spawnSync('python3', [GENERATOR, '--check', VECTORS], { encoding: 'utf8' });
    assert.equal(derived.status, 0, derived.stdout + derived.stderr);
  });
});

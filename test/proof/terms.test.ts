import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fromHex } from '../../src/proof/hex.ts';
import {
  type TermsCommitment,
  termsCommitmentOf,
  termsFileProblem,
  termsFormatProblem,
  termsSha256,
} from '../../src/proof/terms.ts';
import { verifyCertificate } from '../../src/proof/verifier.ts';
import { sealFormatProblem } from '../../src/proof/verify-seal.ts';
import { sealCertificate } from '../../src/signing/certificate-crypto.ts';
import { EXAMPLE_KEY, QUICKNET_EXAMPLE, sampleCertificateV2 } from '../helpers/certificates-v2.ts';
import { fixture, sha256 } from './draw-v2-vectors.helpers.ts';

const KIND: Record<TermsCommitment['kind'], string> = {
  absent: 'absent',
  none: 'none',
  sha256: 'sha256',
  malformed: 'malformed',
};

// CONTRACT §14 "Rules in the commitment", against test/fixtures/draw-v2-vectors.json `terms`,
// whose every value comes from docs/draw-v2-reference.py.
describe('terms in the seal (proof/terms.ts)', () => {
  test('terms_sha256 is the SHA-256 of the UTF-8 bytes, as the reference computes it', () => {
    for (const c of fixture.terms.terms_sha256) {
      assert.equal(Buffer.from(c.terms, 'utf8').toString('hex'), c.utf8_hex, c.name);
      assert.equal(termsSha256(c.terms, sha256), c.sha256, c.name);
    }
  });

  test('each way a seal commits, and each file: the same verdict as the reference', () => {
    for (const c of fixture.terms.checks) {
      const seal = { giveaway: c.giveaway };
      const problem = termsFileProblem(seal, fromHex(c.file_hex), sha256);
      assert.equal(problem === null, c.valid, `${c.seal}, ${c.file}: ${problem}`);
      if (!c.valid) {
        const kind = KIND[termsCommitmentOf(seal).kind];
        assert.equal(c.verdict === 'mismatch' ? 'sha256' : c.verdict, kind, `${c.seal}, ${c.file}`);
      }
      const format = termsFormatProblem(c.giveaway as Record<string, unknown>);
      assert.equal(format === null, c.seal !== 'malformed (upper-case hex)', c.seal);
    }
  });

  test('absent is not null: the member is read as present or not, never defaulted', () => {
    assert.deepEqual(termsCommitmentOf({ giveaway: {} }), { kind: 'absent' });
    assert.deepEqual(termsCommitmentOf({ giveaway: { terms_sha256: null } }), { kind: 'none' });
    assert.deepEqual(termsCommitmentOf({ giveaway: { terms_sha256: undefined } }), {
      kind: 'malformed',
      value: undefined,
    });
    assert.deepEqual(termsCommitmentOf(null), { kind: 'absent' });
  });

  test('a seal from before terms (the quicknet example) still verifies in full; so does one with terms', async () => {
    assert.equal('terms_sha256' in QUICKNET_EXAMPLE.seal.giveaway, false);
    const old = sampleCertificateV2();
    const report = await verifyCertificate({ certificate: old, keys: QUICKNET_EXAMPLE.keys, sha256 });
    assert.equal(report.valid, true, JSON.stringify(report.checks.filter((c) => !c.ok)));
    const { hash: _h, signature: _s, ...body } = old.seal;
    for (const terms_sha256 of [null, termsSha256('Rules', sha256)]) {
      const sealed = sealCertificate({ ...body, giveaway: { ...body.giveaway, terms_sha256 } }, EXAMPLE_KEY);
      assert.equal(sealFormatProblem(sealed), null);
    }
    const bad = sealCertificate(
      { ...body, giveaway: { ...body.giveaway, terms_sha256: 42 } } as never,
      EXAMPLE_KEY,
    );
    assert.equal(sealFormatProblem(bad), 'giveaway.terms_sha256 is neither null nor 64 lower-case hex');
  });

  test('a near miss is named: a final line break, CRLF line breaks, a byte-order mark', () => {
    const terms = 'Line one\nLine two';
    const seal = { giveaway: { terms_sha256: termsSha256(terms, sha256) } };
    const bytes = (s: string) => new TextEncoder().encode(s);
    assert.equal(termsFileProblem(seal, bytes(terms), sha256), null);
    assert.match(
      termsFileProblem(seal, bytes(`${terms}\n`), sha256)!,
      /matches without its final line break/,
    );
    assert.match(
      termsFileProblem(seal, bytes(`${terms}\r\n`), sha256)!,
      /matches without its final line break/,
    );
    assert.match(
      termsFileProblem(seal, bytes('Line one\r\nLine two'), sha256)!,
      /matches with LF line breaks/,
    );
    assert.match(
      termsFileProblem(seal, bytes(`\ufeff${terms}`), sha256)!,
      /matches without its byte-order mark/,
    );
    assert.doesNotMatch(termsFileProblem(seal, bytes('Line one'), sha256)!, /matches/);
  });
});

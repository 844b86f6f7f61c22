import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { toBase64 } from '../../src/proof/hex.ts';
import { pemCertificates } from '../../src/proof/timestamp/pem.ts';
import { checkTimestampToken } from '../../src/proof/timestamp/token-check.ts';
import { randomNonce, timestampImprint } from '../../src/proof/timestamp/tsa-request.ts';
import { readTimeStampResponse } from '../../src/proof/timestamp/tsa-response.ts';
import { createFakeTsaCa, type FakeTsaCa, type TokenVariant } from '../helpers/fake-tsa-ca.ts';

const HASH = createHash('sha256').update('a seal').digest('hex');
const GEN_TIME = new Date('2026-03-01T12:00:00.000Z');

describe('checkTimestampToken (CONTRACT §13)', () => {
  let ca: FakeTsaCa;
  let other: FakeTsaCa;
  const nonce = randomNonce();
  const tokenOf = async (variant: TokenVariant, at = GEN_TIME) =>
    ca.token({ imprint: await timestampImprint(HASH), nonce, genTime: at, variant });
  const check = (
    token: Uint8Array | string,
    extra: Partial<Parameters<typeof checkTimestampToken>[1]> = {},
  ) => checkTimestampToken(token, { hash: HASH, nonce, anchors: [ca.rootPem], ...extra });

  before(async () => {
    ca = await createFakeTsaCa('Fake TSA One');
    other = await createFakeTsaCa('Fake TSA Two');
  });

  test('a good token passes, as DER or as the base64 the JSON carries, with its time and signer', async () => {
    const token = await tokenOf('good');
    for (const given of [token, toBase64(token)]) {
      const result = await check(given);
      assert.deepEqual(result, { ok: true, genTime: GEN_TIME, tsaName: 'Fake TSA One', reason: null });
    }
  });

  test('ESSCertID (SHA-1) names the signer as well as ESSCertIDv2 does', async () => {
    assert.equal((await check(await tokenOf('ess-v1'))).ok, true);
  });

  test('without a nonce to compare (a published token) the rest is still checked', async () => {
    assert.equal((await check(await tokenOf('wrong-nonce'), { nonce: undefined })).ok, true);
  });

  test('an anchor among several, in one PEM text or as DER, is found', async () => {
    const both = `${other.rootPem}${ca.rootPem}`;
    assert.equal((await check(await tokenOf('good'), { anchors: [both] })).ok, true);
    const der = pemCertificates(ca.rootPem)[0];
    assert.equal((await check(await tokenOf('good'), { anchors: [other.rootPem, der] })).ok, true);
  });

  const refusals: [TokenVariant, RegExp][] = [
    ['wrong-imprint', /^imprint does not match$/],
    ['wrong-nonce', /^nonce does not match$/],
    ['bad-signature', /^signature invalid/],
    ['untrusted-root', /^no chain to a trusted root/],
    ['expired', /^certificate not valid at genTime: "Fake TSA One \(expired\)"/],
    ['missing-eku', /^signer certificate lacks a critical timeStamping EKU$/],
    ['eku-not-critical', /^signer certificate lacks a critical timeStamping EKU$/],
    ['wrong-ess', /^the signer certificate is not the one its ESSCertID names$/],
  ];
  for (const [variant, reason] of refusals) {
    test(`${variant}: refused, and the reason names what failed`, async () => {
      const result = await check(await tokenOf(variant));
      assert.equal(result.ok, false);
      assert.match(result.reason ?? '', reason);
    });
  }

  test("another TSA's root does not make a token trusted: anchors come from the caller only", async () => {
    const result = await check(await tokenOf('good'), { anchors: [other.rootPem] });
    assert.match(result.reason ?? '', /^no chain to a trusted root/);
  });

  test('the hash of another object does not match', async () => {
    const otherHash = createHash('sha256').update('another seal').digest('hex');
    const result = await check(await tokenOf('good'), { hash: otherHash });
    assert.equal(result.reason, 'imprint does not match');
  });

  test('notAfter: genTime must come strictly before it (a seal before its round)', async () => {
    const at = GEN_TIME.toISOString();
    const result = await check(await tokenOf('good'), { notAfter: at });
    assert.match(
      result.reason ?? '',
      /^genTime 2026-03-01T12:00:00.000Z is not before 2026-03-01T12:00:00.000Z$/,
    );
    assert.equal((await check(await tokenOf('good'), { notAfter: GEN_TIME.getTime() + 1 })).ok, true);
  });

  test('now: genTime more than 10 minutes from the clock is refused, within it accepted', async () => {
    const late = new Date(GEN_TIME.getTime() + 10 * 60_000 + 1);
    assert.match((await check(await tokenOf('good'), { now: late })).reason ?? '', /more than 10 minutes/);
    const near = new Date(GEN_TIME.getTime() - 10 * 60_000);
    assert.equal((await check(await tokenOf('good'), { now: near })).ok, true);
    assert.equal((await check(await tokenOf('good'), { now: late, maxSkewMs: 11 * 60_000 })).ok, true);
  });

  test('the imprint is SHA-256 over the raw hash bytes, as docs/timestamps.md shows', async () => {
    const hash = '936168374be9f481cbadfa3fba01d568b46df0d1ca5a08a4db018a03c70b1019';
    const expected = '09beadee97dbfcd98828d4ee702235877334a1f3254cc85c4ffa1b88d93fc5fc';
    assert.equal(Buffer.from(await timestampImprint(hash)).toString('hex'), expected);
    const doc = readFileSync(new URL('../../docs/timestamps.md', import.meta.url), 'utf8');
    assert.ok(doc.includes(hash) && doc.includes(expected));
  });

  test('an anchor that is no certificate is named as the problem', async () => {
    const result = await check(await tokenOf('good'), {
      anchors: [ca.rootPem, new Uint8Array([0x30, 0x00])],
    });
    assert.match(result.reason ?? '', /^a trust anchor cannot be read/);
  });

  test('bytes that are no token are refused with a reason, never thrown', async () => {
    assert.equal((await check('not base64!')).reason, 'the token is not base64');
    assert.match((await check(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]))).reason ?? '', /^the token/);
    const truncated = (await tokenOf('good')).slice(0, 100);
    assert.equal((await check(truncated)).ok, false);
  });

  test('a TimeStampResp gives the token as the TSA encoded it, or why there is none', async () => {
    const imprint = await timestampImprint(HASH);
    const response = await ca.response({ imprint, nonce, genTime: GEN_TIME });
    const answer = readTimeStampResponse(response);
    assert.equal(answer.granted, true);
    if (answer.granted) assert.equal((await check(answer.token)).ok, true);
    assert.deepEqual(readTimeStampResponse(new Uint8Array([1, 2, 3])), {
      granted: false,
      reason: 'the answer is not one DER TimeStampResp',
    });
  });
});

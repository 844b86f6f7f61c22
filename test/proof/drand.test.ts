import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import {
  beaconProblem,
  DRAND_DST,
  drandChainHash,
  drandRoundMessage,
  parseChainInfo,
  QUICKNET,
} from '../../src/proof/drand.ts';

const sha256 = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();
const sha256Hex = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');
const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/upstreams/drand-quicknet.json', import.meta.url), 'utf8'),
);
const beacons: { round: number; randomness: string; signature: string }[] = fixture.beacons;

describe('drand chain info', () => {
  test('QUICKNET is the chain of the real /info', () => {
    const { info } = fixture;
    assert.deepEqual(
      { ...QUICKNET },
      {
        public_key: info.public_key,
        period: info.period,
        genesis_time: info.genesis_time,
        hash: info.hash,
        schemeID: info.schemeID,
      },
    );
    assert.equal(QUICKNET.hash, fixture.chainHash);
  });

  test('reads both the v1 and the v2 form of quicknet /info, recomputing the chain hash', () => {
    assert.deepEqual(parseChainInfo(fixture.info), { ...QUICKNET });
    assert.deepEqual(parseChainInfo(fixture.infoV2), { ...QUICKNET });
    assert.equal(drandChainHash(QUICKNET, fixture.info.groupHash, 'quicknet', sha256), fixture.chainHash);
    assert.notEqual(drandChainHash(QUICKNET, fixture.info.groupHash, 'default', sha256), fixture.chainHash);
  });

  test('accepts the key form of a chain without a group hash (as --drand-chain may give it)', () => {
    const { groupHash: _g, metadata: _m, ...bare } = fixture.info;
    assert.deepEqual(parseChainInfo(bare), { ...QUICKNET });
  });

  const otherKey = bls12_381.shortSignatures.keygen().publicKey.toHex();
  for (const [label, edit, message] of [
    ['another scheme', { schemeID: 'pedersen-bls-chained' }, /schemeID must be "bls-unchained-g1-rfc9380"/],
    ['no scheme', { schemeID: undefined }, /schemeID/],
    ['a short key', { public_key: fixture.info.public_key.slice(2) }, /public_key must be 192 hex/],
    ['a key off the curve', { public_key: '00'.repeat(96) }, /public_key is not a point of G2/],
    ['another chain key', { public_key: otherKey }, /hash is 52db9ba7.*but the fields hash to/],
    ['another period', { period: 30 }, /but the fields hash to/],
    ['period 0', { period: 0 }, /period must be a positive integer/],
    ['genesis as a string', { genesis_time: '1692803367' }, /genesis_time must be a positive integer/],
    ['no hash', { hash: undefined }, /hash is missing/],
    ['a bad group hash', { groupHash: 'zz' }, /groupHash must be 64 hex/],
  ] as const) {
    test(`refuses ${label}, naming the field`, () => {
      assert.throws(() => parseChainInfo({ ...fixture.info, ...edit }), message);
    });
  }

  test('refuses what is not an object', () => {
    assert.throws(() => parseChainInfo(null), /must be a JSON object/);
    assert.throws(() => parseChainInfo([fixture.info]), /must be a JSON object/);
  });
});

describe('drand rounds on the real quicknet', () => {
  test('the signed message is SHA-256 of the round as 8 big-endian bytes', () => {
    assert.equal(Buffer.from(drandRoundMessage(1, sha256)).toString('hex'), sha256Hex('0000000000000001'));
    assert.equal(
      Buffer.from(drandRoundMessage(657413, sha256)).toString('hex'),
      sha256Hex(657413n.toString(16).padStart(16, '0')),
    );
  });

  for (const beacon of beacons) {
    test(`round ${beacon.round} verifies; the same signature fails for round ${beacon.round + 1}`, () => {
      assert.equal(
        sha256Hex(beacon.signature),
        beacon.randomness,
        'fixture: randomness = SHA-256(signature)',
      );
      assert.equal(beaconProblem(QUICKNET, beacon, sha256), null);
      assert.equal(
        beaconProblem(QUICKNET, { ...beacon, signature: beacon.signature.toUpperCase() }, sha256),
        null,
      );
      assert.match(
        beaconProblem(QUICKNET, { ...beacon, round: beacon.round + 1 }, sha256) ?? '',
        /^BLS signature does not verify under the key of chain 52db9ba7/,
      );
    });
  }

  test('names each defect of a round', () => {
    const b = beacons[3];
    const other = beacons[2];
    const fakeKey = bls12_381.shortSignatures.keygen().publicKey.toHex();
    const cases: [string, object, RegExp, object?][] = [
      ['round 0', { round: 0 }, /^round is not a positive integer$/],
      ['a fractional round', { round: 1.5 }, /^round is not a positive integer$/],
      ['short randomness', { randomness: b.randomness.slice(2) }, /^randomness is not 32 bytes of hex$/],
      [
        'randomness of another round',
        { randomness: other.randomness },
        /^randomness is not SHA-256\(signature\)$/,
      ],
      [
        'signature of another round',
        { signature: other.signature },
        /^randomness is not SHA-256\(signature\)$/,
      ],
      [
        'signature and randomness of another round',
        { signature: other.signature, randomness: other.randomness },
        /^BLS signature does not verify/,
      ],
      ['non-hex signature', { signature: `zz${b.signature.slice(2)}` }, /^signature is not 48 bytes of hex$/],
      [
        'a signature that is not a point',
        { signature: 'ff'.repeat(48), randomness: sha256Hex('ff'.repeat(48)) },
        /^malformed BLS signature/,
      ],
      ['another chain key', {}, /^BLS signature does not verify/, { public_key: fakeKey }],
      [
        'a chain key off the curve',
        {},
        /^the chain public key is not a point of G2$/,
        { public_key: '11'.repeat(96) },
      ],
    ];
    for (const [label, edit, message, chainEdit] of cases) {
      const problem = beaconProblem({ ...QUICKNET, ...chainEdit }, { ...b, ...edit }, sha256);
      assert.match(problem ?? 'null', message, label);
    }
  });

  test('a fresh chain key signs rounds that verify under it alone', () => {
    const sigs = bls12_381.shortSignatures;
    const { secretKey, publicKey } = sigs.keygen();
    const chain = { ...QUICKNET, public_key: publicKey.toHex(), hash: 'ab'.repeat(32) };
    const signature = Buffer.from(
      sigs.Signature.toBytes(sigs.sign(sigs.hash(drandRoundMessage(42, sha256), DRAND_DST), secretKey)),
    ).toString('hex');
    const beacon = { round: 42, randomness: sha256Hex(signature), signature };
    assert.equal(beaconProblem(chain, beacon, sha256), null);
    assert.match(beaconProblem(QUICKNET, beacon, sha256) ?? '', /does not verify/);
  });
});

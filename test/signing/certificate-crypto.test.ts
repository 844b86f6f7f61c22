import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { canonicalJson } from '../../src/proof/canonical-json.ts';
import {
  createSigningKey,
  kidOf,
  publicJwk,
  sealCertificate,
  signingKeyFromSecret,
  signingKeySecret,
} from '../../src/signing/certificate-crypto.ts';
import { signedObjectCheck } from '../proof/signed-object-check.ts';

function sampleBody() {
  return {
    certificate_id: 'c_7Hq2',
    algorithm: 'tyche-draw-v1',
    giveaway: { public_id: 'g_abc', title: 'Summer giveaway ☀️' },
    winners_count: 2,
    participants_count: 3,
    participants_hash: 'ab'.repeat(32),
    randomness: {
      source: 'nist',
      request_id: '2b8f0d1e-0000-4000-8000-000000000000',
      bytes: 'cd'.repeat(32),
      source_reference: 'https://beacon.nist.gov/beacon/2.0/chain/2/pulse/1',
      obtained_at: '2025-01-02T03:04:05.000Z',
      beacon_value: 'ef'.repeat(64),
      system_entropy: '01'.repeat(32),
    },
    seed: '02'.repeat(32),
    winners: [
      { position: 1, index: 2, telegram_id: 300, username: 'carol' },
      { position: 2, index: 0, telegram_id: 100, username: null },
    ],
    drawn_at: '2025-01-02T03:04:06.000Z',
  };
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys.at(-1)!] = value;
}

// RFC 8032 §7.1 TEST 1: a fixed seed gives a known public key and signature.
const RFC8032_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const RFC8032_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const RFC8032_EMPTY_SIG =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';

describe('signing keys', () => {
  test('a seed (bytes, base64url, PKCS#8 PEM) gives the RFC 8032 key pair', () => {
    const seed = Buffer.from(RFC8032_SEED, 'hex');
    const fromBytes = signingKeyFromSecret(seed);
    assert.equal(Buffer.from(fromBytes.publicKeyRaw).toString('hex'), RFC8032_PUBLIC);
    const fromText = signingKeyFromSecret(seed.toString('base64url'));
    assert.equal(fromText.kid, fromBytes.kid);
    const pem = fromBytes.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    assert.equal(signingKeyFromSecret(pem).kid, fromBytes.kid);
    assert.equal(signingKeySecret(fromBytes), seed.toString('base64url'));
    const sig = verify(null, new Uint8Array(0), fromBytes.publicKey, Buffer.from(RFC8032_EMPTY_SIG, 'hex'));
    assert.equal(sig, true);
  });

  test('rejects wrong lengths and non-Ed25519 keys', () => {
    assert.throws(() => signingKeyFromSecret(new Uint8Array(31)), RangeError);
    assert.throws(() => signingKeyFromSecret('c2hvcnQ'), RangeError);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    assert.throws(
      () => signingKeyFromSecret(rsa.export({ format: 'pem', type: 'pkcs8' }).toString()),
      TypeError,
    );
  });

  test('kid is the first 16 hex of SHA-256 of the raw public key; the JWK names it', () => {
    const key = createSigningKey();
    const expectedKid = createHash('sha256').update(key.publicKeyRaw).digest('hex').slice(0, 16);
    assert.equal(kidOf(key.publicKeyRaw), expectedKid);
    assert.equal(key.kid, expectedKid);
    assert.equal(key.publicKeyRaw.length, 32);
    assert.deepEqual(publicJwk(key), {
      kty: 'OKP',
      crv: 'Ed25519',
      x: Buffer.from(key.publicKeyRaw).toString('base64url'),
      kid: expectedKid,
      alg: 'EdDSA',
      use: 'sig',
    });
    assert.notEqual(createSigningKey().kid, key.kid);
  });
});

describe('sealing and verifying certificates', () => {
  const key = createSigningKey();
  const keys = [publicJwk(key)];

  test('hash and signature cover the canonical JSON of every other field', () => {
    const body = sampleBody();
    const cert = sealCertificate(body, key);
    const canonical = canonicalJson(body);
    assert.equal(cert.hash, createHash('sha256').update(canonical, 'utf8').digest('hex'));
    assert.equal(cert.signature.alg, 'Ed25519');
    assert.equal(cert.signature.kid, key.kid);
    assert.match(cert.signature.value, /^[A-Za-z0-9_-]{86}$/);
    assert.ok(
      verify(
        null,
        Buffer.from(canonical, 'utf8'),
        key.publicKey,
        Buffer.from(cert.signature.value, 'base64url'),
      ),
    );
    assert.deepEqual(signedObjectCheck(cert, keys), {
      hashOk: true,
      signatureOk: true,
      kidKnown: true,
      valid: true,
    });
  });

  test('survives a JSON round trip and does not depend on key order', () => {
    const cert = sealCertificate(sampleBody(), key);
    const reparsed = JSON.parse(JSON.stringify(cert)) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(reparsed).reverse());
    assert.equal(signedObjectCheck(reordered, keys).valid, true);
  });

  test('tampering with any field breaks the hash and the signature', () => {
    const cert = sealCertificate(sampleBody(), key);
    const edits: [string, unknown][] = [
      ['certificate_id', 'c_other'],
      ['giveaway.title', 'Summer giveaway ☀️ '],
      ['giveaway.public_id', 'g_abd'],
      ['winners_count', 3],
      ['participants_count', 4],
      ['participants_hash', 'ac'.repeat(32)],
      ['randomness.bytes', 'ce'.repeat(32)],
      ['randomness.system_entropy', '03'.repeat(32)],
      ['seed', '04'.repeat(32)],
      ['winners.0.telegram_id', 301],
      ['winners.1.username', 'mallory'],
      ['drawn_at', '2025-01-02T03:04:07.000Z'],
      ['note', 'an added field'],
    ];
    const mutations: [string, (c: Record<string, unknown>) => void][] = edits.map(([path, value]) => [
      path,
      (c) => setPath(c, path, value),
    ]);
    mutations.push(['winner order', (c) => (c.winners as unknown[]).reverse()]);
    mutations.push(['removed field', (c) => Reflect.deleteProperty(c, 'drawn_at')]);
    for (const [name, mutate] of mutations) {
      const copy = structuredClone(cert) as unknown as Record<string, unknown>;
      mutate(copy);
      const check = signedObjectCheck(copy, keys);
      assert.deepEqual(check, { hashOk: false, signatureOk: false, kidKnown: true, valid: false }, name);
    }
  });

  test('a forged hash that matches the tampered body still fails the signature', () => {
    const cert = sealCertificate(sampleBody(), key);
    const { hash: _hash, signature, ...body } = structuredClone(cert);
    body.winners[0].telegram_id = 999;
    const forged = {
      ...body,
      hash: createHash('sha256').update(canonicalJson(body)).digest('hex'),
      signature,
    };
    assert.deepEqual(signedObjectCheck(forged, keys), {
      hashOk: true,
      signatureOk: false,
      kidKnown: true,
      valid: false,
    });
  });

  test('a tampered signature fails, and every byte of it counts', () => {
    const cert = sealCertificate(sampleBody(), key);
    const raw = Buffer.from(cert.signature.value, 'base64url');
    for (const at of [0, 31, 32, 63]) {
      const bad = Buffer.from(raw);
      bad[at] ^= 1;
      const check = signedObjectCheck(
        { ...cert, signature: { ...cert.signature, value: bad.toString('base64url') } },
        keys,
      );
      assert.equal(check.signatureOk, false, `byte ${at}`);
      assert.equal(check.hashOk, true);
    }
    // Node's decoder would ignore unused trailing bits; the verifier insists on the canonical text.
    const last = cert.signature.value.at(-1)!;
    const alias = cert.signature.value.slice(0, -1) + (last === 'A' ? 'B' : last === 'B' ? 'A' : last);
    if (alias !== cert.signature.value) {
      const check = signedObjectCheck({ ...cert, signature: { ...cert.signature, value: alias } }, keys);
      assert.equal(check.signatureOk, false);
    }
    for (const signature of [
      undefined,
      null,
      'x',
      { ...cert.signature, alg: 'RS256' },
      { ...cert.signature, value: '!' },
    ]) {
      assert.equal(signedObjectCheck({ ...cert, signature }, keys).signatureOk, false);
    }
  });

  test('an unknown kid is reported, and another key does not verify', () => {
    const cert = sealCertificate(sampleBody(), key);
    const other = createSigningKey();
    assert.deepEqual(signedObjectCheck(cert, [publicJwk(other)]), {
      hashOk: true,
      signatureOk: false,
      kidKnown: false,
      valid: false,
    });
    const lying = [{ ...publicJwk(key), x: publicJwk(other).x }];
    assert.deepEqual(signedObjectCheck(cert, lying), {
      hashOk: true,
      signatureOk: false,
      kidKnown: true,
      valid: false,
    });
    const relabelled = sealCertificate(sampleBody(), other);
    assert.equal(
      signedObjectCheck({ ...relabelled, signature: { ...relabelled.signature, kid: key.kid } }, keys).valid,
      false,
    );
  });

  test('malformed input gives false flags, never an exception', () => {
    for (const junk of [null, 1, 'cert', [], {}, { hash: 1, signature: 2 }, { x: Number.NaN }]) {
      assert.equal(signedObjectCheck(junk, keys).valid, false);
    }
    assert.throws(() => sealCertificate({ hash: 'x' }, key), TypeError);
  });
});

describe('the published certificate example (docs/draw-algorithm.md)', () => {
  const example = JSON.parse(
    readFileSync(new URL('../fixtures/certificate-example.json', import.meta.url), 'utf8'),
  ) as {
    key: { seed: string; jwk: ReturnType<typeof publicJwk> };
    canonical_json: string;
    certificate: Record<string, unknown> & { hash: string; signature: { value: string } };
  };

  test('sealing the body with the example key reproduces the independently computed certificate', () => {
    const key = signingKeyFromSecret(example.key.seed);
    assert.deepEqual(publicJwk(key), example.key.jwk);
    const { hash: _hash, signature: _signature, ...body } = example.certificate;
    assert.equal(canonicalJson(body), example.canonical_json);
    const sealed = sealCertificate(body, key);
    assert.equal(sealed.hash, example.certificate.hash);
    assert.deepEqual(sealed.signature, example.certificate.signature);
    assert.equal(JSON.stringify(sealed), JSON.stringify(example.certificate));
  });

  test('verifies with the published JWK', () => {
    assert.deepEqual(signedObjectCheck(example.certificate, [example.key.jwk]), {
      hashOk: true,
      signatureOk: true,
      kidKnown: true,
      valid: true,
    });
  });
});

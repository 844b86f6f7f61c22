import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { fromHex, toHex } from '../../src/proof/hex.ts';
import { inclusionProofFromLeaves } from '../../src/proof/merkle.ts';
import type { CertificateV2, Seal } from '../../src/proof/v2-types.ts';
import { type Report, verifyCertificate, verifyReceipt, verifySeal } from '../../src/proof/verifier.ts';
import { createSigningKey, publicJwk } from '../../src/signing/certificate-crypto.ts';
import { altered, buildV2World, sha256, type V2World } from './v2-fixture.ts';

const failing = (r: Report) => r.checks.filter((c) => !c.ok).map((c) => c.id);
const ids = (r: Report) => r.checks.map((c) => c.id);
const hex32 = () => randomBytes(32).toString('hex');
const flip = (h: string) => (h[0] === '0' ? '1' : '0') + h.slice(1);

const world = buildV2World();
const verify = (certificate: unknown, extra: Partial<Parameters<typeof verifyCertificate>[0]> = {}) =>
  verifyCertificate({ certificate, keys: world.keys, sha256, chains: [world.chain.info], ...extra });

describe('a real tyche-draw-v2 certificate', () => {
  test('passes every check, each on its own line, on public data alone', async () => {
    const r = await verify(world.certificate);
    assert.deepEqual(failing(r), [], JSON.stringify(r.checks));
    assert.equal(r.valid, true);
    assert.equal(r.trust, 'public');
    assert.equal(r.algorithm, 'tyche-draw-v2');
    assert.deepEqual(ids(r), [
      'format',
      'seal-hash',
      'seal-signature',
      'beacon-chain',
      'seal-rounds',
      'beacon-signature',
      'beacon-round',
      'seed',
      'winners',
      'reserves',
      'leaves',
      'proofs',
      'hash',
      'signature',
    ]);
  });

  test('with the entrants export and the relay record, two more checks pass', async () => {
    const c = world.certificate;
    const entrants = world.entrants.map(({ telegram_id, salt }) => ({ telegram_id, salt })).reverse();
    const r = await verify(c, { entrants, beaconRecord: world.chain.beacon(c.beacon.round) });
    assert.equal(r.valid, true, JSON.stringify(r.checks.filter((x) => !x.ok)));
    assert.ok(ids(r).includes('entrants') && ids(r).includes('beacon-record'));
  });

  const key = () => world.key;
  const cases: [string, (c: CertificateV2) => void, string[], boolean?][] = [
    ['the seal title', (c) => (c.seal.giveaway.title = 'Another giveaway'), ['seal-hash', 'seal-signature']],
    ['the seal root', (c) => (c.seal.entrants.root = hex32()), ['seal-hash', 'seal-signature', 'proofs']],
    [
      'the seal round',
      (c) => (c.seal.beacon.round += 1),
      ['seal-hash', 'seal-signature', 'seal-rounds', 'beacon-round'],
    ],
    [
      'the seal after_round, moved up to the round',
      (c) => (c.seal.beacon.after_round = c.seal.beacon.round - 1),
      ['seal-hash', 'seal-signature', 'seal-rounds'],
    ],
    ['the seal signature value', (c) => (c.seal.signature.value = c.signature.value), ['seal-signature']],
    ['the seal kid (an unknown key)', (c) => (c.seal.signature.kid = 'k_unknown'), ['seal-signature']],
    ['the round drawn', (c) => (c.beacon.round += 1), ['beacon-signature', 'beacon-round']],
    [
      "the beacon signature (another round's)",
      (c) => (c.beacon.signature = world.chain.beacon(c.beacon.round + 1).signature),
      ['beacon-signature'],
    ],
    ['the beacon chain', (c) => (c.beacon.chain_hash = hex32()), ['beacon-chain']],
    ['the seed', (c) => (c.seed = hex32()), ['seed']],
    [
      'a winner index',
      (c) => (c.winners[1].index = (c.winners[1].index + 1) % c.seal.entrants.count),
      ['winners', 'proofs'],
    ],
    ['a winner position', (c) => (c.winners[0].position = 2), ['winners']],
    ['a winner salt', (c) => (c.winners[0].salt = randomBytes(16).toString('hex')), ['leaves']],
    ['a winner telegram_id', (c) => (c.winners[2].telegram_id += 1), ['leaves']],
    [
      'a winner replaced by another entrant (leaf consistent, proof copied)',
      (c) => {
        const other = world.entrants.find(
          (e) => !c.winners.concat(c.reserves).some((w) => w.leaf_hash === e.leaf),
        )!;
        Object.assign(c.winners[0], {
          telegram_id: other.telegram_id,
          salt: other.salt,
          leaf_hash: other.leaf,
        });
      },
      ['proofs'],
    ],
    ['a proof node', (c) => (c.winners[2].proof[0] = flip(c.winners[2].proof[0])), ['proofs']],
    ['the last proof node of a reserve', (c) => c.reserves[0].proof.pop(), ['proofs']],
    ['the reserves (one dropped)', (c) => c.reserves.pop(), ['reserves']],
    [
      'a reserve index',
      (c) => (c.reserves[0].index = (c.reserves[0].index + 1) % c.seal.entrants.count),
      ['reserves', 'proofs'],
    ],
    ['a winner moved to the reserves', (c) => c.reserves.unshift(c.winners.pop()!), ['winners', 'reserves']],
    ['the certificate signature', (c) => (c.signature.value = c.seal.signature.value), ['signature'], false],
    ['the certificate kid (an unknown key)', (c) => (c.signature.kid = 'k_unknown'), ['signature'], false],
    ['the certificate hash', (c) => (c.hash = hex32()), ['hash'], false],
    [
      'drawn_at, not signed again',
      (c) => (c.drawn_at = new Date(0).toISOString()),
      ['hash', 'signature'],
      false,
    ],
    ['a salt that is not hex', (c) => (c.winners[0].salt = 'xyz'), ['format']],
    ['the algorithm field', (c) => ((c as { algorithm: string }).algorithm = 'tyche-draw-v3'), ['format']],
  ];
  for (const [label, edit, expected, resign = true] of cases) {
    test(`tampering with ${label} fails exactly ${expected.join(', ')}`, async () => {
      const bad = altered(world.certificate, edit, resign ? key() : null);
      const r = await verify(bad);
      assert.deepEqual(failing(r), expected, JSON.stringify(r.checks.filter((c) => !c.ok)));
      assert.equal(r.valid, false);
    });
  }

  test('the failing checks say why', async () => {
    const kid = await verify(altered(world.certificate, (c) => (c.signature.kid = 'k_unknown'), null));
    assert.match(
      kid.checks.find((c) => c.id === 'signature')!.detail,
      /"k_unknown" is not among the published keys/,
    );
    const sig = await verify(
      altered(
        world.certificate,
        (c) => (c.beacon.signature = world.chain.beacon(c.beacon.round + 1).signature),
        key(),
      ),
    );
    assert.match(
      sig.checks.find((c) => c.id === 'beacon-signature')!.detail,
      /randomness is not SHA-256\(signature\)/,
    );
    const proof = await verify(
      altered(world.certificate, (c) => (c.winners[2].proof[0] = flip(c.winners[2].proof[0])), key()),
    );
    assert.match(
      proof.checks.find((c) => c.id === 'proofs')!.detail,
      /^position 3 \(index \d+\): the proof does not lead/,
    );
  });

  test("another round's randomness and signature: the round's signature fails and the seed no longer follows", async () => {
    const other = world.chain.beacon(world.certificate.beacon.round + 7);
    const bad = altered(
      world.certificate,
      (c) => Object.assign(c.beacon, { randomness: other.randomness, signature: other.signature }),
      key(),
    );
    const failed = failing(await verify(bad));
    assert.ok(failed.includes('beacon-signature') && failed.includes('seed'), failed.join());
  });

  test('an unknown chain fails the chain check and leaves out what needs the chain', async () => {
    const r = await verifyCertificate({ certificate: world.certificate, keys: world.keys, sha256 });
    assert.deepEqual(failing(r), ['beacon-chain']);
    assert.match(r.checks[3].detail, /does not know: quicknet is built in/);
    assert.ok(!ids(r).includes('seal-rounds') && !ids(r).includes('beacon-signature'));
  });

  test('keys that lack the signing key fail both signatures', async () => {
    const r = await verify(world.certificate, { keys: { keys: [publicJwk(createSigningKey())] } });
    assert.deepEqual(failing(r), ['seal-signature', 'signature']);
  });

  test('the entrants export must rebuild the sealed root', async () => {
    const list = world.entrants.map(({ telegram_id, salt }) => ({ telegram_id, salt }));
    const missing = await verify(world.certificate, { entrants: list.slice(1) });
    assert.deepEqual(failing(missing), ['entrants']);
    assert.match(
      missing.checks.find((c) => c.id === 'entrants')!.detail,
      /the list has 39 entrants, the seal 40/,
    );
    const changed = list.map((e, i) => (i === 7 ? { ...e, salt: randomBytes(16).toString('hex') } : e));
    assert.deepEqual(failing(await verify(world.certificate, { entrants: changed })), ['entrants']);
    const twice = [...list.slice(1), list[2]];
    assert.deepEqual(failing(await verify(world.certificate, { entrants: twice })), ['entrants']);
    const badSalt = list.map((e, i) => (i === 0 ? { ...e, salt: 'zz' } : e));
    assert.deepEqual(failing(await verify(world.certificate, { entrants: badSalt })), ['entrants']);
  });

  test("the relay's record must be the certificate's round", async () => {
    const { round } = world.certificate.beacon;
    for (const record of [
      world.chain.beacon(round + 1),
      { ...world.chain.beacon(round), signature: 'ab' },
      null,
    ]) {
      const r = await verify(world.certificate, { beaconRecord: record as never });
      assert.deepEqual(failing(r), ['beacon-record']);
    }
  });

  test('never throws on what is not a certificate', async () => {
    for (const junk of [
      null,
      'x',
      7,
      [],
      {},
      { algorithm: 'tyche-draw-v2' },
      { algorithm: 'tyche-draw-v1' },
    ]) {
      const r = await verify(junk);
      assert.equal(r.valid, false);
      assert.equal(r.checks[0].id, 'format');
      assert.equal(r.checks[0].ok, false);
    }
    const noSeal = await verify({ ...world.certificate, seal: 'sealed' });
    assert.equal(noSeal.valid, false);
  });
});

describe('a seal', () => {
  const seal = world.seal;
  const check = (s: unknown, chains = [world.chain.info]) =>
    verifySeal({ seal: s, keys: world.keys, sha256, chains });

  test('verifies with its chain', async () => {
    const r = await check(seal);
    assert.deepEqual(ids(r), ['format', 'seal-hash', 'seal-signature', 'beacon-chain', 'seal-rounds']);
    assert.equal(r.valid, true);
    assert.equal(r.algorithm, 'tyche-seal-v2');
  });

  test('names what is wrong', async () => {
    assert.deepEqual(failing(await check(altered(seal, (s) => (s.giveaway.winners_count = 1), null))), [
      'seal-hash',
      'seal-signature',
    ]);
    const early = altered(seal, (s) => (s.sealed_at = s.beacon.round_at), world.key);
    assert.deepEqual(failing(await check(early)), ['seal-rounds']);
    assert.deepEqual(failing(await check(seal, [])), ['beacon-chain']);
    assert.deepEqual(failing(await check({ ...seal, type: 'tyche-ticket-v2' })), [
      'format',
      'seal-hash',
      'seal-signature',
    ]);
    assert.deepEqual(failing(await check(null)), ['format']);
  });
});

describe('a receipt', () => {
  const { certificate, seal, leaves } = world;
  const receiptOf = (w: V2World, index: number) => {
    const e = w.entrants[index];
    return {
      telegram_id: e.telegram_id,
      salt: e.salt,
      leaf_hash: e.leaf,
      index,
      count: w.entrants.length,
      root: w.seal.entrants.root,
      proof: inclusionProofFromLeaves(w.leaves, w.entrants.length, index, sha256).map(toHex),
      seal_id: w.seal.seal_id,
    };
  };
  const check = (receipt: ReturnType<typeof receiptOf>, extra: { certificate?: unknown; seal?: Seal } = {}) =>
    verifyReceipt({ receipt, seal, keys: world.keys, sha256, chains: [world.chain.info], ...extra });

  test('proves its entrant is in the sealed list', async () => {
    const r = await check(receiptOf(world, 5));
    assert.equal(r.valid, true, JSON.stringify(r.checks));
    assert.equal(r.outcome, undefined);
    assert.ok(['receipt-leaf', 'receipt-seal', 'receipt-proof'].every((id) => ids(r).includes(id)));
  });

  test('with the certificate, tells a winner, a reserve and an entrant not drawn', async () => {
    const winner = certificate.winners[1];
    const w = await check(receiptOf(world, winner.index), { certificate });
    assert.equal(w.valid, true, JSON.stringify(w.checks));
    assert.deepEqual(w.outcome, { won: true, position: 2, reserve: false });
    const reserve = certificate.reserves[0];
    const v = await check(receiptOf(world, reserve.index), { certificate });
    assert.deepEqual(v.outcome, { won: false, position: reserve.position, reserve: true });
    const drawn = new Set([...certificate.winners, ...certificate.reserves].map((e) => e.index));
    const loser = [...Array(40).keys()].find((i) => !drawn.has(i))!;
    const l = await check(receiptOf(world, loser), { certificate });
    assert.equal(l.valid, true);
    assert.deepEqual(l.outcome, { won: false });
  });

  test('catches a certificate that lists someone else in its place', async () => {
    const winner = certificate.winners[0];
    const other = world.entrants.findIndex(
      (_, i) => ![...certificate.winners, ...certificate.reserves].some((e) => e.index === i),
    );
    const e = world.entrants[other];
    const swapped = altered(
      certificate,
      (c) =>
        Object.assign(c.winners[0], {
          telegram_id: e.telegram_id,
          salt: e.salt,
          leaf_hash: e.leaf,
          proof: inclusionProofFromLeaves(leaves, 40, other, sha256).map(toHex),
        }),
      world.key,
    );
    const r = await check(receiptOf(world, winner.index), { certificate: swapped });
    assert.deepEqual(failing(r), ['certificate', 'outcome']);
    assert.deepEqual(r.outcome, { won: true, position: 1, reserve: false });
  });

  test('names a wrong proof, leaf, seal id or count', async () => {
    const good = receiptOf(world, 9);
    const cases: [object, string[]][] = [
      [{ proof: good.proof.map((p, i) => (i === 1 ? flip(p) : p)) }, ['receipt-proof']],
      [{ index: 10 }, ['receipt-proof']],
      [{ leaf_hash: hex32() }, ['receipt-leaf']],
      [{ seal_id: 'seal_other' }, ['receipt-seal']],
      [{ root: hex32() }, ['receipt-seal']],
      [{ salt: 'nothex' }, ['format']],
    ];
    for (const [edit, expected] of cases) {
      const r = await check({ ...good, ...edit });
      assert.deepEqual(failing(r), expected, JSON.stringify(edit));
    }
    const otherWorld = buildV2World({ n: 5 });
    const r = await check(receiptOf(world, 9), { certificate: otherWorld.certificate });
    assert.ok(failing(r).includes('certificate-seal'));
    assert.equal(r.outcome, undefined);
    assert.deepEqual(fromHex(good.leaf_hash).length, 32);
  });
});

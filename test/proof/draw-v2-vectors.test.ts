import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalJson, canonicalJsonBytes } from '../../src/proof/canonical-json.ts';
import { beaconProblem, DRAND_DST, parseChainInfo, QUICKNET } from '../../src/proof/drand.ts';
import {
  ALGORITHM_V2,
  committedRound,
  drawSeedV2,
  pickV2,
  roundOf,
  roundTimeMs,
  sealRoundProblem,
} from '../../src/proof/draw-v2.ts';
import { entrantLeafData, entrantLeafHash } from '../../src/proof/entrant-leaf.ts';
import { fromHex, toHex } from '../../src/proof/hex.ts';
import { inclusionProofFromLeaves, verifyInclusion } from '../../src/proof/merkle.ts';
import type { DrandChainInfo, Seal } from '../../src/proof/v2-types.ts';
import { verifyReceipt } from '../../src/proof/verifier.ts';
import {
  assertMembers,
  assertSigned,
  bodyOf,
  fixture,
  formulaEntrants,
  hexes,
  sealedList,
  sha256,
  sha256Hex,
  uint64be,
  unhexes,
} from './draw-v2-vectors.helpers.ts';

// Entrants, rounds, draws and the real quicknet example of test/fixtures/draw-v2-vectors.json,
// whose every value comes from docs/draw-v2-vectors.py; merkle-vectors.test.ts has the trees.

describe('entrant leaves, canonical order and root (§7.1–7.2)', () => {
  for (const c of fixture.entrants) {
    test(c.name, () => {
      c.entrants.forEach((e, i) => {
        const expected = c.expected.leaves[i];
        assert.equal(expected.telegram_id, e.telegram_id);
        assert.equal(toHex(entrantLeafData(fromHex(e.salt), e.telegram_id)), expected.leaf_data);
        assert.equal(toHex(entrantLeafData(fromHex(e.salt), BigInt(e.telegram_id))), expected.leaf_data);
        assert.equal(toHex(entrantLeafHash(fromHex(e.salt), e.telegram_id, sha256)), expected.leaf_hash);
      });
      const list = sealedList(c.entrants);
      assert.deepEqual(
        list.rows.map((r) => r.telegram_id),
        c.expected.canonical_order,
      );
      assert.equal(list.rows.length, c.expected.count);
      assert.equal(toHex(list.root), c.expected.root);
      c.expected.proofs.forEach((proof, i) => {
        assert.deepEqual(hexes(inclusionProofFromLeaves(list.packed, list.rows.length, i, sha256)), proof);
        assert.ok(verifyInclusion(list.rows[i].leaf, i, list.rows.length, unhexes(proof), list.root, sha256));
      });
    });
  }
});

describe('quicknet rounds (§7.3)', () => {
  const r = fixture.rounds;
  const chain = { genesis_time: r.chain.genesis_time, period: r.chain.period };

  test('round_of, round time and the committed round', () => {
    for (const c of r.round_of) {
      assert.equal(Date.parse(c.time), c.time_ms);
      assert.equal(roundOf(c.time_ms, chain), c.round, c.time);
    }
    for (const c of r.round_time) {
      assert.equal(roundTimeMs(c.round, chain), c.time_ms, `round ${c.round}`);
      assert.equal(new Date(roundTimeMs(c.round, chain)).toISOString(), c.time);
    }
    for (const c of r.committed_round) {
      const got = committedRound({
        afterRound: c.after_round,
        sealedAtMs: c.sealed_at_ms,
        delayRounds: c.delay_rounds,
        chain,
      });
      assert.equal(got, c.round, JSON.stringify(c));
    }
  });

  test('sealRoundProblem agrees with the reference on every variant of the example seal', () => {
    const seal = fixture.quicknet_example.seal as unknown as Seal;
    for (const c of r.seal_checks) {
      const variant = { ...seal, sealed_at: c.sealed_at, beacon: c.beacon } as Seal;
      const problem = sealRoundProblem(variant, QUICKNET);
      assert.equal(problem === null, c.valid, `${c.name}: ${problem ?? 'accepted'}`);
    }
  });
});

describe('draws from a seal and a beacon (§7.4–7.5)', () => {
  for (const c of fixture.draws) {
    test(c.name, (t) => {
      const started = performance.now();
      const entrants = c.entrants ?? formulaEntrants(c.entrants_formula!.count);
      const list = sealedList(entrants);
      t.diagnostic(
        `${entrants.length} entrants hashed and sealed: ${(performance.now() - started).toFixed(0)} ms`,
      );
      assert.equal(c.seal.entrants.count, list.rows.length);
      assert.equal(c.seal.entrants.root, toHex(list.root));
      assert.equal(sealRoundProblem(c.seal as unknown as Seal, QUICKNET), null);

      assert.equal(canonicalJson(c.seal), c.seal_canonical);
      assert.equal(toHex(canonicalJsonBytes(c.seal)), c.seal_canonical_hex);
      assert.equal(sha256Hex(canonicalJsonBytes(c.seal)), c.seal_hash);

      const seed = drawSeedV2(c.seal_hash, fromHex(c.beacon_randomness), sha256);
      assert.equal(toHex(seed), c.expected.seed);
      const g = c.seal.giveaway;
      const picked = pickV2(seed, list.rows.length, g.winners_count, g.reserve_count, sha256);
      assert.equal(picked.winners.length + picked.reserves.length, c.expected.k);
      assert.deepEqual(
        picked.winners,
        c.expected.winners.map((w) => w.index),
      );
      assert.deepEqual(
        picked.reserves,
        c.expected.reserves.map((w) => w.index),
      );
      assertMembers([...c.expected.winners, ...c.expected.reserves], list);
    });
  }
});

describe('the draw on real quicknet round 657413', () => {
  const q = fixture.quicknet_example;

  test('the built-in chain is quicknet, and parseChainInfo reads its /info', () => {
    const fields = (c: DrandChainInfo) => ({
      public_key: c.public_key,
      period: c.period,
      genesis_time: c.genesis_time,
      hash: c.hash,
      schemeID: c.schemeID,
    });
    assert.deepEqual(fields(QUICKNET), fields(q.chain as unknown as DrandChainInfo));
    assert.deepEqual(fields(parseChainInfo(q.chain)), fields(QUICKNET));
    assert.equal(DRAND_DST, 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_');
  });

  test('the beacon verifies under the chain key (BLS) and its randomness is SHA-256(signature)', () => {
    assert.equal(sha256Hex(fromHex(q.beacon.signature)), q.beacon.randomness);
    assert.equal(beaconProblem(QUICKNET, q.beacon, sha256), null);
    assert.equal(beaconProblem(QUICKNET, q.after_beacon, sha256), null);
    assert.notEqual(beaconProblem(QUICKNET, { ...q.beacon, round: q.beacon.round + 1 }, sha256), null);
    const flipped = `${q.beacon.randomness.slice(0, 63)}${q.beacon.randomness.endsWith('0') ? '1' : '0'}`;
    assert.notEqual(beaconProblem(QUICKNET, { ...q.beacon, randomness: flipped }, sha256), null);
    const swapped = { ...q.after_beacon, round: q.beacon.round };
    assert.notEqual(beaconProblem(QUICKNET, swapped, sha256), null);
  });

  test('seal: canonical bytes, hash, signature, round rules', () => {
    assert.equal(canonicalJson(bodyOf(q.seal)), q.seal_canonical);
    assert.equal(toHex(canonicalJsonBytes(bodyOf(q.seal))), q.seal_canonical_hex);
    assertSigned(q.seal, 'seal');
    assert.equal(q.seal.beacon.round, q.beacon.round);
    assert.equal(q.seal.beacon.after_round, q.after_beacon.round);
    assert.equal(q.seal.beacon.after_randomness, q.after_beacon.randomness);
    assert.equal(sealRoundProblem(q.seal as unknown as Seal, QUICKNET), null);
    const due = committedRound({
      afterRound: q.seal.beacon.after_round,
      sealedAtMs: Date.parse(q.seal.sealed_at),
      delayRounds: q.delay_rounds,
      chain: QUICKNET,
    });
    assert.equal(due, q.seal.beacon.round);
  });

  test('seed, winners, reserves and every member proof', () => {
    const list = sealedList(q.entrants);
    assert.equal(toHex(list.root), q.seal.entrants.root);
    assert.deepEqual(
      list.rows.map((r) => r.telegram_id),
      q.expected.canonical_order,
    );
    assert.equal(sha256Hex(fromHex(q.seed_input_hex)), q.expected.seed);
    const seed = drawSeedV2(q.seal.hash, fromHex(q.beacon.randomness), sha256);
    assert.equal(toHex(seed), q.expected.seed);
    assert.equal(toHex(sha256(new Uint8Array([...seed, ...uint64be(0)]))), q.stream.block0);
    const g = q.seal.giveaway;
    const picked = pickV2(seed, list.rows.length, g.winners_count, g.reserve_count, sha256);
    assert.deepEqual(
      [...picked.winners, ...picked.reserves],
      q.stream.draws.map((d) => d.index),
    );
    assert.deepEqual(
      picked.winners,
      q.expected.winners.map((w) => w.index),
    );
    assert.deepEqual(
      picked.reserves,
      q.expected.reserves.map((w) => w.index),
    );
    assertMembers([...q.expected.winners, ...q.expected.reserves], list);
  });

  test('certificate: canonical bytes, hash, signature, and the draw it states', () => {
    const cert = q.certificate;
    assert.equal(cert.algorithm, ALGORITHM_V2);
    assert.equal(canonicalJson(bodyOf(cert)), q.certificate_canonical);
    assertSigned(cert, 'certificate');
    assert.deepEqual(cert.seal, q.seal);
    assert.deepEqual(cert.beacon, { network: 'drand', chain_hash: QUICKNET.hash, ...q.beacon });
    assert.equal(cert.seed, q.expected.seed);
    assert.deepEqual(cert.winners, q.expected.winners);
    assert.deepEqual(cert.reserves, q.expected.reserves);
  });

  test('tickets and receipts: each entrant proves its entry and finds out by itself whether it won', () => {
    const seed = drawSeedV2(q.seal.hash, fromHex(q.certificate.beacon.randomness), sha256);
    const g = q.seal.giveaway;
    const { winners, reserves } = pickV2(
      seed,
      q.seal.entrants.count,
      g.winners_count,
      g.reserve_count,
      sha256,
    );
    const drawn = [...winners, ...reserves];
    assert.equal(q.receipts.length, q.entrants.length);
    q.receipts.forEach(({ receipt, outcome }, i) => {
      assertSigned(q.tickets[i], `ticket ${i}`);
      assert.deepEqual(receipt.ticket, q.tickets[i]);
      assert.equal(receipt.ticket.leaf_hash, receipt.leaf_hash);
      const leaf = entrantLeafHash(fromHex(receipt.salt), receipt.telegram_id, sha256);
      assert.equal(toHex(leaf), receipt.leaf_hash);
      assert.equal(receipt.root, q.seal.entrants.root);
      assert.equal(receipt.count, q.seal.entrants.count);
      assert.equal(receipt.seal_id, q.seal.seal_id);
      assert.equal(receipt.seal_hash, q.seal.hash);
      assert.ok(
        verifyInclusion(
          leaf,
          receipt.index,
          receipt.count,
          unhexes(receipt.proof),
          fromHex(receipt.root),
          sha256,
        ),
      );
      const position = drawn.indexOf(receipt.index) + 1;
      const mine =
        position === 0
          ? { won: false }
          : { won: position <= winners.length, position, reserve: position > winners.length };
      assert.deepEqual(mine, outcome, `entrant ${receipt.telegram_id}`);
    });
  });

  test('a seal re-made under the same id fails a receipt by its seal_hash, and only by it', async () => {
    const remade = q.remade_seal.seal;
    assertSigned(remade, 'remade seal');
    assert.equal(remade.seal_id, q.seal.seal_id);
    assert.deepEqual({ ...bodyOf(remade), sealed_at: q.seal.sealed_at }, bodyOf(q.seal));
    assert.notEqual(remade.sealed_at, q.seal.sealed_at);
    const { receipt } = q.receipts[0];
    const check = async (r: typeof receipt | Omit<typeof receipt, 'seal_hash'>, seal: unknown) =>
      verifyReceipt({ receipt: r, seal, keys: q.keys, sha256 });

    const against = await check(receipt, remade);
    assert.deepEqual(
      against.checks.filter((c) => !c.ok).map((c) => [c.label, c.detail]),
      [['Receipt and seal', q.remade_seal.error]],
    );
    const { seal_hash: _, ...old } = receipt;
    const byId = await check(old, remade);
    assert.equal(byId.valid, true, JSON.stringify(byId.checks.filter((c) => !c.ok)));
    assert.match(
      byId.checks.find((c) => c.id === 'receipt-seal')!.detail,
      new RegExp(`^seal ${q.seal.seal_id}, matched by id only `),
    );
    const original = await check(receipt, q.seal);
    assert.equal(original.valid, true);
  });
});

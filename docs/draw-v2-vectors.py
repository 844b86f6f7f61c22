#!/usr/bin/env python3
"""Test vectors of tyche-draw-v2, computed with docs/draw-v2-reference.py (standard library only).

    python3 docs/draw-v2-vectors.py test/fixtures/draw-v2-vectors.json           # regenerate
    python3 docs/draw-v2-vectors.py --check test/fixtures/draw-v2-vectors.json   # re-derive, compare

Every value is computed here except the published data it is checked against or built on:
the RFC 6962 reference tree of transparency-dev/merkle, the RFC 8785 and RFC 8032 examples, and
the real drand quicknet chain info and round 657413 (from the project's vectors of real upstream
data). Before writing anything the script checks itself against those published values.
"""

import hashlib
import importlib.util
import json
import pathlib
import re
import sys


def _load(name):
    path = pathlib.Path(__file__).with_name(name)
    spec = importlib.util.spec_from_file_location(name.replace("-", "_")[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = _load("draw-v2-reference.py")
GENERATED_BY = "python3 docs/draw-v2-vectors.py test/fixtures/draw-v2-vectors.json"

# drand quicknet: chain info and a real round (drand/drand internal/interop/verify_test.go and
# mcdcam/python-drand-verify README; both also verified with @noble/curves, see the fixture test).
QUICKNET = {
    "public_key": "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
    "period": 3,
    "genesis_time": 1692803367,
    "hash": "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    "groupHash": "f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e",
    "schemeID": "bls-unchained-g1-rfc9380",
    "metadata": {"beaconID": "quicknet"},
}
QUICKNET_ROUND_3 = {
    "round": 3,
    "randomness": "7ef4621ace1c6da4eb2eee7cd901f81385bca5b189771ec0f08d0d2566dd1a21",
    "signature": "b3fab6df720b68cc47175f2c777e86d84187caab5770906f515ff1099cb01e4deaa027075d860823e49477b93c72bd64",
}
QUICKNET_ROUND_657413 = {
    "round": 657413,
    "randomness": "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587",
    "signature": "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b",
}
GENESIS, PERIOD = QUICKNET["genesis_time"], QUICKNET["period"]
DELAY_ROUNDS = 10

# RFC 8032 §7.1 TEST 1: a published key, for examples only (the same as the v1 example certificate).
TEST_SECRET = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
PUBLIC_BASE = "https://tyche.example"

# transparency-dev/merkle testonly/constants.go (commit 582a6ad190b6848f1d26f8bf08ddef29955d9db1):
# LeafInputs and RootHashes for tree sizes 0..8.
RFC6962_LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"]
RFC6962_ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]


def self_check():
    """Refuse to write vectors unless the reference reproduces the published values."""
    tree = ref.MerkleTree.from_data([bytes.fromhex(h) for h in RFC6962_LEAVES])
    for size, root in enumerate(RFC6962_ROOTS):
        assert tree.mth(0, size).hex() == root, f"RFC 6962 root of size {size}"
    public = ref.ed25519_public_key(TEST_SECRET)
    assert public.hex() == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    assert ref.ed25519_sign(TEST_SECRET, b"").hex() == (
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
    ), "RFC 8032 TEST 1"
    assert ref.canonical_json(RFC8785_SORTING) == (
        '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",'
        '"\u20ac":"Euro Sign","\U0001f600":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}'
    ), "RFC 8785 §3.2.3"
    assert ref.canonical_json(RFC8785_STRINGS) == '{"literals":[null,true,false],"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    for beacon in (QUICKNET_ROUND_3, QUICKNET_ROUND_657413):
        assert ref.beacon_problem(beacon) is None


def label_bytes(label: str) -> bytes:
    """Arbitrary but reproducible 32-byte values: SHA-256 of a label."""
    return ref.sha256(label.encode("utf-8"))


BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def label_id(label: str, length: int) -> str:
    """An id in the service's alphabet (base62), fixed by a label: illustrative, not issued."""
    x = int.from_bytes(label_bytes(label), "big")
    out = ""
    for _ in range(length):
        x, r = divmod(x, 62)
        out += BASE62[r]
    return out


def salt_of(label: str) -> bytes:
    return label_bytes(label)[:16]


def proof_hex(proof):
    return [p.hex() for p in proof]


# Merkle ------------------------------------------------------------------------------------------


def merkle_leaf(i: int) -> bytes:
    return ref.uint64_be(i)


def merkle_section():
    big = ref.MerkleTree.from_data(merkle_leaf(i) for i in range(65537))
    rfc_tree = ref.MerkleTree.from_data([bytes.fromhex(h) for h in RFC6962_LEAVES])
    trees = []
    for n in range(1, 21):
        tree = ref.MerkleTree(big.leaves[:n])
        proofs = [tree.path(i) for i in range(n)]
        for i, p in enumerate(proofs):
            assert ref.verify_inclusion(tree.leaves[i], i, n, p, tree.mth())
        trees.append({"size": n, "root": tree.mth().hex(), "proofs": [proof_hex(p) for p in proofs]})

    large = []
    for n in (255, 256, 257, 1000, 65537):
        tree = big if n == len(big) else ref.MerkleTree(big.leaves[:n])
        root = tree.mth()
        digest = hashlib.sha256()
        for i in range(n):
            proof = tree.path(i)
            assert ref.verify_inclusion(tree.leaves[i], i, n, proof, root)
            digest.update(b"".join(proof))
        chosen = sorted({i for i in (0, 1, 2, 127, 128, 255, 256, 511, 512, n // 2, n - 2, n - 1) if 0 <= i < n})
        large.append({
            "size": n,
            "root": root.hex(),
            "chunk_roots": [c.hex() for c in tree.chunk_roots()],
            "proofs": [{"index": i, "proof": proof_hex(tree.path(i))} for i in chosen],
            "all_proofs_sha256": digest.hexdigest(),
        })

    return {
        "leaf_data": "leaf i (i = 0, 1, 2, ...) is uint64_be(i): 8 bytes; a tree of size n holds leaves 0..n-1",
        "empty_root": ref.MerkleTree([]).mth().hex(),
        "rfc6962": {
            "source": "transparency-dev/merkle testonly/constants.go (LeafInputs, RootHashes), commit 582a6ad190b6848f1d26f8bf08ddef29955d9db1",
            "leaf_data": RFC6962_LEAVES,
            "roots": [rfc_tree.mth(0, n).hex() for n in range(9)],
            "proofs": [{"index": i, "size": 8, "proof": proof_hex(rfc_tree.path(i))} for i in range(8)],
        },
        "leaf_hashes": [h.hex() for h in big.leaves[:20]],
        "trees": trees,
        "large_trees": large,
        "large_trees_note": "all_proofs_sha256 = SHA-256 of every proof's nodes (raw bytes), index 0 to n-1, concatenated",
        "verify_cases": verify_cases(big),
    }


def verify_cases(big):
    """Altered proofs. `valid` is what RFC 9162 §2.1.3.2 answers, computed, not assumed."""
    cases = []

    def case(name, tree_size, index, proof, root, leaf, size):
        ok = ref.verify_inclusion(leaf, index, size, proof, root)
        cases.append({"name": name, "leaf_hash": leaf.hex(), "index": index, "size": size,
                      "root": root.hex(), "proof": proof_hex(proof), "valid": ok, "tree_size": tree_size})

    t13 = ref.MerkleTree(big.leaves[:13])
    root, leaf, proof = t13.mth(), t13.leaves[6], t13.path(6)
    case("genuine", 13, 6, proof, root, leaf, 13)
    case("index + 1", 13, 7, proof, root, leaf, 13)
    case("index - 1", 13, 5, proof, root, leaf, 13)
    case("index = size", 13, 13, proof, root, leaf, 13)
    case("another leaf", 13, 6, proof, root, t13.leaves[7], 13)
    case("last node dropped", 13, 6, proof[:-1], root, leaf, 13)
    case("a node added", 13, 6, proof + [leaf], root, leaf, 13)
    case("a node flipped", 13, 6, [proof[0]] + [bytes([proof[1][0] ^ 1]) + proof[1][1:]] + proof[2:], root, leaf, 13)
    case("two nodes swapped", 13, 6, [proof[1], proof[0]] + proof[2:], root, leaf, 13)
    case("size - 1", 13, 6, proof, root, leaf, 12)
    case("size + 3", 13, 6, proof, root, leaf, 16)
    case("root of size 12", 13, 6, proof, ref.MerkleTree(big.leaves[:12]).mth(), leaf, 13)
    t5 = ref.MerkleTree(big.leaves[:5])
    # The proof of index 0 has the same shape in trees of 5 and 6 leaves, so the path alone
    # cannot tell the two sizes apart: the size is fixed by the signed seal, never by the proof.
    case("index 0 of 5 presented as index 0 of 6", 5, 0, t5.path(0), t5.mth(), t5.leaves[0], 6)
    case("index 4 of 5 presented as index 4 of 6", 5, 4, t5.path(4), t5.mth(), t5.leaves[4], 6)
    t1 = ref.MerkleTree(big.leaves[:1])
    case("size 1, empty proof", 1, 0, [], t1.mth(), t1.leaves[0], 1)
    case("size 1, one extra node", 1, 0, [t1.leaves[0]], t1.mth(), t1.leaves[0], 1)
    case("size 0", 0, 0, [], ref.MerkleTree([]).mth(), t1.leaves[0], 0)
    return cases


# Canonical JSON ----------------------------------------------------------------------------------

RFC8785_SORTING = {
    "\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One",
    "\U0001f600": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis",
}
RFC8785_STRINGS = {"string": "\u20ac$\u000f\nA'B\"\\\\\"/", "literals": [None, True, False]}


def canonical_section():
    values = [
        ("rfc8785-sorting", "RFC 8785 §3.2.3: names sorted by UTF-16 code units (U+1F600 before U+FB33)", RFC8785_SORTING),
        ("rfc8785-strings", "RFC 8785 §3.2.2.2 without its fractional numbers: escapes and literals", RFC8785_STRINGS),
        ("every-control-character", "U+0000–U+001F escaped (short forms where JSON has them), DEL, U+2028, U+2029 and / literal",
         {"s": "".join(chr(c) for c in range(0x20)) + "\x7f\u2028\u2029/<>&'"}),
        ("integers", "plain decimal up to ±(2^53 − 1)",
         {"zero": 0, "one": 1, "minus": -1, "i31": 2**31, "u32": 2**32, "max": 2**53 - 1, "min": -(2**53 - 1)}),
        ("nesting", "members sorted at every depth; arrays keep their order; empty containers",
         {"z": [{"b": 1, "a": [3, 2, 1]}, [], {}], "a": {"y": None, "x": {"d": True, "c": False}}, "": "empty name"}),
        ("name-prefixes", "a name sorts before every longer name it begins; upper case before lower case",
         {"ab": 1, "a": 2, "aa": 3, "B": 4, "b": 5, "A": 6, "é": 7, "z": 8}),
        ("unicode-title", "non-ASCII text is written as UTF-8, never escaped",
         {"title": "Розыгрыш 🎧 — 3 × 耳机", "username": "Zoë"}),
    ]
    out = []
    for name, description, value in values:
        text = ref.canonical_json(value)
        out.append({"name": name, "description": description, "value": value, "canonical": text,
                    "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()})
    for name, value in (("lone high surrogate in a value", {"s": "a\ud800b"}),
                        ("lone low surrogate in a name", {"\udc00": 1})):
        try:
            ref.canonical_json(value)
        except ValueError:
            out.append({"name": name, "description": "not I-JSON: refused", "value": value, "error": True})
        else:
            raise AssertionError(name)
    return out


# Entrants ----------------------------------------------------------------------------------------

TEN_ENTRANTS = [
    (5000000001, "bob_b"), (123456789, "alice"), (7, None), (9007199254740991, "max_safe"), (1000000000, "dan"),
    (42, "Zoë"), (99, "eve"), (777777777, None), (2147483648, "frank"), (4294967296, "grace"),
]


def entrants_of(ids, label):
    return [(telegram_id, salt_of(f"{label} salt {i}")) for i, telegram_id in enumerate(ids)]


def formula_entrants(count):
    return [((i * 2654435761) % 2**32, salt_of(f"tyche-draw-v2 salt {i}")) for i in range(1, count + 1)]


FORMULA = {
    "telegram_id": "i * 2654435761 mod 2^32, for i = 1..count",
    "salt": "the first 16 bytes of SHA-256(ASCII \"tyche-draw-v2 salt \" followed by i in decimal)",
}


def entrant_case(name, description, entrants):
    rows = ref.canonical_entrants(entrants)
    tree = ref.MerkleTree(r["leaf_hash"] for r in rows)
    by_id = {r["telegram_id"]: r for r in rows}
    return {
        "name": name,
        "description": description,
        "entrants": [{"telegram_id": t, "salt": s.hex()} for t, s in entrants],
        "expected": {
            "leaves": [{"telegram_id": t, "leaf_data": by_id[t]["leaf_data"].hex(), "leaf_hash": by_id[t]["leaf_hash"].hex()}
                       for t, _ in entrants],
            "canonical_order": [r["telegram_id"] for r in rows],
            "count": len(rows),
            "root": tree.mth().hex(),
            "proofs": [proof_hex(tree.path(i)) for i in range(len(rows))],
        },
    }


def entrants_section():
    ten = entrants_of([t for t, _ in TEN_ENTRANTS], "ten-entrants")
    extremes = [(1, bytes(16)), (2**32 - 1, bytes([0xFF]) * 16), (2**32, bytes(range(16))), (2**53 - 1, bytes(range(16, 32)))]
    return [
        entrant_case("ten-entrants", "ids around 2^31, 2^32 and 2^53 - 1; salts from labels", ten),
        entrant_case("id-and-salt-extremes", "ids 1, 2^32 - 1, 2^32, 2^53 - 1; salts all zero, all 0xff, 00..0f, 10..1f", extremes),
    ]


# Rounds ------------------------------------------------------------------------------------------


def rounds_section(example_seal):
    g = GENESIS * 1000
    start = lambda r: ref.round_time_ms(r, GENESIS, PERIOD)  # noqa: E731
    times = [g, g + 1, g + 2999, g + 3000, g + 3001, start(657413) - 1, start(657413), start(657413) + 2999,
             ref.parse_iso("2026-11-22T20:45:31.610Z")]
    round_of = [{"time": ref.iso(t), "time_ms": t, "round": ref.round_of(t, GENESIS, PERIOD)} for t in times]
    round_time = [{"round": r, "time": ref.iso(start(r)), "time_ms": start(r)} for r in (1, 2, 3, 657403, 657413, 30000000)]
    committed = []
    for after, sealed_at, d in ((3, start(657403) + 1234, 10), (657403, start(657403) + 1234, 10),
                                (657405, start(657403) + 1234, 10), (657400, start(657411), 2),
                                (657400, start(657411) - 1, 2), (657411, start(657403), 2)):
        committed.append({"after_round": after, "sealed_at": ref.iso(sealed_at), "sealed_at_ms": sealed_at, "delay_rounds": d,
                          "round": ref.committed_round(after, sealed_at, d, GENESIS, PERIOD)})
    return {
        "chain": {"genesis_time": GENESIS, "period": PERIOD, "hash": QUICKNET["hash"]},
        "round_of": round_of,
        "round_time": round_time,
        "committed_round": committed,
        "seal_checks": seal_checks(example_seal),
    }


def seal_checks(seal):
    """Variants of the example seal's timing; `valid` is seal_round_problem's verdict with the minimum delay 2."""
    start = lambda r: ref.round_time_ms(r, GENESIS, PERIOD)  # noqa: E731
    b = seal["beacon"]
    variants = [
        ("as sealed", {}, {}),
        ("round = after_round + 2", {"after_round": 657411}, {"sealed_at": ref.iso(start(657411))}),
        ("round = after_round + 1", {"after_round": 657412}, {}),
        ("sealed_at at the start of round - 2", {}, {"sealed_at": ref.iso(start(657411))}),
        ("sealed_at 1 ms before round - 1", {}, {"sealed_at": ref.iso(start(657412) - 1)}),
        ("sealed_at at the start of round - 1", {}, {"sealed_at": ref.iso(start(657412))}),
        ("sealed_at after the round", {}, {"sealed_at": ref.iso(start(657414))}),
        ("round_at 1 ms late", {"round_at": ref.iso(start(657413) + 1)}, {}),
        ("round_at of the next round", {"round_at": ref.iso(start(657414))}, {}),
        ("round_at without milliseconds", {"round_at": ref.iso(start(657413)).replace(".000Z", "Z")}, {}),
        ("another chain", {"chain_hash": "00" * 32}, {}),
    ]
    out = []
    for name, beacon_changes, top_changes in variants:
        variant = {**seal, **top_changes, "beacon": {**b, **beacon_changes}}
        problem = ref.seal_round_problem(variant, QUICKNET)
        out.append({"name": name, "sealed_at": variant["sealed_at"], "beacon": variant["beacon"], "valid": problem is None,
                    "reason": problem})
    return out


# Draws -------------------------------------------------------------------------------------------


# A seal made before terms were committed has no `terms_sha256` member at all (CONTRACT §14).
ABSENT = object()


def seal_body(label, title, winners, reserves, rows, tree, sealed_at_ms, after_round, after_randomness, created_at_ms,
              terms=ABSENT):
    round_number = ref.committed_round(after_round, sealed_at_ms, DELAY_ROUNDS, GENESIS, PERIOD)
    body = {
        "type": ref.SEAL_TYPE,
        "seal_id": "s_" + label_id(f"{label} seal", 16),
        "giveaway": {
            "public_id": label_id(f"{label} giveaway", 12),
            "title": title,
            "winners_count": winners,
            "reserve_count": reserves,
            "owner": "o_" + label_id(f"{label} owner", 16),
            "created_at": ref.iso(created_at_ms),
        },
        "entrants": {"count": len(rows), "root": tree.mth().hex()},
        "sealed_at": ref.iso(sealed_at_ms),
        "beacon": {
            "network": "drand",
            "chain_hash": QUICKNET["hash"],
            "after_round": after_round,
            "after_randomness": after_randomness,
            "round": round_number,
            "round_at": ref.iso(ref.round_time_ms(round_number, GENESIS, PERIOD)),
        },
    }
    if terms is not ABSENT:
        body["giveaway"]["terms_sha256"] = None if terms is None else ref.terms_sha256(terms)
    return body


def entry(position, index, rows, tree, usernames=None):
    r = rows[index]
    out = {"position": position, "index": index, "telegram_id": r["telegram_id"]}
    if usernames is not None:
        out["username"] = usernames.get(r["telegram_id"])
    out.update({"salt": r["salt"].hex(), "leaf_hash": r["leaf_hash"].hex(), "proof": proof_hex(tree.path(index))})
    return out


def run_draw(seal, rows, tree, randomness: bytes, usernames=None):
    seal_hash = ref.object_hash(seal)
    seed = ref.draw_seed(seal_hash, randomness)
    g = seal["giveaway"]
    n = seal["entrants"]["count"]
    winners, reserves = ref.pick(seed, n, g["winners_count"], g["reserve_count"])
    return seal_hash, seed, {
        "n": n,
        "k": len(winners) + len(reserves),
        "seed": seed.hex(),
        "winners": [entry(p + 1, i, rows, tree, usernames) for p, i in enumerate(winners)],
        "reserves": [entry(len(winners) + p + 1, i, rows, tree, usernames) for p, i in enumerate(reserves)],
    }


def draw_case(name, description, entrants, winners, reserves, sealed_at_ms, listed=True, terms=ABSENT):
    rows = ref.canonical_entrants(entrants)
    tree = ref.MerkleTree(r["leaf_hash"] for r in rows)
    after_round = ref.round_of(sealed_at_ms, GENESIS, PERIOD)
    seal = seal_body(name, f"Test draw: {name}", winners, reserves, rows, tree, sealed_at_ms, after_round,
                     label_bytes(f"{name} after_randomness").hex(), sealed_at_ms - 86_400_000, terms)
    randomness = label_bytes(f"tyche-draw-v2 test beacon {name}")
    seal_hash, _, expected = run_draw(seal, rows, tree, randomness)
    canonical = ref.canonical_json(seal)
    v = {"name": name, "description": description}
    if terms is not ABSENT:
        v["terms"] = terms
    if listed:
        v["entrants"] = [{"telegram_id": t, "salt": s.hex()} for t, s in entrants]
    else:
        v["entrants_formula"] = {"count": len(entrants), **FORMULA}
    v.update({"seal": seal, "seal_canonical": canonical, "seal_canonical_hex": canonical.encode("utf-8").hex(),
              "seal_hash": seal_hash, "beacon_randomness": randomness.hex(), "expected": expected})
    return v


def draws_section():
    t0 = ref.parse_iso("2026-03-01T09:00:00.250Z")
    ten = entrants_of([t for t, _ in TEN_ENTRANTS], "ten-entrants")
    return [
        draw_case("ten-entrants", "n = 10, 3 winners then 2 reserves from the same stream", ten, 3, 2, t0),
        draw_case("no-reserves", "reserve_count 0: k = winners_count", ten, 2, 0, t0 + 60_000),
        draw_case("reserves-cut-short", "n = 4, 3 winners, 5 reserves: k = 4, so 3 winners and 1 reserve",
                  entrants_of([11, 22, 33, 44], "four"), 3, 5, t0 + 120_000),
        draw_case("more-winners-than-entrants", "n = 3, 5 winners, 2 reserves: all 3 win, no reserve",
                  entrants_of([301, 302, 303], "three"), 5, 2, t0 + 180_000),
        draw_case("single-entrant", "n = 1: the only entrant wins; the stream is still read once",
                  entrants_of([424242], "one"), 1, 3, t0 + 240_000),
        draw_case("winners-and-reserves-fill-n", "n = 8, 5 winners + 3 reserves = n: a full permutation",
                  entrants_of([8 * i + 1 for i in range(8)], "eight"), 5, 3, t0 + 300_000),
        draw_case("hundred-thousand", "n = 100 000 entrants from the formula, 10 winners and 5 reserves",
                  formula_entrants(100_000), 10, 5, t0 + 360_000, listed=False),
        draw_case("terms-committed", "a seal committing to terms: giveaway.terms_sha256 is in the hashed body, so in the seed",
                  ten, 3, 2, t0 + 420_000, terms=EXAMPLE_TERMS),
        draw_case("terms-none", "a seal of a giveaway without terms: terms_sha256 is null, and null is hashed too",
                  ten, 3, 2, t0 + 480_000, terms=None),
    ]


# Terms in the seal (CONTRACT §14) ----------------------------------------------------------------

EXAMPLE_TERMS = "One entry per person, 18 or older.\nWinners claim within 3 days — else the next reserve wins. 🎁"


def terms_section(example_seal):
    """terms_sha256 of texts, and the verdict of terms_problem for each way a seal can commit."""
    texts = [
        ("ascii", "Be kind."),
        ("non-ascii and a line break", EXAMPLE_TERMS),
        ("a final line break is part of the text", "Be kind.\n"),
        ("tab and blank lines", "Rules:\n\n\t1. One entry.\n"),
    ]
    hashes = [{"name": n, "terms": t, "utf8_hex": t.encode("utf-8").hex(), "sha256": ref.terms_sha256(t)}
              for n, t in texts]
    body = ref.body_of(example_seal)
    giveaway = body["giveaway"]
    variants = [
        ("seal made before terms (no member)", {k: v for k, v in giveaway.items() if k != "terms_sha256"}),
        ("no terms (null)", {**giveaway, "terms_sha256": None}),
        ("committed", {**giveaway, "terms_sha256": ref.terms_sha256(EXAMPLE_TERMS)}),
        ("malformed (upper-case hex)", {**giveaway, "terms_sha256": ref.terms_sha256(EXAMPLE_TERMS).upper()}),
    ]
    files = [("the terms", EXAMPLE_TERMS.encode("utf-8")),
             ("with a final line break", (EXAMPLE_TERMS + "\n").encode("utf-8")),
             ("other terms", b"Be kind.")]
    checks = []
    for name, g in variants:
        seal = {**body, "giveaway": g}
        for file_name, data in files:
            problem = ref.terms_problem(seal, data)
            checks.append({"seal": name, "giveaway": g, "file": file_name, "file_hex": data.hex(),
                           "valid": problem is None, "verdict": "match" if problem is None else problem.split(":")[0]})
    return {"terms_sha256": hashes, "checks": checks}


# The real quicknet round --------------------------------------------------------------------------

EXAMPLE_ENTRANTS = [
    (5000000001, "bob_b"), (123456789, "alice"), (7, None), (1000000000, "dan"), (42, "Zoë"), (99, "eve"),
    (777777777, None), (2147483648, "frank"), (4294967296, "grace"), (6543210987, "heidi"), (31337, "ivan"),
    (8000000000, "judy"),
]


def quicknet_example():
    start = lambda r: ref.round_time_ms(r, GENESIS, PERIOD)  # noqa: E731
    public = ref.ed25519_public_key(TEST_SECRET)
    jwk = {"kty": "OKP", "crv": "Ed25519", "x": ref.b64url(public), "kid": ref.key_id(public), "alg": "EdDSA", "use": "sig"}
    label = "quicknet-657413"
    public_id = label_id(f"{label} giveaway", 12)
    created_at = ref.parse_iso("2023-09-15T10:00:00.000Z")
    entrants = [(t, salt_of(f"{label} salt {t}")) for t, _ in EXAMPLE_ENTRANTS]
    usernames = dict(EXAMPLE_ENTRANTS)
    joined = {t: created_at + 60_000 * (i + 1) + 137 * i for i, (t, _) in enumerate(entrants)}
    rows = ref.canonical_entrants(entrants)
    tree = ref.MerkleTree(r["leaf_hash"] for r in rows)
    # Sealed during round 657403 so that, with D = 10, the committed round is 657413. The service's
    # after_round is its newest verified round; only rounds 1-3 and 657413 of the real chain are in
    # the project's vectors, so the example names round 3 with its real randomness (a live seal
    # names a round close to round_of(sealed_at)). Every value in the seal is true of quicknet.
    sealed_at = start(657403) + 1234
    body = seal_body(label, "Launch giveaway — 3 × headphones 🎧", 3, 2, rows, tree, sealed_at,
                     QUICKNET_ROUND_3["round"], QUICKNET_ROUND_3["randomness"], created_at)
    assert body["beacon"]["round"] == QUICKNET_ROUND_657413["round"]
    seal = ref.sign_object(body, TEST_SECRET)
    assert ref.seal_round_problem(seal, QUICKNET) is None
    randomness = bytes.fromhex(QUICKNET_ROUND_657413["randomness"])
    seal_hash, seed, expected = run_draw(seal, rows, tree, randomness, usernames)
    assert seal_hash == seal["hash"]

    certificate = ref.sign_object({
        "certificate_id": "c_" + label_id(f"{label} certificate", 16),
        "algorithm": ref.ALGORITHM,
        "seal": seal,
        "beacon": {"network": "drand", "chain_hash": QUICKNET["hash"], **QUICKNET_ROUND_657413},
        "seed": seed.hex(),
        "winners": expected["winners"],
        "reserves": expected["reserves"],
        "drawn_at": ref.iso(start(657413) + 2345),
    }, TEST_SECRET)

    tickets, receipts = [], []
    for t, salt in entrants:
        row = next(r for r in rows if r["telegram_id"] == t)
        index = rows.index(row)
        ticket = ref.sign_object({"type": ref.TICKET_TYPE, "giveaway": public_id, "leaf_hash": row["leaf_hash"].hex(),
                                  "joined_at": ref.iso(joined[t])}, TEST_SECRET)
        tickets.append(ticket)
        receipt = {
            "giveaway": public_id, "telegram_id": t, "salt": salt.hex(), "leaf_hash": row["leaf_hash"].hex(),
            "receipt_url": f"{PUBLIC_BASE}/g/{public_id}/receipt#{t}.{salt.hex()}", "ticket": ticket,
            "index": index, "count": len(rows), "root": tree.mth().hex(), "proof": proof_hex(tree.path(index)),
            "seal_id": seal["seal_id"], "seal_hash": seal["hash"],
        }
        receipts.append({"receipt": receipt, "outcome": ref.receipt_outcome(receipt, seal, certificate)})

    # The same seal re-made: same seal_id, list and round, another sealed_at, signed again with the
    # same key. Every check of the seal itself passes; only a receipt's seal_hash tells it apart.
    remade = ref.sign_object({**ref.body_of(seal), "sealed_at": ref.iso(sealed_at - 14_000)}, TEST_SECRET)
    assert ref.seal_round_problem(remade, QUICKNET) is None and remade["hash"] != seal["hash"]
    remade_error = None
    try:
        ref.receipt_outcome(receipts[0]["receipt"], remade, certificate)
    except ValueError as error:
        remade_error = str(error)
    assert remade_error is not None and remade_error.startswith("the seal is not the one")
    old_receipt = {k: v for k, v in receipts[0]["receipt"].items() if k != "seal_hash"}
    assert ref.receipt_outcome(old_receipt, remade, certificate) == receipts[0]["outcome"]

    seal_text = ref.canonical_json(ref.body_of(seal))
    return {
        "description": "A draw on the real quicknet round 657413 (BLS signature verifiable under the chain key). "
                       "The giveaway, entrants, salts and ids are illustrative; signed with the RFC 8032 §7.1 TEST 1 key.",
        "chain": QUICKNET,
        "beacon": QUICKNET_ROUND_657413,
        "after_beacon": QUICKNET_ROUND_3,
        "delay_rounds": DELAY_ROUNDS,
        "keys": {"keys": [jwk]},
        "signing_secret": TEST_SECRET.hex(),
        "entrants": [{"telegram_id": t, "username": usernames[t], "salt": s.hex(), "joined_at": ref.iso(joined[t])}
                     for t, s in entrants],
        "seal": seal,
        "seal_canonical": seal_text,
        "seal_canonical_hex": seal_text.encode("utf-8").hex(),
        "seed_input_hex": (ref.ALGORITHM.encode("ascii") + b"\x00" + bytes.fromhex(seal["hash"]) + randomness).hex(),
        "expected": {**expected, "canonical_order": [r["telegram_id"] for r in rows]},
        "stream": stream_trace(seed, expected["n"], expected["k"]),
        "certificate": certificate,
        "certificate_canonical": ref.canonical_json(ref.body_of(certificate)),
        "tickets": tickets,
        "receipts": receipts,
        "remade_seal": {
            "description": "The seal re-made with another sealed_at (same seal_id, list and round, signed again). "
                           "receipts[0].receipt checked against it fails with `error`; without its seal_hash "
                           "(a receipt saved before the field existed) it passes, matched by seal_id only.",
            "seal": remade,
            "error": remade_error,
        },
    }


def stream_trace(seed, n, k):
    """Each draw's word, m, j and a[i], for the worked example."""
    stream = ref.v1.Stream(seed)
    a = list(range(n))
    steps = []
    for i in range(k):
        j = i + stream.uniform(n - i, i)
        a[i], a[j] = a[j], a[i]
        steps.append({"i": i, "m": n - i, "word": f"{stream.last_word:016x}", "j": j, "index": a[i]})
    assert not stream.rejections
    return {"block0": ref.sha256(seed + ref.uint64_be(0)).hex(), "draws": steps}


# Output ------------------------------------------------------------------------------------------

_SURROGATE = re.compile("[\ud800-\udfff]")


def dumps(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def to_json(value, indent=0) -> str:
    """Pretty JSON that keeps flat lists and flat objects (a proof, an entrant) on one line."""
    def flat(v):
        return not isinstance(v, (list, dict))

    if flat(value) or all(flat(v) for v in (value if isinstance(value, list) else value.values())):
        return dumps(value)
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, list):
        return "[\n" + ",\n".join(inner + to_json(v, indent + 2) for v in value) + "\n" + pad + "]"
    items = (f"{inner}{dumps(k)}: {to_json(v, indent + 2)}" for k, v in value.items())
    return "{\n" + ",\n".join(items) + "\n" + pad + "}"


def build():
    self_check()
    example = quicknet_example()
    return {
        "algorithm": ref.ALGORITHM,
        "generated_by": GENERATED_BY,
        "notes": [
            "Hex is lower-case. Times are RFC 3339 UTC with milliseconds.",
            "Seals of the `draws` cases name quicknet's chain and keep its round rules, but their beacon_randomness "
            "and after_randomness are SHA-256 of labels, not drand output; only quicknet_example uses a real round.",
            "Ids (public_id, seal_id, owner, certificate_id) are illustrative values in the service's alphabet.",
            "Seals without giveaway.terms_sha256 are seals made before terms were committed (CONTRACT §14): they stay "
            "valid. The terms-committed and terms-none draws carry the member (a hash, or null); `terms` checks each form.",
        ],
        "merkle": merkle_section(),
        "canonical_json": canonical_section(),
        "entrants": entrants_section(),
        "rounds": rounds_section(example["seal"]),
        "draws": draws_section(),
        "terms": terms_section(example["seal"]),
        "quicknet_example": example,
    }


def main(argv):
    check = argv[:1] == ["--check"]
    args = argv[1:] if check else argv
    path = args[0] if args else "test/fixtures/draw-v2-vectors.json"
    text = to_json(build()) + "\n"
    if check:
        with open(path, encoding="utf-8") as f:
            ok = f.read() == text
        print("vectors match" if ok else "vectors DIFFER")
        return 0 if ok else 1
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

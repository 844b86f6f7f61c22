#!/usr/bin/env python3
"""Reference implementation of tyche-draw-v1 (docs/draw-algorithm.md), standard library only.

Written independently of the TypeScript module to produce the published test vectors:

    python3 docs/draw-v1-reference.py test/fixtures/draw-v1-vectors.json   # regenerate
    python3 docs/draw-v1-reference.py --check test/fixtures/draw-v1-vectors.json

It is also a small verifier: draw(ids, winners_count, r) returns what a certificate must show.
"""

import hashlib
import json
import sys

ALGORITHM = "tyche-draw-v1"


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def participants_hash(ids) -> str:
    ordered = sorted(ids)
    if len(set(ordered)) != len(ordered) or any(i <= 0 for i in ordered):
        raise ValueError("telegram ids must be distinct positive integers")
    text = "".join(f"{i}\n" for i in ordered)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def beacon_r(beacon_value: bytes, system_entropy: bytes) -> bytes:
    assert len(system_entropy) == 32
    return sha256(beacon_value + system_entropy)


def draw_seed(participants_hash_hex: str, r: bytes) -> bytes:
    assert len(r) == 32
    return sha256(ALGORITHM.encode("ascii") + b"\x00" + bytes.fromhex(participants_hash_hex) + r)


class Stream:
    """SHA-256(seed || uint64_be(0)) || SHA-256(seed || uint64_be(1)) || ..."""

    def __init__(self, seed: bytes):
        self.seed = seed
        self.block = 0
        self.buf = b""
        self.rejections = []
        self.last_word = 0

    def next_u64(self) -> int:
        if not self.buf:
            self.buf = sha256(self.seed + self.block.to_bytes(8, "big"))
            self.block += 1
        word, self.buf = self.buf[:8], self.buf[8:]
        return int.from_bytes(word, "big")

    def uniform(self, m: int, draw: int) -> int:
        limit = 2**64 - (2**64 % m)
        while True:
            x = self.last_word = self.next_u64()
            if x < limit:
                return x % m
            self.rejections.append({"draw": draw, "word": f"{x:016x}"})


def pick_winners(seed: bytes, n: int, k: int, trace=None):
    """Canonical indices a[0..k-1]. A dict stands in for the array when n is too large to list."""
    stream = Stream(seed)
    a = list(range(n)) if n <= 2_000_000 else None
    swaps = {}
    out = []
    for i in range(k):
        j = i + stream.uniform(n - i, i)
        if a is not None:
            a[i], a[j] = a[j], a[i]
            out.append(a[i])
        else:
            ai, aj = swaps.get(i, i), swaps.get(j, j)
            swaps[i], swaps[j] = aj, ai
            out.append(aj)
        if trace is not None:
            trace.append({"i": i, "m": n - i, "word": f"{stream.last_word:016x}", "j": j, "winner_index": out[-1]})
    return out, stream.rejections


def draw(ids, winners_count: int, r: bytes, trace=None):
    ordered = sorted(ids)
    n = len(ordered)
    k = min(winners_count, n)
    ph = participants_hash(ordered)
    seed = draw_seed(ph, r)
    indices, _ = pick_winners(seed, n, k, trace)
    return {
        "participants_count": n,
        "participants_hash": ph,
        "seed": seed.hex(),
        "winners": [{"position": p + 1, "index": x, "telegram_id": ordered[x]} for p, x in enumerate(indices)],
    }


def label_bytes(label: str) -> bytes:
    """Arbitrary but reproducible 32-byte values for the vectors."""
    return sha256(label.encode("ascii"))


def multiplicative_ids(count: int):
    # 2654435761 is odd, so i -> i * 2654435761 mod 2^32 is a bijection: the ids are distinct and unsorted.
    return [(i * 2654435761) % 2**32 for i in range(1, count + 1)]


def build_vectors():
    vectors = []

    def add(name, description, ids, winners_count, randomness, listed=True, formula=None, trace=False):
        steps = [] if trace else None
        expected = draw(ids, winners_count, bytes.fromhex(randomness["bytes"]), steps)
        v = {"name": name, "description": description}
        if listed:
            v["participants"] = ids
        else:
            v["participants_formula"] = formula
        v["winners_count"] = winners_count
        v["randomness"] = randomness
        v["expected"] = expected
        if trace:
            v["trace"] = steps
        vectors.append(v)

    add("single-participant", "n = 1, k = 1: the only participant wins; the stream is still read once.",
        [42], 1, {"source": "system", "bytes": bytes(range(32)).hex()})
    add("more-winners-than-participants", "winners_count 10 > n = 5, so k = 5: a full permutation; input unsorted.",
        [5, 3, 9, 1, 7], 10, {"source": "anu", "bytes": label_bytes("tyche-draw-v1 vector 2").hex()})
    add("ten-participants", "n = 10, k = 3, ids around 2^31, 2^32 and 2^53 - 1 (decimal, not textual, order).",
        [5000000001, 123456789, 7, 9007199254740991, 1000000000, 42, 99, 777777777, 2147483648, 4294967296],
        3, {"source": "system", "bytes": label_bytes("tyche-draw-v1 vector 3").hex()}, trace=True)

    beacon_value = sha256(b"nist pulse value, first half") + sha256(b"nist pulse value, second half")
    entropy = label_bytes("tyche-draw-v1 vector 4 system entropy")
    add("nist-beacon", "A public beacon: R = SHA-256(64-byte NIST outputValue || 32 bytes of system entropy).",
        [1000 + 37 * i for i in range(25)], 5,
        {"source": "nist", "beacon_value": beacon_value.hex(), "system_entropy": entropy.hex(),
         "bytes": beacon_r(beacon_value, entropy).hex()})
    add("thousand-participants", "n = 1000 ids (i * 2654435761 mod 2^32, i = 1..1000, in that order), k = 25.",
        multiplicative_ids(1000), 25, {"source": "anu", "bytes": label_bytes("tyche-draw-v1 vector 5").hex()})
    formula = {"count": 1_000_000, "telegram_id": "i * 2654435761 mod 2^32 for i = 1..count"}
    add("million-participants", "n = 1 000 000 ids from the formula, k = 1000 (the largest winners_count).",
        multiplicative_ids(1_000_000), 1000,
        {"source": "drand", "beacon_value": label_bytes("drand round").hex(),
         "system_entropy": label_bytes("tyche-draw-v1 vector 6 system entropy").hex(),
         "bytes": beacon_r(label_bytes("drand round"), label_bytes("tyche-draw-v1 vector 6 system entropy")).hex()},
        listed=False, formula=formula)
    return vectors


def build_rejection_vector():
    # 2^64 mod n is close to n for n = ceil(2^64 / 2049), so about one word in 2049 is rejected:
    # search labelled seeds until a rejection falls within the first k draws.
    n = -(-(2**64) // 2049)
    k = 16
    for attempt in range(100_000):
        seed = label_bytes(f"tyche-draw-v1 rejection {attempt}")
        indices, rejections = pick_winners(seed, n, k)
        if rejections:
            return {"name": "rejection", "description": "A seed whose stream has a rejected word in the first k draws.",
                    "seed": seed.hex(), "n": n, "k": k, "limit_for_first_draw": f"{2**64 - 2**64 % n:016x}",
                    "rejections": rejections, "expected_indices": indices}
    raise RuntimeError("no rejection found")


def to_json(value, indent=0) -> str:
    """Pretty JSON that keeps flat lists and flat objects (a winner, a list of ids) on one line."""
    def flat(v):
        return not isinstance(v, (list, dict))

    if flat(value) or all(flat(v) for v in (value if isinstance(value, list) else value.values())):
        return json.dumps(value, ensure_ascii=False)
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, list):
        return "[\n" + ",\n".join(inner + to_json(v, indent + 2) for v in value) + "\n" + pad + "]"
    items = (f"{inner}{json.dumps(k)}: {to_json(v, indent + 2)}" for k, v in value.items())
    return "{\n" + ",\n".join(items) + "\n" + pad + "}"


def main(argv):
    check = argv[:1] == ["--check"]
    args = argv[1:] if check else argv
    path = args[0] if args else "test/fixtures/draw-v1-vectors.json"
    doc = {"algorithm": ALGORITHM, "generated_by": "docs/draw-v1-reference.py",
           "vectors": build_vectors(), "pick_vectors": [build_rejection_vector()]}
    if check:
        with open(path, encoding="utf-8") as f:
            ok = json.load(f) == doc
        print("vectors match" if ok else "vectors DIFFER")
        return 0 if ok else 1
    with open(path, "w", encoding="utf-8") as f:
        f.write(to_json(doc) + "\n")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Reference implementation of tyche-draw-v2 (docs/draw-algorithm.md), standard library only.

Written from CONTRACT.md §7, RFC 9162 §2.1, RFC 8785 and RFC 8032, independently of the
TypeScript modules. docs/draw-v2-vectors.py runs it to produce the published test vectors:

    python3 docs/draw-v2-vectors.py test/fixtures/draw-v2-vectors.json           # regenerate
    python3 docs/draw-v2-vectors.py --check test/fixtures/draw-v2-vectors.json   # re-derive, compare

The byte stream, uniform(m) and the partial Fisher–Yates shuffle are those of tyche-draw-v1
(CONTRACT.md §5 steps 5–7): they are imported from docs/draw-v1-reference.py rather than copied,
so the two algorithms share one definition, as they do in the TypeScript. This file holds the
algorithm only; it is also a small verifier (verify_inclusion, seal_round_problem, receipt_outcome,
terms_problem).
"""

import base64
import hashlib
import importlib.util
import pathlib
import re
from datetime import datetime, timezone

ALGORITHM = "tyche-draw-v2"
ENTRANT_DOMAIN = b"tyche-entrant-v2"
SEAL_TYPE = "tyche-seal-v2"
TICKET_TYPE = "tyche-ticket-v2"
SALT_BYTES = 16
CHUNK_LEAVES = 256


def _load_v1():
    path = pathlib.Path(__file__).with_name("draw-v1-reference.py")
    spec = importlib.util.spec_from_file_location("draw_v1_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


v1 = _load_v1()


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def uint64_be(x: int) -> bytes:
    if not 0 <= x < 2**64:
        raise ValueError(f"{x} does not fit in 64 unsigned bits")
    return x.to_bytes(8, "big")


# §7.1 Entrants ------------------------------------------------------------------------------


def leaf_data(salt: bytes, telegram_id: int) -> bytes:
    """ASCII "tyche-entrant-v2" || 0x00 || salt (16) || uint64_be(telegram_id): 41 bytes."""
    if len(salt) != SALT_BYTES:
        raise ValueError("a salt is 16 bytes")
    if not 1 <= telegram_id < 2**64:
        raise ValueError("telegram_id must be a positive 64-bit integer")
    return ENTRANT_DOMAIN + b"\x00" + salt + uint64_be(telegram_id)


def leaf_hash(data: bytes) -> bytes:
    """RFC 9162 §2.1.1: the hash of a leaf is SHA-256(0x00 || d)."""
    return sha256(b"\x00" + data)


def node_hash(left: bytes, right: bytes) -> bytes:
    """RFC 9162 §2.1.1: an interior node is SHA-256(0x01 || left || right)."""
    return sha256(b"\x01" + left + right)


def canonical_entrants(entrants):
    """entrants: [(telegram_id, salt)]. Returns them in canonical order (ascending leaf_hash) as dicts."""
    rows = []
    for telegram_id, salt in entrants:
        data = leaf_data(salt, telegram_id)
        rows.append({"telegram_id": telegram_id, "salt": salt, "leaf_data": data, "leaf_hash": leaf_hash(data)})
    rows.sort(key=lambda r: r["leaf_hash"])
    if len({r["telegram_id"] for r in rows}) != len(rows):
        raise ValueError("an entrant appears twice")
    return rows


# §7.2 RFC 9162 Merkle Tree Hash and inclusion proofs, from the recursive definitions ------------


def split_point(n: int) -> int:
    """The largest power of two smaller than n (n > 1): RFC 9162's k with k < n <= 2k."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


class MerkleTree:
    """MTH(D[n]) and PATH(m, D[n]) exactly as RFC 9162 §2.1.1 and §2.1.3.1 define them.

    The leaves are given already hashed (SHA-256(0x00 || d)), which is how MTH of a one-element list
    is defined. Subtree hashes are cached by range only to keep thousands of proofs affordable: the
    cache changes no result, each value is still the recursive definition.
    """

    def __init__(self, leaf_hashes):
        self.leaves = list(leaf_hashes)
        self._cache = {}

    @classmethod
    def from_data(cls, data_list):
        return cls(leaf_hash(d) for d in data_list)

    def __len__(self):
        return len(self.leaves)

    def mth(self, lo: int = 0, hi: int = None) -> bytes:
        """MTH(D[lo:hi])."""
        hi = len(self.leaves) if hi is None else hi
        n = hi - lo
        if n == 0:
            return sha256(b"")
        if n == 1:
            return self.leaves[lo]
        key = (lo, hi)
        if key not in self._cache:
            k = split_point(n)
            self._cache[key] = node_hash(self.mth(lo, lo + k), self.mth(lo + k, hi))
        return self._cache[key]

    def path(self, m: int, lo: int = 0, hi: int = None):
        """PATH(m, D[lo:hi]), leaf to root; m counts from lo."""
        hi = len(self.leaves) if hi is None else hi
        n = hi - lo
        if not 0 <= m < n:
            raise ValueError("index outside the tree")
        if n == 1:
            return []
        k = split_point(n)
        if m < k:
            return self.path(m, lo, lo + k) + [self.mth(lo + k, hi)]
        return self.path(m - k, lo + k, hi) + [self.mth(lo, lo + k)]

    def chunk_roots(self, chunk: int = CHUNK_LEAVES):
        """MTH of each aligned run of `chunk` leaves; the last may be shorter."""
        n = len(self.leaves)
        return [self.mth(lo, min(lo + chunk, n)) for lo in range(0, n, chunk)]


def verify_inclusion(leaf: bytes, index: int, size: int, proof, root: bytes) -> bool:
    """RFC 9162 §2.1.3.2, step by step."""
    if index >= size:
        return False
    fn, sn = index, size - 1
    r = leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while not (fn & 1 or fn == 0):
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


# RFC 8785 canonical JSON for what Tyche signs: objects, arrays, strings, integers, booleans, null --


_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
MAX_SAFE_INTEGER = 2**53 - 1


def _string(s: str) -> str:
    out = ['"']
    for ch in s:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            raise ValueError("a lone surrogate is not I-JSON")
        if ch in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[ch])
        elif code < 0x20:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def canonical_json(value) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        # Integers up to 2^53 - 1 print in ECMAScript's Number form as plain decimal.
        if abs(value) > MAX_SAFE_INTEGER:
            raise ValueError(f"{value} is not an I-JSON integer")
        return str(value)
    if isinstance(value, float):
        raise ValueError("Tyche signs no fractional numbers")
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ",".join(canonical_json(v) for v in value) + "]"
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise ValueError("object keys are strings")
        # RFC 8785 §3.2.3: member names ordered by their UTF-16 code units; comparing the UTF-16BE
        # bytes does exactly that (a surrogate pair sorts by its high surrogate, below U+E000).
        keys = sorted(value, key=lambda k: k.encode("utf-16-be", "surrogatepass"))
        return "{" + ",".join(_string(k) + ":" + canonical_json(value[k]) for k in keys) + "}"
    raise ValueError(f"{type(value).__name__} is not JSON")


def canonical_bytes(value) -> bytes:
    return canonical_json(value).encode("utf-8")


def body_of(signed: dict) -> dict:
    """The members that are hashed and signed: everything except `hash` and `signature`."""
    return {k: v for k, v in signed.items() if k not in ("hash", "signature")}


def object_hash(signed_or_body: dict) -> str:
    return hashlib.sha256(canonical_bytes(body_of(signed_or_body))).hexdigest()


# §14 Terms in the seal -------------------------------------------------------------------------

_HEX32 = re.compile(r"^[0-9a-f]{64}$")


def terms_sha256(terms: str) -> str:
    """SHA-256 hex of the terms' UTF-8 bytes: the seal's giveaway.terms_sha256."""
    return hashlib.sha256(terms.encode("utf-8")).hexdigest()


def terms_commitment(seal: dict):
    """What a seal says of terms: ("absent",) for a seal made before terms were committed (no
    member at all), ("none",) for null, ("sha256", hex), or ("malformed", value). Absent is not null."""
    giveaway = seal.get("giveaway", {})
    if "terms_sha256" not in giveaway:
        return ("absent",)
    value = giveaway["terms_sha256"]
    if value is None:
        return ("none",)
    if isinstance(value, str) and _HEX32.match(value):
        return ("sha256", value)
    return ("malformed", value)


def terms_problem(seal: dict, data: bytes):
    """None when `data` (a file of terms, its bytes exactly) is what the seal committed to, else why not."""
    commitment = terms_commitment(seal)
    digest = hashlib.sha256(data).hexdigest()
    if commitment[0] == "absent":
        return "absent: the seal was made before seals committed to terms"
    if commitment[0] == "none":
        return "none: the seal commits to no terms"
    if commitment[0] == "malformed":
        return "malformed: terms_sha256 is neither null nor 64 lower-case hex"
    return None if digest == commitment[1] else f"mismatch: {digest} is not {commitment[1]}"


# §7.3 Rounds -----------------------------------------------------------------------------------

_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})Z$")


def iso(ms: int) -> str:
    seconds, millis = divmod(ms, 1000)
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + f".{millis:03d}Z"


def parse_iso(text: str) -> int:
    """Exactly the form Tyche writes: YYYY-MM-DDTHH:MM:SS.mmmZ."""
    m = _ISO.match(text)
    if not m:
        raise ValueError(f"{text!r} is not an RFC 3339 UTC time with milliseconds")
    y, mo, d, h, mi, s, ms = (int(x) for x in m.groups())
    moment = datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc)
    return int(moment.timestamp()) * 1000 + ms


def round_of(time_ms: int, genesis_time: int, period: int) -> int:
    """floor((t - genesis_time) / period) + 1, in exact integer milliseconds."""
    return (time_ms - genesis_time * 1000) // (period * 1000) + 1


def round_time_ms(round_number: int, genesis_time: int, period: int) -> int:
    return (genesis_time + (round_number - 1) * period) * 1000


def committed_round(after_round: int, sealed_at_ms: int, delay_rounds: int, genesis_time: int, period: int) -> int:
    return max(after_round + delay_rounds, round_of(sealed_at_ms, genesis_time, period) + delay_rounds)


def seal_round_problem(seal: dict, chain: dict, min_delay: int = 2):
    """None when the seal keeps the §7.3 round rules, else the first rule it breaks."""
    beacon = seal["beacon"]
    if beacon.get("network") != "drand":
        return "beacon.network is not drand"
    if beacon["chain_hash"] != chain["hash"]:
        return "beacon.chain_hash is not the chain's hash"
    sealed_at = parse_iso(seal["sealed_at"])
    genesis, period = chain["genesis_time"], chain["period"]
    if beacon["round"] < beacon["after_round"] + min_delay:
        return f"round {beacon['round']} is fewer than {min_delay} rounds after after_round {beacon['after_round']}"
    sealed_round = round_of(sealed_at, genesis, period)
    if beacon["round"] < sealed_round + min_delay:
        return f"round {beacon['round']} is fewer than {min_delay} rounds after round_of(sealed_at) = {sealed_round}"
    if beacon["round_at"] != iso(round_time_ms(beacon["round"], genesis, period)):
        return "round_at is not the round's time"
    return None


# §7.5 Seed, winners and reserves -----------------------------------------------------------------


def draw_seed(seal_hash_hex: str, beacon_randomness: bytes) -> bytes:
    """SHA-256("tyche-draw-v2" || 0x00 || raw seal hash (32) || B (32))."""
    seal_hash = bytes.fromhex(seal_hash_hex)
    if len(seal_hash) != 32 or len(beacon_randomness) != 32:
        raise ValueError("the seal hash and B are 32 bytes each")
    return sha256(ALGORITHM.encode("ascii") + b"\x00" + seal_hash + beacon_randomness)


def pick(seed: bytes, n: int, winners_count: int, reserve_count: int):
    """Canonical indices of the winners, then of the reserves, from one stream (§5 steps 5–7)."""
    if n < 1:
        raise ValueError("a draw needs at least one entrant")
    k = min(winners_count + reserve_count, n)
    indices, _ = v1.pick_winners(seed, n, k)
    w = min(winners_count, n)
    return indices[:w], indices[w:]


def beacon_problem(beacon: dict):
    """The part of §7.4 the standard library can check: randomness = SHA-256(signature).

    The BLS signature itself is checked by the TypeScript test against the chain's key."""
    if hashlib.sha256(bytes.fromhex(beacon["signature"])).hexdigest() != beacon["randomness"]:
        return "randomness is not SHA-256(signature)"
    return None


# RFC 8032 Ed25519 signing (§5.1), for the signed examples ---------------------------------------

_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, -1, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def _recover_x(y: int, sign: int) -> int:
    x2 = (y * y - 1) * pow(_D * y * y + 1, -1, _P) % _P
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P:
        x = x * _SQRT_M1 % _P
    if (x * x - x2) % _P:
        raise ValueError("not a point")
    return _P - x if x & 1 != sign else x


_GY = 4 * pow(5, -1, _P) % _P
_GX = _recover_x(_GY, 0)
_G = (_GX, _GY, 1, _GX * _GY % _P)


def _add(p, q):
    """Extended twisted Edwards coordinates, RFC 8032 §5.1.4."""
    a = (p[1] - p[0]) * (q[1] - q[0]) % _P
    b = (p[1] + p[0]) * (q[1] + q[0]) % _P
    c = 2 * p[3] * q[3] * _D % _P
    d = 2 * p[2] * q[2] % _P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _mul(s: int, p):
    q = (0, 1, 1, 0)
    while s:
        if s & 1:
            q = _add(q, p)
        p = _add(p, p)
        s >>= 1
    return q


def _compress(p) -> bytes:
    zinv = pow(p[2], -1, _P)
    x, y = p[0] * zinv % _P, p[1] * zinv % _P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def _expand(secret: bytes):
    h = hashlib.sha512(secret).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    return a, h[32:]


def ed25519_public_key(secret: bytes) -> bytes:
    return _compress(_mul(_expand(secret)[0], _G))


def ed25519_sign(secret: bytes, message: bytes) -> bytes:
    a, prefix = _expand(secret)
    public = _compress(_mul(a, _G))
    r = int.from_bytes(hashlib.sha512(prefix + message).digest(), "little") % _L
    big_r = _compress(_mul(r, _G))
    h = int.from_bytes(hashlib.sha512(big_r + public + message).digest(), "little") % _L
    return big_r + ((r + h * a) % _L).to_bytes(32, "little")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def key_id(public: bytes) -> str:
    return hashlib.sha256(public).hexdigest()[:16]


def sign_object(body: dict, secret: bytes) -> dict:
    """body + `hash` (SHA-256 hex of the canonical bytes) + `signature` (Ed25519 over those bytes)."""
    data = canonical_bytes(body)
    value = b64url(ed25519_sign(secret, data))
    signature = {"alg": "Ed25519", "kid": key_id(ed25519_public_key(secret)), "value": value}
    return {**body, "hash": hashlib.sha256(data).hexdigest(), "signature": signature}


# Receipts (§7.8): what an entrant computes by themselves -----------------------------------------


def receipt_outcome(receipt: dict, seal: dict, certificate: dict):
    """Checks the receipt's proof against the seal, then finds the entrant among the drawn indices."""
    leaf = leaf_hash(leaf_data(bytes.fromhex(receipt["salt"]), receipt["telegram_id"]))
    if leaf.hex() != receipt["leaf_hash"]:
        raise ValueError("leaf_hash is not the hash of this salt and telegram_id")
    if "seal_id" in receipt and receipt["seal_id"] != seal["seal_id"]:
        raise ValueError(f"the receipt is for seal {receipt['seal_id']}, not {seal['seal_id']}")
    # seal_hash binds the receipt to one signed seal; a receipt saved before it existed has only
    # seal_id, which a seal re-made under the same id (another sealed_at, signed again) would pass.
    if "seal_hash" in receipt and receipt["seal_hash"] != seal["hash"]:
        raise ValueError("the seal is not the one this receipt was issued under: "
                         f"hash {seal['hash']} ≠ {receipt['seal_hash']} (the receipt's seal_hash)")
    if receipt["count"] != seal["entrants"]["count"] or receipt["root"] != seal["entrants"]["root"]:
        raise ValueError("the receipt is for another list than the seal's")
    proof = [bytes.fromhex(p) for p in receipt["proof"]]
    if not verify_inclusion(leaf, receipt["index"], receipt["count"], proof, bytes.fromhex(receipt["root"])):
        raise ValueError("the proof does not lead to the sealed root")
    seed = draw_seed(seal["hash"], bytes.fromhex(certificate["beacon"]["randomness"]))
    g = seal["giveaway"]
    winners, reserves = pick(seed, seal["entrants"]["count"], g["winners_count"], g["reserve_count"])
    drawn = winners + reserves
    if receipt["index"] not in drawn:
        return {"won": False}
    position = drawn.index(receipt["index"]) + 1
    return {"won": position <= len(winners), "position": position, "reserve": position > len(winners)}

#!/usr/bin/env python3
"""Reference implementation of amendments to a tyche-draw-v2 draw (CONTRACT.md §14), standard
library only: how a winner is replaced by the next unused reserve, and how anyone checks it.

Written from the contract and docs/draw-algorithm.md §14, independently of src/proof/amendments.ts.
Canonical JSON, SHA-256 and Ed25519 signing are those of docs/draw-v2-reference.py (imported, not
copied): an amendment is signed exactly like a seal. docs/amendment-vectors.py runs it to produce
test/fixtures/amendment-vectors.json.
"""

import base64
import hashlib
import importlib.util
import pathlib


def _load(name):
    path = pathlib.Path(__file__).with_name(name)
    spec = importlib.util.spec_from_file_location(name.replace("-", "_")[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = _load("draw-v2-reference.py")

AMENDMENT_TYPE = "tyche-amendment-v2"
REASONS = ("left_channel", "unclaimed", "ineligible", "duplicate_account", "other")
NOTE_MAX = 500


# Making an amendment --------------------------------------------------------------------------


def holders(certificate: dict, amendments: list) -> list:
    """The winners list after `amendments`: each substitute is reserve `reserve_position`, at its position."""
    out = [dict(w) for w in certificate["winners"]]
    for a in amendments:
        substitute = certificate["reserves"][a["by"]["reserve_position"] - 1]
        out[a["position"] - 1] = {**substitute, "position": a["position"]}
    return out


def amend(certificate: dict, amendments: list, position: int, reason: str, note, amended_at: str,
          amendment_id: str, secret: bytes) -> dict:
    """The next amendment: amendment k takes reserve k (reserves are used once, in order)."""
    k = len(amendments)
    if k >= len(certificate["reserves"]):
        raise ValueError("no reserves left")
    holder = holders(certificate, amendments)[position - 1]
    reserve = certificate["reserves"][k]
    body = {
        "type": AMENDMENT_TYPE,
        "amendment_id": amendment_id,
        "giveaway": certificate["seal"]["giveaway"]["public_id"],
        "certificate_hash": certificate["hash"],
        "sequence": k + 1,
        "previous": amendments[-1]["hash"] if amendments else None,
        "position": position,
        "replaced": {"index": holder["index"], "leaf_hash": holder["leaf_hash"]},
        "by": {"reserve_position": k + 1, "index": reserve["index"], "leaf_hash": reserve["leaf_hash"]},
        "reason": reason,
        "note": note,
        "amended_at": amended_at,
    }
    return ref.sign_object(body, secret)


# Checking a chain -----------------------------------------------------------------------------


def ed25519_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """RFC 8032 §5.1.7 (cofactorless, canonical S), with the reference's curve arithmetic."""
    if len(signature) != 64 or len(public) != 32:
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= ref._L:
        return False

    def decode(point: bytes):
        y = int.from_bytes(point, "little")
        sign, y = y >> 255, y & ((1 << 255) - 1)
        if y >= ref._P:
            raise ValueError("not canonical")
        x = ref._recover_x(y, sign)
        return (x, y, 1, x * y % ref._P)

    try:
        a, r = decode(public), decode(signature[:32])
    except ValueError:
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % ref._L
    return ref._compress(ref._mul(s, ref._G)) == ref._compress(ref._add(r, ref._mul(h, a)))


def _signature_ok(obj: dict, keys: dict) -> bool:
    sig = obj.get("signature")
    if not isinstance(sig, dict) or sig.get("alg") != "Ed25519":
        return False
    jwk = next((k for k in keys["keys"] if k.get("kid") == sig.get("kid")), None)
    if jwk is None:
        return False
    try:
        public = base64.urlsafe_b64decode(jwk["x"] + "=" * (-len(jwk["x"]) % 4))
        value = base64.urlsafe_b64decode(sig["value"] + "=" * (-len(sig["value"]) % 4))
    except (ValueError, KeyError, TypeError):
        return False
    return ed25519_verify(public, ref.canonical_bytes(ref.body_of(obj)), value)


def _hex32(v) -> bool:
    return isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v)


def _ref_ok(v) -> bool:
    return isinstance(v, dict) and isinstance(v.get("index"), int) and v["index"] >= 0 and _hex32(v.get("leaf_hash"))


def format_problem(a) -> bool:
    """True when `a` is not shaped as a tyche-amendment-v2."""
    if not isinstance(a, dict) or a.get("type") != AMENDMENT_TYPE:
        return True
    try:
        ref.parse_iso(a.get("amended_at", ""))
    except (ValueError, TypeError):
        return True
    positive = lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 1  # noqa: E731
    return not (
        isinstance(a.get("amendment_id"), str) and isinstance(a.get("giveaway"), str)
        and _hex32(a.get("certificate_hash")) and positive(a.get("sequence"))
        and (a.get("previous") is None or _hex32(a.get("previous"))) and positive(a.get("position"))
        and _ref_ok(a.get("replaced")) and _ref_ok(a.get("by")) and positive(a["by"].get("reserve_position"))
        and a.get("reason") in REASONS
        and (a.get("note") is None or (isinstance(a.get("note"), str) and len(a["note"]) <= NOTE_MAX))
        and _hex32(a.get("hash")) and isinstance(a.get("signature"), dict)
    )


def check_amendments(certificate: dict, amendments: list, keys: dict) -> list:
    """Every failure as (check, at): `at` is the 1-based place of the amendment in the list.

    The checks, in the order made for each amendment: format; it names this giveaway and
    certificate; sequence = its place; previous = the hash of the one before (null for the first);
    its hash; its signature by a published key; amended_at not before the draw or the previous
    amendment; position is a winner position; replaced = the holder of that position now; by = the
    next unused reserve (amendment k takes reserve k).
    """
    failures = []
    current = [{"index": w["index"], "leaf_hash": w["leaf_hash"]} for w in certificate["winners"]]
    used = 0
    previous_hash = None
    previous_at = ref.parse_iso(certificate["drawn_at"])
    for at, a in enumerate(amendments, start=1):
        if format_problem(a):
            failures.append(("amendment-format", at))
            previous_hash = a.get("hash") if isinstance(a, dict) and isinstance(a.get("hash"), str) else None
            continue
        if a["giveaway"] != certificate["seal"]["giveaway"]["public_id"] or a["certificate_hash"] != certificate["hash"]:
            failures.append(("amendment-giveaway", at))
        if a["sequence"] != at:
            failures.append(("amendment-sequence", at))
        if a["previous"] != previous_hash:
            failures.append(("amendment-previous", at))
        if ref.object_hash(a) != a["hash"]:
            failures.append(("amendment-hash", at))
        if not _signature_ok(a, keys):
            failures.append(("amendment-signature", at))
        amended_at = ref.parse_iso(a["amended_at"])
        if amended_at < previous_at:
            failures.append(("amendment-time", at))
        previous_at = max(previous_at, amended_at)
        previous_hash = a["hash"]
        if a["position"] > len(current):
            failures.append(("amendment-position", at))
        elif a["replaced"] != current[a["position"] - 1]:
            failures.append(("amendment-replaced", at))
        if used >= len(certificate["reserves"]):
            failures.append(("amendment-reserve", at))
            continue
        reserve = certificate["reserves"][used]
        wanted = {"index": reserve["index"], "leaf_hash": reserve["leaf_hash"]}
        if a["by"] != {"reserve_position": used + 1, **wanted}:
            failures.append(("amendment-reserve", at))
        if a["position"] <= len(current):
            current[a["position"] - 1] = wanted
        used += 1
    return failures

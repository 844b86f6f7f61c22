#!/usr/bin/env python3
"""Test vectors of signed random results (CONTRACT §12), made with docs/signed-result-reference.py.

    python3 docs/signed-result-vectors.py test/fixtures/signed-result-vectors.json           # regenerate
    python3 docs/signed-result-vectors.py --check test/fixtures/signed-result-vectors.json   # re-derive, compare

The results are signed here, in Python, with the RFC 8032 §7.1 test keys, and the service's
verifier is tested against them (test/proof/signed-result-vectors.test.ts); the reference in turn
checks results the service signs. Before writing anything the script checks its Ed25519 against
RFC 8032 TEST 1 and TEST 2, and its canonical JSON against the RFC 8785 examples.
"""

import copy
import hashlib
import importlib.util
import json
import pathlib
import sys


def _load(name):
    path = pathlib.Path(__file__).with_name(name)
    spec = importlib.util.spec_from_file_location(name.replace("-", "_")[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = _load("signed-result-reference.py")
GENERATED_BY = "python3 docs/signed-result-vectors.py test/fixtures/signed-result-vectors.json"

# RFC 8032 §7.1 TEST 1 and TEST 2: published keys, for examples only.
KEY_IN_USE = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
KEY_RETIRED = bytes.fromhex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")


def _expand(secret: bytes):
    h = hashlib.sha512(secret).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    return a, h[32:]


def public_key(secret: bytes) -> bytes:
    return ref.point_compress(ref.point_mul(_expand(secret)[0], ref.G))


def sign(secret: bytes, message: bytes) -> bytes:
    """RFC 8032 §5.1.6."""
    a, prefix = _expand(secret)
    r = int.from_bytes(hashlib.sha512(prefix + message).digest(), "little") % ref.L
    big_r = ref.point_compress(ref.point_mul(r, ref.G))
    k = int.from_bytes(hashlib.sha512(big_r + public_key(secret) + message).digest(), "little") % ref.L
    return big_r + ((r + k * a) % ref.L).to_bytes(32, "little")


def b64url(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def kid(secret: bytes) -> str:
    """The service's key id: the first 16 hex digits of SHA-256 of the raw public key."""
    return hashlib.sha256(public_key(secret)).hexdigest()[:16]


def self_check():
    # RFC 8032 §7.1 TEST 1 (empty message) and TEST 2 (one byte 0x72).
    assert public_key(KEY_IN_USE).hex() == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    assert sign(KEY_IN_USE, b"").hex() == (
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
        "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
    )
    assert public_key(KEY_RETIRED).hex() == "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"
    signature = sign(KEY_RETIRED, b"\x72")
    assert signature.hex() == (
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
        "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
    )
    assert ref.ed25519_verify(public_key(KEY_RETIRED), b"\x72", signature)
    assert not ref.ed25519_verify(public_key(KEY_RETIRED), b"\x73", signature)
    # RFC 8785 §3.2.2 and Appendix B: numbers, and names sorted by UTF-16 code units.
    numbers = [333333333.33333329, 1e30, 4.50, 2e-3, 0.000000000000000000000000001]
    assert ref.canonical_json(numbers) == "[333333333.3333333,1e+30,4.5,0.002,1e-27]"
    for bits, text in [
        ("0000000000000000", "0"), ("8000000000000000", "0"), ("0000000000000001", "5e-324"),
        ("7fefffffffffffff", "1.7976931348623157e+308"), ("4340000000000000", "9007199254740992"),
        ("444b1ae4d6e2ef50", "1e+21"), ("444b1ae4d6e2ef4f", "999999999999999900000"),
        ("3eb0c6f7a0b5ed8d", "0.000001"), ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ]:
        value = __import__("struct").unpack(">d", bytes.fromhex(bits))[0]
        assert ref.canonical_json(value) == text, (bits, ref.canonical_json(value), text)
    sorting = {"\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",
               "1": "One", "\U0001f600": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis"}
    order = [k for k in json.loads(ref.canonical_json(sorting))]
    assert order == ["\r", "1", "\u0080", "\u00f6", "\u20ac", "\U0001f600", "\ufb33"], order


# A pseudonym as the service writes one: o_ and 16 base62 characters.
ACCOUNT = "o_7GkQ2mZr9TxB4nWc"


def seal(body: dict, secret: bytes) -> dict:
    """`hash` and `signature` over the canonical JSON of `body`."""
    data = ref.canonical_json(body).encode("utf-8")
    return {
        "hash": hashlib.sha256(data).hexdigest(),
        "signature": {"alg": "Ed25519", "kid": kid(secret), "value": b64url(sign(secret, data))},
    }


def signed(result: dict, serial: int, issued_at: str, secret: bytes = KEY_IN_USE, counted=None) -> dict:
    """The result signed; `counted` = (account_serial, log_index) for a result counted per account."""
    fields = {"serial": serial, "issued_at": issued_at}
    if counted is not None:
        fields.update({"account_serial": counted[0], "account": ACCOUNT})
    block = {**fields, **seal({**result, **fields}, secret)}
    if counted is not None:
        block["log_index"] = counted[1]
    return {**result, "signed": block}


def log_entry(result: dict, secret: bytes = KEY_IN_USE) -> dict:
    body = ref.entry_body(result)
    return {**body, **seal(body, secret)}


def ids(stem: str, count: int):
    return [f"{stem}{i:02x}" for i in range(count)]


def build():
    self_check()
    keys = {
        "keys": [
            {"kty": "OKP", "crv": "Ed25519", "x": b64url(public_key(KEY_RETIRED)), "kid": kid(KEY_RETIRED),
             "alg": "EdDSA", "use": "sig", "created_at": "2026-01-01T00:00:00.000Z",
             "retired_at": "2026-03-01T00:00:00.000Z"},
            {"kty": "OKP", "crv": "Ed25519", "x": b64url(public_key(KEY_IN_USE)), "kid": kid(KEY_IN_USE),
             "alg": "EdDSA", "use": "sig", "created_at": "2026-02-20T00:00:00.000Z", "retired_at": None},
        ]
    }
    int_ids = ids("019a6d2c-4b1e-7f00-9c3a-5be2d7a81c", 6)
    lottery = {
        "numbers": [17, 3, 42, 29, 8, 36],
        "count": 6,
        "range": {"min": 1, "max": 49},
        "qrng_source": "anu",
        "request_id": int_ids[-1],
        "qrng_request_ids": int_ids,
    }
    six_of_49 = {
        "chosen": [17, 3, 42, 29, 8, 36],
        "count": 6,
        "from_total": 49,
        "qrng_source": "anu",
        "request_id": "019a6d2c-3a0d-7c55-8b41-2f6e0d9c3b00",
    }
    choice = {
        # Names that sort differently by code point and by UTF-16 unit, numbers in every ECMAScript
        # form, escapes and characters written as they are.
        "chosen": [
            {"\uffff": "last by UTF-16", "\U0001f600": "a surrogate pair", "b": [0.1, 1e21, 1e-7, -0.0, 5e-324],
             "a": 1.0, "\u00e9": "\u0001\u001f\u007f\u2028\"\\/\t"},
            123456789012345680000.0,
            "ticket \u2116 7",
        ],
        "count": 3,
        "from_total": 10,
        "qrng_source": "nist",
        "request_id": "019a6d2c-5d03-7b11-8e2f-0c4a9b7d6e00",
    }
    shuffle = {
        "shuffled": ["ticket-0003", "ticket-0001", "ticket-0004", "ticket-0002"],
        "count": 4,
        "qrng_source": "drand",
        "request_id": "019a6d2c-6e44-70aa-b1c9-3f8e2d4a5b00",
    }
    raw = {
        "bytes": "3q2+7w==",
        "format": "base64",
        "length": 4,
        "qrng_source": "system",
        "request_id": "019a6d2c-7f85-7d22-a4b0-6c1d9e8f7a00",
        "pool": "crypto",
    }
    good_lottery = signed(lottery, 1041, "2026-03-14T18:00:02.517Z")
    good_choice = signed(choice, 1042, "2026-03-14T18:00:03.001Z")
    counted_draw = signed(six_of_49, 1046, "2026-03-21T18:00:00.000Z", counted=(3, 318))
    counted_lottery = signed(lottery, 1047, "2026-03-21T18:00:01.250Z", counted=(4, 319))
    vectors = [
        ("choice: a 6-of-49 lottery draw, counted per account (docs/signed-results.md)", counted_draw, True),
        ("int: six numbers, counted per account", counted_lottery, True),
        ("shuffle, counted per account",
         signed(shuffle, 1048, "2026-03-21T18:00:02.000Z", counted=(5, 320)), True),
        ("bytes, counted per account", signed(raw, 1049, "2026-03-21T18:00:03.000Z", counted=(6, 321)), True),
        ("choice: a 6-of-49 lottery draw signed before results were counted",
         signed(six_of_49, 1040, "2026-03-14T18:00:00.000Z"), True),
        ("int: six numbers", good_lottery, True),
        ("choice: names in UTF-16 order, numbers in ECMAScript form", good_choice, True),
        ("shuffle", signed(shuffle, 1043, "2026-03-14T18:00:03.250Z"), True),
        ("bytes", signed(raw, 1044, "2026-03-14T18:00:04.000Z"), True),
        ("the document of GET /api/v1/operations/{id}", {
            "request_id": good_choice["request_id"], "x_request_id": "draw-2026-11",
            "endpoint": "POST /api/v1/random/choice", "qrng_source": "nist",
            "source_reference": "https://beacon.nist.gov/beacon/2.0/chain/2/pulse/1234567",
            "source_fetched_at": "2026-03-14T18:00:02.950Z", "created_at": "2026-03-14T18:00:02.990Z",
            "result": good_choice,
        }, True),
    ]
    changed = copy.deepcopy(good_lottery)
    changed["numbers"][2] = 41
    vectors.append(("int: a number changed", changed, False))
    renumbered = copy.deepcopy(good_lottery)
    renumbered["signed"]["serial"] = 1039
    vectors.append(("int: serial changed", renumbered, False))
    vectors.append(("int: a signature by a key after its retirement",
                    signed(lottery, 1045, "2026-03-14T18:00:05.000Z", KEY_RETIRED), False))
    unknown = copy.deepcopy(good_lottery)
    unknown["signed"]["signature"]["kid"] = "0000000000000000"
    vectors.append(("int: an unpublished key id", unknown, False))
    vectors.append(("int: not signed", lottery, False))
    # Signed over names sorted by code point instead of UTF-16 units: a verifier sorting the
    # wrong way would accept this one and refuse the good one.
    by_code_point = copy.deepcopy(good_choice)
    naive = json.dumps({**choice, "serial": 1042, "issued_at": "2026-03-14T18:00:03.001Z"},
                       sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    by_code_point["signed"]["hash"] = hashlib.sha256(naive).hexdigest()
    by_code_point["signed"]["signature"]["value"] = b64url(sign(KEY_IN_USE, naive))
    vectors.append(("choice: signed over names sorted by code point", by_code_point, False))
    for name, member, value in [("account_serial changed", "account_serial", 2),
                                 ("account changed", "account", "o_0000000000000000")]:
        other = copy.deepcopy(counted_draw)
        other["signed"][member] = value
        vectors.append((f"choice: {name}", other, False))
    # Passed off as a result signed before counting: the account's serial and pseudonym removed.
    uncounted = copy.deepcopy(counted_draw)
    del uncounted["signed"]["account_serial"], uncounted["signed"]["account"]
    vectors.append(("choice: account_serial and account removed", uncounted, False))
    half = copy.deepcopy(counted_draw)
    del half["signed"]["account"]
    vectors.append(("choice: account_serial without account", half, False))
    # log_index sits beside the signed bytes: another index changes no byte that is signed.
    moved = copy.deepcopy(counted_lottery)
    moved["signed"]["log_index"] = 7
    vectors.append(("int: another log_index (not signed)", moved, True))

    out = []
    for name, result, valid in vectors:
        vector = {"name": name, "valid": valid, "result": result}
        if valid:
            vector["signed_bytes"] = ref.signed_bytes(ref.result_of(result)).decode("utf-8")
            if "account" in ref.result_of(result)["signed"]:
                vector["log_entry"] = log_entry(ref.result_of(result))
        out.append(vector)
    for vector in out:
        assert ref.valid(vector["result"], keys) == vector["valid"], vector["name"]
    return {"generated_by": GENERATED_BY, "keys": keys, "vectors": out}


def render(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def main(argv) -> int:
    check = argv[:1] == ["--check"]
    paths = argv[1:] if check else argv
    if len(paths) != 1:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    text = render(build())
    path = pathlib.Path(paths[0])
    if check:
        if path.read_text(encoding="utf-8") != text:
            print(f"{path} differs from what the reference computes", file=sys.stderr)
            return 1
        print(f"{path}: every vector re-derived")
        return 0
    path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

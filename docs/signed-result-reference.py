#!/usr/bin/env python3
"""Reference check of a Tyche signed random result (CONTRACT §12, docs/signed-results.md).

Standard library only, written from the specification rather than from the service's code, so
that the two can be compared:

    python3 docs/signed-result-reference.py RESULT.json KEYS.json [ENTRY.json]
    python3 docs/signed-result-reference.py --vectors test/fixtures/signed-result-vectors.json

RESULT.json is a response of /api/v1/random/* asked with signed=true, or the document of
GET /api/v1/operations/{id} that holds it as "result". KEYS.json is the server's
/.well-known/tyche-keys.json. ENTRY.json, for a result counted per account, is its log entry: the
JSON of the base64-decoded "leaf_data" of GET /log/entries?start=N&end=N+1, N = "signed.log_index"
(checked against the result here; its inclusion in the log is `tyche verify --result`'s to check).
Exit status 0 when every check passes, 1 otherwise.

The signed bytes: take the response, remove "signed", add "serial" and "issued_at" (copied from
"signed") as top-level members — and "account_serial" and "account" too when "signed" has them
(every result counted per account does; only results signed before that have neither) — and write
the RFC 8785 canonical JSON of that object in UTF-8. "signed.hash" is the SHA-256 of those bytes in
lower-case hex; "signed.signature.value" is the base64url Ed25519 (RFC 8032) signature of the same
bytes by the published key "signature.kid". "signed.log_index" is not signed.

A counted result's transparency-log entry (kind "result") is the signed object whose body is
entry_body(result) below, with "hash" and "signature" over it by the result's key; with
--vectors, each vector's "log_entry" is checked to be exactly that.
"""

import base64
import hashlib
import json
import re
import sys
from datetime import datetime, timezone
from decimal import Decimal

# RFC 8785 canonical JSON -------------------------------------------------------------------------

_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _string(s: str) -> str:
    """RFC 8785 §3.2.2.2: only '"', '\\' and the C0 controls are escaped; the rest is written as is."""
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


def _number(x: float) -> str:
    """RFC 8785 §3.2.2.3: ECMAScript's Number::toString of the IEEE 754 double."""
    if x != x or x in (float("inf"), float("-inf")):
        raise ValueError("NaN and infinities are not JSON")
    if x == 0:
        return "0"  # -0 too
    sign = "-" if x < 0 else ""
    # repr() gives the shortest digits that read back as the same double, as ECMAScript requires.
    _, digits_tuple, exponent = Decimal(repr(abs(x))).as_tuple()
    digits = "".join(map(str, digits_tuple)).rstrip("0")
    exponent += len(digits_tuple) - len(digits)
    k = len(digits)
    n = exponent + k  # the value is 0.<digits> × 10^n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        e = n - 1
        mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
        text = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + text


def canonical_json(value) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        # JSON numbers are doubles to the service: beyond 2^53 an integer is written as its double.
        return str(value) if abs(value) <= 2**53 else _number(float(value))
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ",".join(canonical_json(v) for v in value) + "]"
    if isinstance(value, dict):
        # RFC 8785 §3.2.3: names ordered by their UTF-16 code units, which the UTF-16BE bytes compare as.
        keys = sorted(value, key=lambda k: k.encode("utf-16-be", "surrogatepass"))
        return "{" + ",".join(_string(k) + ":" + canonical_json(value[k]) for k in keys) + "}"
    raise ValueError(f"{type(value).__name__} is not JSON")


# The signed result ---------------------------------------------------------------------------------


def result_of(document: dict) -> dict:
    """The response itself, or the "result" of a GET /api/v1/operations/{id} document."""
    if isinstance(document.get("result"), dict) and "signed" not in document:
        return document["result"]
    return document


COUNTED = ("account_serial", "account")


def signed_bytes(result: dict) -> bytes:
    signed = result["signed"]
    body = {k: v for k, v in result.items() if k != "signed"}
    body["serial"] = signed["serial"]
    body["issued_at"] = signed["issued_at"]
    for name in COUNTED:
        if name in signed:
            body[name] = signed[name]
    return canonical_json(body).encode("utf-8")


def request_of(result: dict):
    """What a result answered, without its values: the endpoint and the sizes the answer states."""
    if isinstance(result.get("numbers"), list) and isinstance(result.get("range"), dict):
        return {"endpoint": "int", "min": result["range"]["min"], "max": result["range"]["max"],
                "count": result["count"]}
    if isinstance(result.get("chosen"), list):
        return {"endpoint": "choice", "count": result["count"], "from_total": result["from_total"]}
    if isinstance(result.get("shuffled"), list):
        return {"endpoint": "shuffle", "count": result["count"]}
    if isinstance(result.get("bytes"), str):
        return {"endpoint": "bytes", "length": result["length"], "format": result["format"]}
    return None


def entry_body(result: dict) -> dict:
    """The body of a counted result's log entry (kind "result"), before its hash and signature."""
    signed = result["signed"]
    return {
        "type": "tyche-result",
        "serial": signed["serial"],
        "issued_at": signed["issued_at"],
        "account": signed["account"],
        "account_serial": signed["account_serial"],
        "request": request_of(result),
        "result_hash": signed["hash"],
    }


# RFC 8032 §5.1 Ed25519 verification ---------------------------------------------------------------

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, -1, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _recover_x(y: int, sign: int):
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, -1, P) % P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P:
        return None
    return P - x if x & 1 != sign else x


def point_add(p, q):
    """Extended coordinates (X, Y, Z, T), RFC 8032 §5.1.4."""
    a = (p[1] - p[0]) * (q[1] - q[0]) % P
    b = (p[1] + p[0]) * (q[1] + q[0]) % P
    c = 2 * p[3] * q[3] * D % P
    d = 2 * p[2] * q[2] % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def point_mul(s: int, p):
    q = (0, 1, 1, 0)
    while s:
        if s & 1:
            q = point_add(q, p)
        p = point_add(p, p)
        s >>= 1
    return q


def point_compress(p) -> bytes:
    zinv = pow(p[2], -1, P)
    x, y = p[0] * zinv % P, p[1] * zinv % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def point_decompress(data: bytes):
    if len(data) != 32:
        return None
    y = int.from_bytes(data, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    x = _recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % P)


G_Y = 4 * pow(5, -1, P) % P
G_X = _recover_x(G_Y, 0)
G = (G_X, G_Y, 1, G_X * G_Y % P)


def ed25519_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """RFC 8032 §5.1.7 (with the group equation checked without the cofactor, as OpenSSL does)."""
    if len(public) != 32 or len(signature) != 64:
        return False
    a = point_decompress(public)
    r = point_decompress(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= L:
        return False
    k = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % L
    return point_compress(point_mul(s, G)) == point_compress(point_add(r, point_mul(k, a)))


def b64url_decode(text: str) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# The checks ------------------------------------------------------------------------------------------

_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
_PSEUDONYM = re.compile(r"^o_[0-9A-Za-z]{16}$")


def _time(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def check(document: dict, keys: dict):
    """[(name, ok, detail)] for one signed result."""
    result = result_of(document)
    signed = result.get("signed")
    if not isinstance(signed, dict):
        return [("signed block", False, "no signed block: the result was not signed")]
    serial, issued_at = signed.get("serial"), signed.get("issued_at")
    if not isinstance(serial, int) or isinstance(serial, bool) or serial < 1:
        return [("signed block", False, "serial is not a positive integer")]
    if not isinstance(issued_at, str) or not _TIME.match(issued_at):
        return [("signed block", False, "issued_at is not an RFC 3339 UTC time with milliseconds")]
    counted = [name in signed for name in COUNTED]
    if any(counted) and not all(counted):
        return [("signed block", False, "account_serial and account come together, or not at all")]
    if all(counted):
        account_serial, account = signed["account_serial"], signed["account"]
        if not isinstance(account_serial, int) or isinstance(account_serial, bool) or account_serial < 1:
            return [("signed block", False, "account_serial is not a positive integer")]
        if not isinstance(account, str) or not _PSEUDONYM.match(account):
            return [("signed block", False, "account is not an account pseudonym")]
    out = [("signed block", True, f"serial {serial}, issued at {issued_at}")]

    data = signed_bytes(result)
    digest = hashlib.sha256(data).hexdigest()
    out.append(("hash", digest == signed.get("hash"), f"SHA-256 of the signed bytes is {digest}"))

    signature = signed.get("signature") or {}
    kid = signature.get("kid")
    jwk = next((k for k in keys.get("keys", []) if k.get("kid") == kid), None)
    if signature.get("alg") != "Ed25519" or jwk is None or jwk.get("crv") != "Ed25519":
        out.append(("signature", False, f"no published Ed25519 key {kid!r}"))
        return out
    try:
        ok = ed25519_verify(b64url_decode(jwk["x"]), data, b64url_decode(signature.get("value", "")))
    except ValueError:
        ok = False
    out.append(("signature", ok, f"Ed25519 under key {kid}"))

    at = _time(issued_at)
    in_use = (jwk.get("created_at") is None or _time(jwk["created_at"]) <= at) and (
        jwk.get("retired_at") is None or at <= _time(jwk["retired_at"])
    )
    out.append(("key in use", in_use, f"key {kid} from {jwk.get('created_at')} to {jwk.get('retired_at')}"))
    return out


def valid(document: dict, keys: dict) -> bool:
    return all(ok for _, ok, _ in check(document, keys))


def entry_problem(entry: dict, result: dict, keys: dict):
    """Why the log entry is not the one the counted result implies, or None."""
    if "account" not in result.get("signed", {}):
        return "the result is not counted per account, so it has no log entry"
    body = {k: v for k, v in entry.items() if k not in ("hash", "signature")}
    data = canonical_json(body).encode("utf-8")
    if data != canonical_json(entry_body(result)).encode("utf-8"):
        return "its body is not the one the result implies"
    if entry.get("hash") != hashlib.sha256(data).hexdigest():
        return "its hash is not the SHA-256 of its body"
    signature = entry.get("signature") or {}
    if signature.get("kid") != result["signed"]["signature"]["kid"]:
        return "it is not signed by the result's key"
    jwk = next((k for k in keys.get("keys", []) if k.get("kid") == signature.get("kid")), None)
    if jwk is None or not ed25519_verify(b64url_decode(jwk["x"]), data, b64url_decode(signature.get("value", ""))):
        return "its signature does not verify"
    return None


def main(argv) -> int:
    if len(argv) == 2 and argv[0] == "--vectors":
        with open(argv[1], encoding="utf-8") as f:
            vectors = json.load(f)
        failures = 0
        for vector in vectors["vectors"]:
            result = result_of(vector["result"])
            if "signed_bytes" in vector and signed_bytes(result).decode("utf-8") != vector["signed_bytes"]:
                print(f"✗ {vector['name']}: signed bytes differ")
                failures += 1
                continue
            if "log_entry" in vector and entry_problem(vector["log_entry"], result, vectors["keys"]):
                print(f"✗ {vector['name']}: log entry: {entry_problem(vector['log_entry'], result, vectors['keys'])}")
                failures += 1
                continue
            got = valid(vector["result"], vectors["keys"])
            mark = "✓" if got == vector["valid"] else "✗"
            failures += got != vector["valid"]
            print(f"{mark} {vector['name']}: {'valid' if got else 'invalid'}")
        return 1 if failures else 0
    if len(argv) not in (2, 3):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as f:
        document = json.load(f)
    with open(argv[1], encoding="utf-8") as f:
        keys = json.load(f)
    results = check(document, keys)
    if len(argv) == 3:
        with open(argv[2], encoding="utf-8") as f:
            problem = entry_problem(json.load(f), result_of(document), keys)
        results.append(("log entry", problem is None, problem or "the entry the result implies, signed by its key"))
    for name, ok, detail in results:
        print(f"{'✓' if ok else '✗'} {name}: {detail}")
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

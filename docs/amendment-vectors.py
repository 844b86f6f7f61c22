#!/usr/bin/env python3
"""Test vectors of amendments (CONTRACT.md §14), computed with docs/amendment-reference.py.

    python3 docs/amendment-vectors.py test/fixtures/amendment-vectors.json           # regenerate
    python3 docs/amendment-vectors.py --check test/fixtures/amendment-vectors.json   # re-derive, compare

The amended draw is the published worked example of tyche-draw-v2 (quicknet round 657413, three
winners and two reserves, in test/fixtures/draw-v2-vectors.json), signed with the RFC 8032 §7.1
TEST 1 key as its certificate is. The script first checks the reference against that certificate
(its hash and signature) and the RFC 8032 example, then writes one valid chain and one broken
chain per check, each with the failures every verifier must name.
"""

import copy
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


amd = _load("amendment-reference.py")
ref = amd.ref
GENERATED_BY = "python3 docs/amendment-vectors.py test/fixtures/amendment-vectors.json"
DRAW_VECTORS = pathlib.Path(__file__).parent.parent / "test" / "fixtures" / "draw-v2-vectors.json"
# RFC 8032 §7.1 TEST 1: a published key, for examples only (the one the draw example is signed with).
TEST_SECRET = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
OTHER_SECRET = bytes.fromhex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")  # RFC 8032 TEST 2


def example():
    with open(DRAW_VECTORS, encoding="utf-8") as f:
        draw = json.load(f)["quicknet_example"]
    certificate, keys = draw["certificate"], draw["keys"]
    public = ref.ed25519_public_key(TEST_SECRET)
    assert keys["keys"][0]["x"] == ref.b64url(public), "the draw example is signed with the TEST 1 key"
    assert ref.object_hash(certificate) == certificate["hash"], "the certificate's own hash"
    assert amd._signature_ok(certificate, keys), "the certificate's signature, with the reference's verify"
    assert not amd.ed25519_verify(public, b"x", ref.ed25519_sign(TEST_SECRET, b"")), "verify refuses"
    return certificate, keys


def chain(certificate):
    """Two replacements of winner #2: reserve 1 for left_channel, then reserve 2 when it goes unclaimed."""
    drawn = ref.parse_iso(certificate["drawn_at"])
    first = amd.amend(certificate, [], 2, "left_channel", None, ref.iso(drawn + 3_600_000),
                      "a_VectorFirst0000001", TEST_SECRET)
    second = amd.amend(certificate, [first], 2, "unclaimed", "Not claimed within P3D — “Zoë” was told twice",
                       ref.iso(drawn + 3_600_000 + 3 * 86_400_000), "a_VectorSecond000002", TEST_SECRET)
    return [first, second]


def resign(a, secret=TEST_SECRET, **changes):
    return ref.sign_object({**ref.body_of(a), **changes}, secret)


def broken_cases(certificate, keys, valid):
    first, second = valid
    drawn = ref.parse_iso(certificate["drawn_at"])
    skipped = amd.amend(certificate, [], 2, "other", None, first["amended_at"], "a_VectorSkipped00001", TEST_SECRET)
    skipped = resign(skipped, by={"reserve_position": 2, "index": certificate["reserves"][1]["index"],
                                  "leaf_hash": certificate["reserves"][1]["leaf_hash"]})
    altered = copy.deepcopy(first)
    altered["note"] = "added after signing"
    assert len(certificate["reserves"]) == 2, "the example has two reserves"
    # A third amendment cannot be made by the rules (amend refuses); it is forged here.
    over = resign(second, amendment_id="a_VectorThird0000003", sequence=3, previous=second["hash"], position=1,
                  replaced={"index": certificate["winners"][0]["index"], "leaf_hash": certificate["winners"][0]["leaf_hash"]},
                  by={"reserve_position": 3, "index": certificate["reserves"][1]["index"],
                      "leaf_hash": certificate["reserves"][1]["leaf_hash"]}, reason="ineligible", note=None)
    cases = [
        ("skipped-reserve", "the first amendment takes reserve 2: only the next unused reserve may replace a winner",
         [skipped]),
        ("reserves-reused", "the second amendment takes reserve 1 again",
         [first, resign(second, by=first["by"])]),
        ("out-of-reserves", "a third amendment when the draw had two reserves",
         [first, second, over]),
        ("wrong-sequence", "the first amendment is numbered 2", [resign(first, sequence=2)]),
        ("broken-chain", "the second amendment's previous is not the first's hash",
         [first, resign(second, previous=certificate["hash"])]),
        ("altered-after-signing", "a note added to the first amendment after it was signed",
         [altered, second]),
        ("unknown-key", "signed with a key the keys document does not publish (RFC 8032 TEST 2)",
         [resign(first, OTHER_SECRET), second]),
        ("wrong-replaced", "the second amendment says it replaced the original winner #2, who was already replaced",
         [first, resign(second, replaced=first["replaced"])]),
        ("not-a-winner-position", "position 4 when there are three winners",
         [resign(first, position=4)]),
        ("other-certificate", "an amendment of another certificate",
         [resign(first, certificate_hash=ref.object_hash({"other": "certificate"}))]),
        ("before-the-draw", "amended before the draw it amends",
         [resign(first, amended_at=ref.iso(drawn - 1))]),
        ("not-an-amendment", "a seal where an amendment should be", [certificate["seal"]]),
    ]
    out = []
    for name, description, amendments in cases:
        failures = amd.check_amendments(certificate, amendments, keys)
        assert failures, f"{name} must fail"
        out.append({"name": name, "description": description, "amendments": amendments,
                    "failures": [{"check": c, "at": at} for c, at in failures]})
    return out


def build():
    certificate, keys = example()
    valid = chain(certificate)
    assert amd.check_amendments(certificate, valid, keys) == [], "the valid chain passes"
    return {
        "type": amd.AMENDMENT_TYPE,
        "generated_by": GENERATED_BY,
        "notes": [
            "The certificate is quicknet_example.certificate of test/fixtures/draw-v2-vectors.json: three winners, two reserves.",
            "Each amendment is signed like a seal: hash = SHA-256 hex of the RFC 8785 bytes of every member but hash and signature, signature = Ed25519 over the same bytes (RFC 8032 §7.1 TEST 1 key).",
            "failures lists, for each broken chain, every (check, at) a verifier finds; at is the 1-based place of the amendment in the list.",
        ],
        "keys": keys,
        "signing_secret": TEST_SECRET.hex(),
        "certificate": certificate,
        "valid": {
            "description": "Winner #2 left the channel and was replaced by reserve 1, who did not claim in time and was replaced by reserve 2.",
            "amendments": valid,
            "canonical": [ref.canonical_json(ref.body_of(a)) for a in valid],
            "amended_winners": amd.holders(certificate, valid),
        },
        "invalid": broken_cases(certificate, keys, valid),
    }


def main(argv):
    check = argv[:1] == ["--check"]
    args = argv[1:] if check else argv
    path = args[0] if args else "test/fixtures/amendment-vectors.json"
    text = json.dumps(build(), ensure_ascii=False, indent=1) + "\n"
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

#!/usr/bin/env python3
"""Test vectors of the log as tiles (c2sp.org/tlog-tiles), computed here with the standard library only.

    python3 docs/tlog-tiles-vectors.py test/fixtures/tlog-tiles-vectors.json           # regenerate
    python3 docs/tlog-tiles-vectors.py --check test/fixtures/tlog-tiles-vectors.json   # re-derive, compare

Tile paths, which tiles a tree of n entries has, and the tiles and entry bundles of one log of
65 836 entries (entry i is the ASCII text "tyche tile vector i"), all written straight from the
spec's definitions: the n-th tile at level l holds MTH(D[(n*256 + i) * 256**l : (n*256 + i + 1) *
256**l]) for i = 0 … W-1, with MTH as RFC 6962 §2.1 writes it (recursion over the entries). Tiles
are given by their SHA-256, so the fixture stays small. Before writing anything the script checks
itself against published values: the spec's own examples and the RFC 6962 roots of
transparency-dev/merkle that test/fixtures/rfc9162-merkle-vectors.json holds.
"""

import functools
import hashlib
import json
import pathlib
import sys

GENERATED_BY = "python3 docs/tlog-tiles-vectors.py test/fixtures/tlog-tiles-vectors.json"
SIZE = 65_536 + 300
TILE = 256


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def leaf_hash(data: bytes) -> bytes:
    return sha256(b"\x00" + data)


def node_hash(left: bytes, right: bytes) -> bytes:
    return sha256(b"\x01" + left + right)


def mth(leaves, start: int, end: int) -> bytes:
    """RFC 6962 §2.1 MTH(D[start:end]) over leaf hashes, split at the largest power of two below n."""
    n = end - start
    if n == 0:
        return sha256(b"")
    if n == 1:
        return leaves[start]
    k = 1
    while k * 2 < n:
        k *= 2
    return node_hash(mth(leaves, start, start + k), mth(leaves, start + k, end))


def index_path(n: int) -> str:
    """N in zero-padded 3-digit groups, all but the last prefixed with x."""
    groups = []
    while True:
        groups.insert(0, f"{n % 1000:03d}")
        n //= 1000
        if n == 0:
            break
    return "/".join(("x" + g) if i < len(groups) - 1 else g for i, g in enumerate(groups))


def tile_path(level, index: int, width: int) -> str:
    return f"tile/{level}/{index_path(index)}" + (f".p/{width}" if width < TILE else "")


def tree_tiles(size: int):
    """(level, index, width) of every tile of the tree, full and partial."""
    out = []
    level = 0
    while size // TILE**level > 0:
        hashes = size // TILE**level
        for index in range(0, (hashes + TILE - 1) // TILE):
            out.append((level, index, min(TILE, hashes - index * TILE)))
        level += 1
    return out


def self_check():
    # The spec's examples.
    assert index_path(1234067) == "x001/x234/067"
    t70000 = tree_tiles(70_000)
    assert len([t for t in t70000 if t[0] == 0 and t[2] == TILE]) == 273
    assert (0, 273, 112) in t70000 and (1, 0, 256) in t70000 and (1, 1, 17) in t70000 and (2, 0, 1) in t70000
    assert tree_tiles(256) == [(0, 0, 256), (1, 0, 1)]
    # RFC 6962 roots of the transparency-dev/merkle reference tree.
    fixture = pathlib.Path(__file__).resolve().parent.parent / "test/fixtures/rfc9162-merkle-vectors.json"
    published = json.loads(fixture.read_text(encoding="utf-8"))
    leaves = [leaf_hash(bytes.fromhex(d)) for d in published["leaves"]]
    for size, root in enumerate(published["roots"], start=1):
        assert mth(leaves, 0, size).hex() == root, size


def build():
    self_check()
    entries = [f"tyche tile vector {i}".encode("ascii") for i in range(SIZE)]
    leaves = [leaf_hash(e) for e in entries]
    # Every complete subtree of 256**level leaves, by (level, index): memoised, each is hashed once.
    full = functools.lru_cache(maxsize=None)(lambda level, i: mth(leaves, i * TILE**level, (i + 1) * TILE**level))

    def tile_bytes(level, index, width):
        return b"".join(full(level, index * TILE + i) for i in range(width))

    def bundle_bytes(index, width):
        return b"".join(len(e).to_bytes(2, "big") + e for e in entries[index * TILE : index * TILE + width])

    paths = [
        {"level": level, "index": index, "width": width, "path": tile_path(level, index, width)}
        for level, index, width in [
            (0, 0, 256), (0, 1234067, 256), (0, 1234067, 8), (1, 999, 256), (1, 1000, 1), (5, 10**9, 255),
        ]
    ]
    paths.append({"level": "entries", "index": 1234067, "width": 256, "path": tile_path("entries", 1234067, 256)})
    shapes = []
    for size in [0, 1, 255, 256, 257, 70_000, SIZE]:
        tiles = tree_tiles(size)
        shapes.append({
            "size": size,
            "full": len([t for t in tiles if t[2] == TILE]),
            "partial": [tile_path(*t) for t in tiles if t[2] < TILE],
        })
    # The log at its full size and at an earlier one: the earlier size's partial tiles stay as they were.
    earlier = TILE * 3 + 5
    sizes = []
    for size in [earlier, SIZE]:
        wanted = [t for t in tree_tiles(size) if t[2] < TILE or t[1] in (0, 1, 255)]
        sizes.append({
            "size": size,
            "root": mth(leaves, 0, size).hex(),
            "tiles": {tile_path(*t): hashlib.sha256(tile_bytes(*t)).hexdigest() for t in wanted},
            "bundles": {
                tile_path("entries", index, width): hashlib.sha256(bundle_bytes(index, width)).hexdigest()
                for level, index, width in wanted
                if level == 0
            },
        })
    first_tile = tile_bytes(0, 0, 2)
    return {
        "generated_by": GENERATED_BY,
        "paths": paths,
        "shapes": shapes,
        "log": {
            "entry": "tyche tile vector {i}",
            "size": SIZE,
            "first_bundle_of_2": bundle_bytes(0, 2).hex(),
            "first_tile_of_2": first_tile.hex(),
            "sizes": sizes,
        },
    }


def render(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def main(argv) -> int:
    check = argv[:1] == ["--check"]
    paths = argv[1:] if check else argv
    if len(paths) != 1:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    sys.setrecursionlimit(10_000)
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

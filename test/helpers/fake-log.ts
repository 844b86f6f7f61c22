import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { signCheckpoint } from '../../src/proof/checkpoint.ts';
import { toBase64, toHex } from '../../src/proof/hex.ts';
import { keyEntryBody, leafDataOf } from '../../src/proof/log-entry.ts';
import { leafHash, rootOfNodes } from '../../src/proof/merkle.ts';
import { consistencyProofFromLeaves } from '../../src/proof/merkle-proofs.ts';
import { verifierKey } from '../../src/proof/note.ts';
import { encodeBundle, parseTilePath, servable } from '../../src/proof/tiles.ts';
import { tileFromLevels, tileLevels } from '../../src/proof/tiles-tree.ts';
import { ALGORITHM_V2 } from '../../src/proof/v2-types.ts';
import { type SigningKey, sealCertificate } from '../../src/signing/certificate-crypto.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

/** A log served from memory, so a test can make it lie in exactly one way. */
export function fakeLog(origin: string, logKey: SigningKey, logSeed: Uint8Array) {
  const entries: { kind: string; id: string; leaf: Uint8Array; hash: Uint8Array }[] = [];
  /** The tile levels of one size, kept until an entry changes: a 100 000-entry log serves hundreds of tiles. */
  let levels: { size: number; levels: Uint8Array[] } | undefined;
  let shownSize: number | undefined;
  let refusedTiles = 0;
  let shownCheckpoint: string | undefined;
  let shownKey: string | undefined;
  let shownProof: string[] | undefined;
  const packedLeaves = (size: number) => {
    const packed = new Uint8Array(size * 32);
    for (const [i, e] of entries.slice(0, size).entries()) packed.set(e.hash, i * 32);
    return packed;
  };
  const levelsOf = (size: number) => {
    if (levels?.size !== size) levels = { size, levels: tileLevels(packedLeaves(size), size, sha256) };
    return levels.levels;
  };
  const entryOf = (kind: string, id: string, signed: object) => {
    const leaf = leafDataOf(signed);
    levels = undefined;
    return { kind, id, leaf, hash: leafHash(leaf, sha256) };
  };
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const size = shownSize ?? entries.length;
    const send = (type: string, body: string) => res.writeHead(200, { 'content-type': type }).end(body);
    if (u.pathname === '/.well-known/tyche-keys.json') {
      return send(
        'application/json',
        JSON.stringify({
          keys: [],
          log: { origin, key: shownKey ?? verifierKey(origin, logKey.publicKeyRaw) },
        }),
      );
    }
    if (u.pathname === '/log/checkpoint') {
      const root = rootOfNodes(packedLeaves(size), size, sha256);
      return send('text/plain', shownCheckpoint ?? signCheckpoint({ origin, size, root }, logSeed));
    }
    if (u.pathname === '/log/proof/consistency') {
      const [first, second] = [Number(u.searchParams.get('first')), Number(u.searchParams.get('second'))];
      const proof = consistencyProofFromLeaves(packedLeaves(second), first, second, sha256);
      return send(
        'application/json',
        JSON.stringify({ first, second, proof: shownProof ?? proof.map(toHex) }),
      );
    }
    if (u.pathname === '/log/entries') {
      const [start, end] = [Number(u.searchParams.get('start')), Number(u.searchParams.get('end'))];
      const list = entries
        .slice(start, end)
        .map((e, i) => ({ index: start + i, kind: e.kind, id: e.id, leaf_data: toBase64(e.leaf) }));
      return send('application/json', JSON.stringify({ entries: list }));
    }
    const tile = u.pathname.startsWith('/log/') ? parseTilePath(u.pathname.slice('/log/'.length)) : null;
    if (tile && refusedTiles > 0) {
      refusedTiles--;
      return res.writeHead(429, { 'retry-after': '0' }).end();
    }
    if (tile && servable(tile, size)) {
      const bytes =
        tile.level === 'entries'
          ? encodeBundle(entries.slice(tile.index * 256, tile.index * 256 + tile.width).map((e) => e.leaf))
          : tileFromLevels(levelsOf(size), { ...tile, level: tile.level });
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
    }
    res.writeHead(404).end();
  });
  // The verifier shares this process's event loop: on a loaded machine a page can take longer to
  // check than Node's 5 s keep-alive, and a connection closed under the next request resets.
  server.keepAliveTimeout = 120_000;
  const listen = () =>
    new Promise<string>((resolve) =>
      server.listen(0, '127.0.0.1', () =>
        resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`),
      ),
    );
  return {
    server,
    listen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    push(kind: string, id: string, signed: object) {
      entries.push(entryOf(kind, id, signed));
    },
    announce(key: SigningKey, retiredAt?: string) {
      const body = keyEntryBody({
        kid: key.kid,
        publicKey: key.publicKeyRaw,
        createdAt: '2026-01-01T00:00:00.000Z',
        retiredAt,
      });
      this.push('key', key.kid, sealCertificate(body, logKey));
    },
    seal(
      key: SigningKey,
      id: string,
      publicId: string,
      owner: string,
      round: number,
      shown: { title?: string; entrants?: { count: number; root: string } } = {},
    ) {
      const body = {
        type: 'tyche-seal-v2',
        seal_id: id,
        giveaway: {
          public_id: publicId,
          owner,
          ...(shown.title === undefined ? {} : { title: shown.title }),
        },
        ...(shown.entrants ? { entrants: shown.entrants } : {}),
        beacon: { round },
      };
      const sealed = sealCertificate(body, key);
      this.push('seal', id, sealed);
      return sealed;
    },
    /** A v2 certificate drawn from `seal` (only what the log checks: its kind, id, seal, signature). */
    certificate(key: SigningKey, id: string, seal: object) {
      const body = { algorithm: ALGORITHM_V2, certificate_id: id, seal };
      this.push('certificate', id, sealCertificate(body, key));
    },
    /** Answers the next `count` tile requests 429, as a server past its per-address limit does. */
    refuseTiles(count: number) {
      refusedTiles = count;
    },
    showSize(size: number | undefined) {
      shownSize = size;
    },
    /** Serves this note text as the checkpoint, whatever the entries are. */
    showCheckpoint(note: string | undefined) {
      shownCheckpoint = note;
    },
    /** Serves this consistency proof, whatever sizes are asked for. */
    showProof(proof: string[] | undefined) {
      shownProof = proof;
    },
    /** Publishes this log key in the keys document. */
    showKey(vkey: string | undefined) {
      shownKey = vkey;
    },
    /** Replaces an entry in place: history rewritten under the same log key. */
    rewrite(index: number, kind: string, id: string, signed: object) {
      entries[index] = entryOf(kind, id, signed);
    },
    size: () => entries.length,
  };
}

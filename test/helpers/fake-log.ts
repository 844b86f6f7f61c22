import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type SigningKey, sealCertificate } from '../../src/giveaways/certificate-crypto.ts';
import { signCheckpoint } from '../../src/proof/checkpoint.ts';
import { toBase64 } from '../../src/proof/hex.ts';
import { keyEntryBody, leafDataOf } from '../../src/proof/log-entry.ts';
import { leafHash, rootOfNodes } from '../../src/proof/merkle.ts';
import { verifierKey } from '../../src/proof/note.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

/** A log served from memory, so a test can make it lie in exactly one way. */
export function fakeLog(origin: string, logKey: SigningKey, logSeed: Uint8Array) {
  const entries: { kind: string; id: string; leaf: Uint8Array }[] = [];
  let shownSize: number | undefined;
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const size = shownSize ?? entries.length;
    const send = (type: string, body: string) => res.writeHead(200, { 'content-type': type }).end(body);
    if (u.pathname === '/.well-known/tyche-keys.json') {
      return send(
        'application/json',
        JSON.stringify({ keys: [], log: { origin, key: verifierKey(origin, logKey.publicKeyRaw) } }),
      );
    }
    if (u.pathname === '/log/checkpoint') {
      const packed = new Uint8Array(size * 32);
      for (const [i, e] of entries.slice(0, size).entries()) packed.set(leafHash(e.leaf, sha256), i * 32);
      return send(
        'text/plain',
        signCheckpoint({ origin, size, root: rootOfNodes(packed, size, sha256) }, logSeed),
      );
    }
    if (u.pathname === '/log/entries') {
      const [start, end] = [Number(u.searchParams.get('start')), Number(u.searchParams.get('end'))];
      const list = entries
        .slice(start, end)
        .map((e, i) => ({ index: start + i, kind: e.kind, id: e.id, leaf_data: toBase64(e.leaf) }));
      return send('application/json', JSON.stringify({ entries: list }));
    }
    res.writeHead(404).end();
  });
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
      entries.push({ kind, id, leaf: leafDataOf(signed) });
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
    seal(key: SigningKey, id: string, publicId: string, owner: string, round: number) {
      const body = {
        type: 'tyche-seal-v2',
        seal_id: id,
        giveaway: { public_id: publicId, owner },
        beacon: { round },
      };
      this.push('seal', id, sealCertificate(body, key));
    },
    showSize(size: number | undefined) {
      shownSize = size;
    },
  };
}

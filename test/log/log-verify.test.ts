import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.ts';
import {
  createSigningKey,
  type SigningKey,
  sealCertificate,
  signingKeyFromSecret,
} from '../../src/giveaways/certificate-crypto.ts';
import { signCheckpoint } from '../../src/proof/checkpoint.ts';
import { toBase64 } from '../../src/proof/hex.ts';
import { keyEntryBody, leafDataOf } from '../../src/proof/log-entry.ts';
import { leafHash, rootOfNodes } from '../../src/proof/merkle.ts';
import { verifierKey } from '../../src/proof/note.ts';
import { draw, readyGiveaway } from '../giveaways/giveaway-helpers.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

async function tyche(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const stateEnv = () => ({ XDG_STATE_HOME: mkdtempSync(join(tmpdir(), 'tyche-state-')) });

describe('tyche log verify on a real log', () => {
  let t: TestApp;
  let url: string;
  before(async () => {
    t = await startTestApp();
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const key = await t.key();
    for (let i = 0; i < 3; i++) await draw(t, key, await readyGiveaway(t, key, 4, 1));
  });
  after(() => t.close());

  test('a clean log holds; the key and checkpoint are pinned; a later run checks against them', async () => {
    const env = stateEnv();
    const first = await tyche(['log', 'verify', `${url}/log`], env);
    assert.equal(first.code, 0, first.out + first.err);
    assert.match(first.out, /✓ Checkpoint: .* at size 4, signed by the log key \(pinned now, on first use\)/);
    assert.match(first.out, /✓ Tree: the 4 entries hash to the checkpoint's root/);
    assert.match(first.err, /entries 4\/4/);
    const key = await t.key();
    await draw(t, key, await readyGiveaway(t, key, 2, 1));
    const second = await tyche(['log', 'verify', url], env);
    assert.equal(second.code, 0, second.out);
    assert.match(
      second.out,
      /✓ Consistency with the newest checkpoint seen before \(size 4\): the log only grew/,
    );
  });

  test('--log-key pins explicitly; a key the server did not sign with fails the checkpoint', async () => {
    const stranger = verifierKey(t.services.transparency.origin, createSigningKey().publicKeyRaw);
    const res = await tyche(['log', 'verify', url, '--log-key', stranger], stateEnv());
    assert.equal(res.code, 1);
    assert.match(res.out, /✗ Checkpoint: /);
  });
});

/** A log served from memory, so a test can make it lie in exactly one way. */
function fakeLog(origin: string, logKey: SigningKey, logSeed: Uint8Array) {
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
  return {
    server,
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

describe('tyche log verify on a log that lies', () => {
  const seed = randomBytes(32);
  const logKey = signingKeyFromSecret(seed);
  const origin = '127.0.0.1/fake/log';
  let log: ReturnType<typeof fakeLog>;
  let url: string;
  const signer = createSigningKey();
  before(async () => {
    log = fakeLog(origin, logKey, seed);
    await new Promise<void>((resolve) => log.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(log.server.address() as { port: number }).port}`;
    log.announce(signer);
    log.seal(signer, 's_one', 'G1', 'owner_a', 100);
  });
  after(() => new Promise<void>((resolve) => log.server.close(() => resolve())));

  test('an honest start, then a seal by an unannounced key, two seals of one owner on a round, a retired key', async () => {
    const env = stateEnv();
    assert.equal((await tyche(['log', 'verify', url], env)).code, 0);

    const stranger = createSigningKey();
    log.seal(stranger, 's_two', 'G2', 'owner_b', 200);
    log.seal(signer, 's_three', 'G3', 'owner_a', 100);
    log.announce(signer, '2026-06-01T00:00:00.000Z');
    log.seal(signer, 's_four', 'G1', 'owner_c', 300);
    const res = await tyche(['log', 'verify', url], env);
    assert.equal(res.code, 1, res.out);
    assert.match(
      res.out,
      /✗ Entries: 2 broken, the first at index 2: seal s_two: signed by key "[0-9a-f]{16}", which no earlier entry announces/,
    );
    assert.match(res.out, /entry 5: seal s_four: signed by key [0-9a-f]{16}, retired earlier in the log/);
    assert.match(res.out, /owner owner_a sealed 2 giveaways on drand round 100: G1, G3/);
    assert.match(res.out, /giveaway G1 has 2 seals: s_one, s_four/);
  });

  test('a rolled-back log and a rewritten one fail against the checkpoint seen before', async () => {
    const env = stateEnv();
    assert.equal((await tyche(['log', 'verify', url], env)).code, 1, 'the findings above stay');
    const saved = join(mkdtempSync(join(tmpdir(), 'tyche-since-')), 'checkpoint.txt');
    writeFileSync(saved, await (await fetch(`${url}/log/checkpoint`)).text());
    log.showSize(2);
    const rolled = await tyche(['log', 'verify', url, '--since', saved], stateEnv());
    assert.equal(rolled.code, 1);
    assert.match(
      rolled.out,
      /✗ Consistency with .*checkpoint\.txt \(size 6\): the log shrank from 6 entries to 2: a rollback/,
    );
    log.showSize(undefined);
  });
});

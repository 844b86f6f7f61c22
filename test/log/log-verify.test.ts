import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.ts';
import { readPin } from '../../src/cli/verify/log-pin.ts';
import { signCheckpoint } from '../../src/proof/checkpoint.ts';
import { keyEntryBody } from '../../src/proof/log-entry.ts';
import { verifierKey } from '../../src/proof/note.ts';
import type { Seal } from '../../src/proof/v2-types.ts';
import {
  createSigningKey,
  type SigningKey,
  sealCertificate,
  signingKeyFromSecret,
} from '../../src/signing/certificate-crypto.ts';
import { addParticipants, draw, people, readyGiveaway } from '../giveaways/giveaway-helpers.ts';
import {
  createVerifiable,
  seal,
  startVerifiableApp,
  type VerifiableApp,
} from '../giveaways/verifiable-helpers.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { freshState } from '../helpers/cli.ts';
import { fakeLog } from '../helpers/fake-log.ts';

async function tyche(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const announcement = (key: SigningKey) =>
  keyEntryBody({ kid: key.kid, publicKey: key.publicKeyRaw, createdAt: '2026-01-01T00:00:00.000Z' });

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
    const env = freshState();
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
    const res = await tyche(['log', 'verify', url, '--log-key', stranger], freshState());
    assert.equal(res.code, 1);
    assert.match(res.out, /✗ Checkpoint: /);
  });
});

describe('tyche log verify on a real log of verifiable draws', () => {
  let t: VerifiableApp;
  let url: string;
  before(async () => {
    t = await startVerifiableApp();
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  const sealed = async (key: string) => {
    const id = await createVerifiable(t, key);
    await addParticipants(t, key, id, people(5));
    const res = await seal(t, key, id);
    assert.equal(res.statusCode, 200, res.body);
    return { id, seal: res.json().seal as Seal };
  };

  test('seals and their certificates hold; one owner sealing twice on one round is reported', async () => {
    const key = await t.key();
    const first = await sealed(key);
    t.reachRound(first.seal.beacon.round);
    await t.runner.runDue();
    const g = await t.app.inject({ url: `/g/${first.id}.json` });
    assert.equal(typeof g.json().certificate_log_index, 'number', 'the draw was logged');
    const env = freshState();
    const clean = await tyche(['log', 'verify', url], env);
    assert.equal(clean.code, 0, clean.out);
    assert.match(clean.out, /✓ Entries: every entry is canonical/);
    assert.match(clean.out, /✓ Monitoring: no giveaway sealed twice/);

    const [a, b] = [await sealed(key), await sealed(key)];
    assert.equal(a.seal.beacon.round, b.seal.beacon.round, 'both seals commit to one round');
    const res = await tyche(['log', 'verify', url], env);
    assert.equal(res.code, 1, res.out);
    assert.match(res.out, /✓ Entries: /);
    assert.ok(
      res.out.includes(
        `owner ${a.seal.giveaway.owner} sealed 2 giveaways on drand round ${a.seal.beacon.round}: ${a.id}, ${b.id}`,
      ),
      res.out,
    );
  });
});

describe('tyche log verify on a log that lies', () => {
  const seed = randomBytes(32);
  const logKey = signingKeyFromSecret(seed);
  const origin = '127.0.0.1/fake/log';
  const signer = createSigningKey();
  const opened: ReturnType<typeof fakeLog>[] = [];
  /** A fresh honest log of one announcement and one seal, on its own port. */
  async function honestLog() {
    const log = fakeLog(origin, logKey, seed);
    opened.push(log);
    log.announce(signer);
    log.seal(signer, 's_one', 'G1', 'owner_a', 100);
    return { log, url: await log.listen() };
  }
  after(() => Promise.all(opened.map((log) => log.close())));

  test('a seal by an unannounced key, two seals of one owner on a round, a retired key, a giveaway sealed twice', async () => {
    const { log, url } = await honestLog();
    const env = freshState();
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
      new RegExp(
        `✗ Entries: 2 broken, the first at index 2: seal s_two: signed by key "${stranger.kid}", which no earlier entry announces`,
      ),
    );
    assert.match(
      res.out,
      new RegExp(`entry 5: seal s_four: signed by key ${signer.kid}, retired earlier in the log`),
    );
    assert.match(res.out, /owner owner_a sealed 2 giveaways on drand round 100: G1, G3/);
    assert.match(res.out, /giveaway G1 has 2 seals: s_one, s_four/);
    assert.match(res.out, /✓ Consistency with the newest checkpoint seen before \(size 2\)/);

    const json = await tyche(['log', 'verify', url, '--json'], env);
    const report = JSON.parse(json.out);
    assert.equal(report.valid, false);
    assert.deepEqual(
      report.findings
        .filter((f: { severity: string }) => f.severity === 'entry')
        .map((f: { index: number }) => f.index),
      [2, 5],
    );
  });

  test('a certificate over a seal the log does not hold, and an entry /log/entries labels as another kind, are named', async () => {
    const { log, url } = await honestLog();
    const logged = log.seal(signer, 's_two', 'G2', 'owner_b', 200);
    log.certificate(signer, 'c_good', logged);
    const unlogged = sealCertificate(
      { type: 'tyche-seal-v2', seal_id: 's_ghost', giveaway: {}, beacon: {} },
      signer,
    );
    log.certificate(signer, 'c_ghost', unlogged);
    log.push(
      'certificate',
      's_three',
      sealCertificate({ type: 'tyche-seal-v2', seal_id: 's_three' }, signer),
    );
    // Only /log/entries names an entry's kind; an entry bundle holds the entries alone.
    const res = await tyche(['log', 'verify', url, '--entries'], freshState());
    assert.equal(res.code, 1);
    assert.match(
      res.out,
      /✗ Entries: 2 broken, the first at index 4: certificate c_ghost draws from seal s_ghost, which the log does not hold as such/,
    );
    assert.match(res.out, /entry 5: it is logged as certificate but holds seal/);
    assert.match(res.out, /✓ Tree: the 6 entries hash to the checkpoint's root/);
    const tiled = await tyche(['log', 'verify', url], freshState());
    assert.match(tiled.out, /✗ Entries: 1 broken, the first at index 4: certificate c_ghost/);
    assert.match(tiled.out, /✓ Tiles: the 1 hash tiles of size 6 are the tree's/);
  });

  test("a checkpoint under another key, and one whose root is not the entries', fail and pin nothing", async () => {
    const { log, url } = await honestLog();
    const env = freshState();
    const otherSeed = randomBytes(32);
    const packedRoot = (await fetch(`${url}/log/checkpoint`).then((r) => r.text())).split('\n')[2];
    log.showCheckpoint(
      signCheckpoint({ origin, size: 2, root: Buffer.from(packedRoot, 'base64') }, otherSeed),
    );
    const forged = await tyche(['log', 'verify', url], env);
    assert.equal(forged.code, 1);
    assert.match(forged.out, /✗ Checkpoint: /);
    assert.doesNotMatch(forged.err, /entries /, 'nothing is downloaded under a forged checkpoint');

    log.showCheckpoint(signCheckpoint({ origin, size: 2, root: new Uint8Array(32).fill(7) }, seed));
    const lying = await tyche(['log', 'verify', url], env);
    assert.equal(lying.code, 1);
    assert.match(lying.out, /✗ Tree: the 2 entries do not hash to the checkpoint's root/);
    assert.equal(readPin(env, origin), undefined, 'a log that fails is not pinned on first use');
    log.showCheckpoint(undefined);
  });

  test('a rolled-back log fails against --since and against the pinned checkpoint', async () => {
    const { log, url } = await honestLog();
    log.seal(signer, 's_two', 'G2', 'owner_b', 200);
    const env = freshState();
    assert.equal((await tyche(['log', 'verify', url], env)).code, 0);
    const saved = join(freshState().XDG_STATE_HOME, 'checkpoint.txt');
    writeFileSync(saved, await (await fetch(`${url}/log/checkpoint`)).text());
    log.showSize(2);
    const rolled = await tyche(['log', 'verify', url, '--since', saved], freshState());
    assert.equal(rolled.code, 1);
    assert.match(
      rolled.out,
      /✗ Consistency with .*checkpoint\.txt \(size 3\): the log shrank from 3 entries to 2: a rollback/,
    );
    const pinned = await tyche(['log', 'verify', url], env);
    assert.equal(pinned.code, 1);
    assert.match(
      pinned.out,
      /✗ Consistency with the newest checkpoint seen before \(size 3\): the log shrank/,
    );
    assert.match(readPin(env, origin)?.checkpoint ?? '', /\n3\n/, 'the pin keeps the larger checkpoint');
    log.showSize(undefined);
  });

  test('history rewritten under the log key fails against the checkpoint seen before', async () => {
    const { log, url } = await honestLog();
    log.seal(signer, 's_two', 'G2', 'owner_b', 200);
    const env = freshState();
    assert.equal((await tyche(['log', 'verify', url], env)).code, 0);
    const key = createSigningKey();
    log.rewrite(1, 'key', key.kid, sealCertificate(announcement(key), logKey));
    log.seal(signer, 's_three', 'G3', 'owner_c', 300);
    const res = await tyche(['log', 'verify', url], env);
    assert.equal(res.code, 1);
    assert.match(res.out, /✓ Tree: the 4 entries hash to the checkpoint's root/);
    assert.match(
      res.out,
      /✗ Consistency with the newest checkpoint seen before \(size 3\): the first 3 entries do not hash to the root of the checkpoint of size 3: the log was rewritten/,
    );
  });

  test('entries that hold beside a consistency proof that does not: the proof is named', async () => {
    const { log, url } = await honestLog();
    const env = freshState();
    assert.equal((await tyche(['log', 'verify', url, '--entries'], env)).code, 0);
    log.seal(signer, 's_two', 'G2', 'owner_b', 200);
    log.showProof(['00'.repeat(32)]);
    const res = await tyche(['log', 'verify', url, '--entries'], env);
    assert.equal(res.code, 1);
    assert.match(
      res.out,
      /✗ Consistency with the newest checkpoint seen before \(size 2\): the entries hold, but the server's consistency proof from size 2 to 3 does not verify/,
    );
    const tiled = await tyche(['log', 'verify', url], env);
    assert.equal(tiled.code, 0, tiled.out);
    assert.match(
      tiled.out,
      /✓ Consistency with the newest checkpoint seen before \(size 2\): the log only grew/,
    );
    log.showProof(undefined);
    assert.equal((await tyche(['log', 'verify', url, '--entries'], env)).code, 0);
  });

  test('a server that shows another log key than the pinned one, or --log-key against the pin, fails', async () => {
    const { log, url } = await honestLog();
    const env = freshState();
    assert.equal((await tyche(['log', 'verify', url], env)).code, 0);
    const other = verifierKey(origin, createSigningKey().publicKeyRaw);
    log.showKey(other);
    const swapped = await tyche(['log', 'verify', url], env);
    assert.equal(swapped.code, 1);
    assert.match(
      swapped.out,
      /✗ Log key: the server's log key is not the one pinned for 127\.0\.0\.1\/fake\/log/,
    );
    const given = await tyche(['log', 'verify', url, '--log-key', other], env);
    assert.equal(given.code, 1);
    assert.match(given.out, /✗ Log key: --log-key differs from the key pinned/);
    log.showKey(undefined);
    assert.equal((await tyche(['log', 'verify', `${url}/log/`], env)).code, 0, 'the log URL form works too');
  });

  test('one list sealed under several owners on one round is reported by root, count and title', async () => {
    const { log, url } = await honestLog();
    const env = freshState();
    const list = { count: 7, root: 'ab'.repeat(32) };
    log.seal(signer, 's_clone_a', 'GA', 'owner_a', 500, { title: 'iPhone', entrants: list });
    log.seal(signer, 's_clone_b', 'GB', 'owner_b', 500, { title: 'iPhone', entrants: list });
    log.seal(signer, 's_other', 'GC', 'owner_c', 500, {
      title: 'Car',
      entrants: { count: 3, root: 'cd'.repeat(32) },
    });
    log.seal(signer, 's_later', 'GD', 'owner_d', 501, { title: 'iPhone', entrants: list });
    const res = await tyche(['log', 'verify', url], env);
    assert.equal(res.code, 1, res.out);
    assert.match(res.out, /✓ Entries: /);
    assert.match(res.out, /✗ Monitoring: 3 findings/);
    const pair = String.raw`GA \(owner owner_a\), GB \(owner owner_b\)`;
    assert.match(
      res.out,
      new RegExp(
        `different owners on drand round 500 share their entrant root "${list.root}": ${pair}$`,
        'm',
      ),
    );
    assert.match(res.out, new RegExp(`drand round 500 share their entrant count 7: ${pair}$`, 'm'));
    assert.match(res.out, new RegExp(`drand round 500 share their title "iPhone": ${pair}$`, 'm'));
    assert.doesNotMatch(
      res.out,
      /GC|GD/,
      'another list on the round, or the same list on another round, is not a clone',
    );
  });

  test("tiles refused for a while (429) are asked for again after the server's Retry-After", async () => {
    const { log, url } = await honestLog();
    log.refuseTiles(3);
    const res = await tyche(['log', 'verify', url], freshState());
    assert.equal(res.code, 0, res.out + res.err);
    log.refuseTiles(10);
    const refused = await tyche(['log', 'verify', url], freshState());
    assert.equal(refused.code, 3);
    assert.match(refused.err, /tile\/entries\/000\.p\/2 answered 429/);
    log.refuseTiles(0);
  });

  test('a log that cannot be read exits 3', async () => {
    const { log, url } = await honestLog();
    await log.close();
    opened.pop();
    const res = await tyche(['log', 'verify', url], freshState());
    assert.equal(res.code, 3);
    assert.match(res.err, /tyche log verify: cannot reach /);
  });
});

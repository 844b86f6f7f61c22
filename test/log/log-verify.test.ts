import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.ts';
import { createSigningKey, signingKeyFromSecret } from '../../src/giveaways/certificate-crypto.ts';
import { verifierKey } from '../../src/proof/note.ts';
import { draw, readyGiveaway } from '../giveaways/giveaway-helpers.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { fakeLog } from '../helpers/fake-log.ts';

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

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createSigningKey } from '../../src/giveaways/certificate-crypto.ts';
import { readLogKey, seedOf } from '../../src/log/log-key.ts';
import { pinFile, readPin, writePin } from '../../src/log/log-pin.ts';
import { parseCheckpoint, signCheckpoint } from '../../src/proof/checkpoint.ts';
import { parseNote, verifierKey } from '../../src/proof/note.ts';
import { openStore } from '../../src/store/store.ts';
import { freshState } from '../helpers/cli.ts';
import { type DrawnServer, startDrawnServer } from './v2-server.ts';

/**
 * The log checks of `tyche verify` and tyche-verify.mjs: the key pinned on first use, a later
 * run held to the checkpoint seen before, and each way a server can lie about its log refused by
 * both verifiers alike.
 */
describe('tyche verify checks the transparency log', () => {
  let s: DrawnServer;
  let chain: string[];
  before(async () => {
    s = await startDrawnServer();
    chain = ['--drand-chain', s.file('chain.json')];
  });
  after(() => s?.stop());

  const both = async (args: string[], env: Record<string, string>) => {
    const { cli, mjs } = await s.both([s.drawn.verifyUrl, ...chain, ...args], env);
    assert.equal(cli.code, mjs.code, `${cli.stdout}\n---\n${mjs.stdout}`);
    return { code: cli.code, out: cli.stdout, mjsOut: mjs.stdout };
  };

  test('pinned on first use, then held to the checkpoint seen before', async () => {
    const env = freshState();
    const first = await both([], env);
    assert.equal(first.code, 0, first.out);
    // Both verifiers share the state: whichever ran first pinned the key.
    assert.match(
      `${first.out}${first.mjsOut}`,
      /^✓ Log checkpoint: .* signed by the log key \(pinned now, on first use\)$/m,
    );
    const origin = parseCheckpoint(
      parseNote(readPin(env, new URL(s.server.url).host + '/log')!.checkpoint).text,
    ).origin;
    assert.ok(pinFile(env, origin).startsWith(join(env.XDG_STATE_HOME, 'tyche', 'logs')));
    const again = await both([], env);
    assert.equal(again.code, 0, again.out);
    assert.match(again.out, /^✓ Log checkpoint: .*\(pinned earlier\)$/m);
    assert.match(again.out, /^✓ Log consistency: the log only grew since size \d+, seen before$/m);
  });

  test('a look-alike server with its own log key, and a key other than the pinned one, are refused', async () => {
    const origin = `${new URL(s.server.url).host}/log`;
    const stranger = verifierKey(origin, createSigningKey().publicKeyRaw);
    const lookAlike = await both(['--log-key', stranger], freshState());
    assert.equal(lookAlike.code, 1);
    assert.match(lookAlike.out, /^✗ Log checkpoint: /m);
    assert.match(lookAlike.mjsOut, /^✗ Log checkpoint: /m);

    const env = freshState();
    assert.equal((await both([], env)).code, 0);
    const changed = await both(['--log-key', stranger], env);
    assert.equal(changed.code, 1);
    assert.match(changed.out, /^✗ Log key: --log-key differs from the key pinned for /m);
  });

  test('a log rolled back or rewritten since the checkpoint seen before fails', async () => {
    const store = openStore({ DATA_DIR: join(s.dir, 'data') });
    const logKey = await readLogKey(store.db);
    await store.close();
    const origin = `${new URL(s.server.url).host}/log`;
    const vkey = verifierKey(origin, logKey.publicKeyRaw);
    const seen = parseCheckpoint(
      parseNote(await (await fetch(`${s.server.url}/log/checkpoint`)).text()).text,
    );

    // A checkpoint the log really signed, of more entries than it now shows.
    const larger = freshState();
    const future = signCheckpoint(
      { origin, size: seen.size + 5, root: new Uint8Array(32).fill(1) },
      seedOf(logKey),
    );
    writePin(larger, { origin, log_key: vkey, checkpoint: future });
    const rolled = await both([], larger);
    assert.equal(rolled.code, 1);
    assert.match(
      rolled.out,
      /^✗ Log consistency: the log shrank from \d+ entries seen before to \d+: a rollback$/m,
    );

    // One of the same size but another root: the tree was rewritten.
    const other = freshState();
    const forked = signCheckpoint(
      { origin, size: seen.size, root: new Uint8Array(32).fill(2) },
      seedOf(logKey),
    );
    writePin(other, { origin, log_key: vkey, checkpoint: forked });
    const rewritten = await both([], other);
    assert.equal(rewritten.code, 1);
    assert.match(
      rewritten.mjsOut,
      /^✗ Log consistency: the log at size \d+ is not an extension of the one seen before/m,
    );
  });
});

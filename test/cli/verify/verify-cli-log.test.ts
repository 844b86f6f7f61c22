import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pinFile, readPin, writePin } from '../../../src/cli/verify/log-pin.ts';
import { readLogKey, seedOf } from '../../../src/log/log-key.ts';
import { parseCheckpoint, signCheckpoint } from '../../../src/proof/checkpoint.ts';
import { parseNote, verifierKey } from '../../../src/proof/note.ts';
import { createSigningKey } from '../../../src/signing/certificate-crypto.ts';
import { openStore } from '../../../src/store/store.ts';
import { pageLogChecks, pageSealLogChecks, WITNESS_KEYS_ITEM } from '../../../src/web/log-page-check.ts';
import { freshState } from '../../helpers/cli.ts';
import { type DrawnServer, startDrawnServer } from '../../helpers/v2-server.ts';

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

  test("the /g page names the seal's and the certificate's log entries", async () => {
    const g = await (await fetch(`${s.server.url}/g/${s.drawn.publicId}.json`)).json();
    const cert = await (await fetch(`${s.drawn.verifyUrl}.json`)).json();
    assert.equal(g.log_index, cert.seal_log_index);
    assert.equal(g.certificate_log_index, cert.log_index);
    const page = await (await fetch(`${s.server.url}/g/${s.drawn.publicId}`)).text();
    for (const index of [g.log_index, g.certificate_log_index]) {
      assert.ok(
        page.includes(
          `<a href="/log/entries?start=${index}&amp;end=${index + 1}">entry ${index} of /log</a>`,
        ),
        String(index),
      );
    }
  });

  test('a server showing its own log key to a verifier that pinned another is refused', async () => {
    const origin = `${new URL(s.server.url).host}/log`;
    const env = freshState();
    const stranger = verifierKey(origin, createSigningKey().publicKeyRaw);
    writePin(env, { origin, log_key: stranger, checkpoint: '' });
    const run = await both([], env);
    assert.equal(run.code, 1);
    for (const out of [run.out, run.mjsOut]) {
      assert.match(
        out,
        /^✗ Log key: the server's log key is not the one pinned for .*: this is not the log seen before$/m,
      );
    }
    assert.equal(readPin(env, origin)?.log_key, stranger, 'the pin is kept');
  });

  test('a signing key whose announcement the server hides is not taken from the keys document', async () => {
    // The server's own answers, except a keys document that lists no log entry for any key.
    const proxy = await forward(s.server.url, (path, body) => {
      if (!path.startsWith('/.well-known/tyche-keys.json')) return body;
      const doc = JSON.parse(body);
      for (const key of doc.keys) key.log_indices = [];
      return JSON.stringify(doc);
    });
    try {
      const url = s.drawn.verifyUrl.replace(s.server.url, proxy.url);
      const run = await s.both([url, ...chain], freshState());
      assert.equal(run.cli.code, 1, run.cli.stdout);
      assert.equal(run.mjs.code, 1, run.mjs.stdout);
      for (const out of [run.cli.stdout, run.mjs.stdout]) {
        assert.match(
          out,
          /^✗ Signing key in the log \(seal\): key [0-9a-f]{16} is not announced in the log before entry \d+$/m,
        );
        assert.match(out, /^✗ Signing key in the log \(certificate\): key [0-9a-f]{16} is not announced/m);
        assert.match(out, /^✓ Certificate signature: /m, 'the keys document alone still verifies it');
      }
    } finally {
      await proxy.close();
    }
  });

  test("the page's check: the key remembered per origin, the checkpoint seen before, witnesses typed by the visitor", async () => {
    const items = new Map<string, string>();
    const realFetch = globalThis.fetch;
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      value: {
        getItem: (k: string) => items.get(k) ?? null,
        setItem: (k: string, v: string) => items.set(k, v),
      },
    });
    // The page fetches paths of its own origin.
    globalThis.fetch = (input, init) => realFetch(new URL(String(input), s.server.url), init);
    try {
      const doc = await (await realFetch(`${s.drawn.verifyUrl}.json`)).json();
      const keys = await (await realFetch(`${s.server.url}/.well-known/tyche-keys.json`)).json();
      const first = await pageLogChecks(doc, keys);
      // No witness: the seal's time is the operator's word, a warning and not a pass.
      assert.deepEqual(
        first.filter((c) => c.state !== 'ok'),
        [{ label: 'Seal time', state: 'warn', detail: 'seal time attested by the operator only' }],
      );
      assert.match(first[0].detail, /\(pinned now, on first use\)$/);
      const pinned = [...items.keys()].filter((k) => k.startsWith('tyche-log-pin:'));
      assert.equal(pinned.length, 1);

      // The receipt page before the draw: the seal alone, at the giveaway's log index.
      const sealOnly = await pageSealLogChecks({ log_index: doc.seal_log_index }, doc.seal, undefined, keys);
      assert.deepEqual(
        sealOnly.map((c) => [c.label, c.state]),
        [
          ['Log checkpoint', 'ok'],
          ['Log consistency', 'ok'],
          ['Log inclusion (seal)', 'ok'],
          ['Signing key in the log (seal)', 'ok'],
          ['Seal time', 'warn'],
        ],
      );

      const again = await pageLogChecks(doc, keys);
      assert.ok(again.some((c) => c.label === 'Log consistency' && c.state === 'ok'));
      assert.equal(again.at(-1)?.detail, 'seal time attested by the operator only');

      items.set(WITNESS_KEYS_ITEM, 'not a key');
      const badWitness = await pageLogChecks(doc, keys);
      assert.equal(badWitness.find((c) => c.label === 'Seal witnesses')?.state, 'bad');
      items.delete(WITNESS_KEYS_ITEM);

      // ?require_outside=N in the page's address turns the warning into a failure.
      for (const [search, state, detail] of [
        [
          '?require_outside=1',
          'bad',
          /^seal time attested by the operator only, and 1 outside attestation is required$/,
        ],
        ['?require_outside=0', 'warn', /^seal time attested by the operator only$/],
        ['?require_outside=lots', 'bad', /^\?require_outside: "lots" is not a whole number/],
      ] as const) {
        Object.defineProperty(globalThis, 'location', { configurable: true, value: { search } });
        const required = (await pageLogChecks(doc, keys)).at(-1)!;
        assert.equal(required.label, 'Seal time', search);
        assert.equal(required.state, state, search);
        assert.match(required.detail, detail, search);
      }
      Object.defineProperty(globalThis, 'location', {
        configurable: true,
        value: { search: '?require_outside=2' },
      });
      const sealRequired = await pageSealLogChecks(
        { log_index: doc.seal_log_index },
        doc.seal,
        undefined,
        keys,
      );
      assert.equal(sealRequired.at(-1)?.state, 'bad');
      Reflect.deleteProperty(globalThis, 'location');

      const other = {
        ...keys,
        log: { ...keys.log, key: verifierKey(keys.log.origin, createSigningKey().publicKeyRaw) },
      };
      const lookAlike = await pageLogChecks(doc, other);
      assert.deepEqual(
        lookAlike.map((c) => [c.label, c.state]),
        [
          ['Log key', 'bad'],
          ['Seal time', 'warn'],
        ],
      );

      const pin = JSON.parse(items.get(pinned[0])!);
      const seen = parseCheckpoint(parseNote(pin.checkpoint).text);
      const store = openStore({ DATA_DIR: join(s.dir, 'data') });
      const logKey = await readLogKey(store.db);
      await store.close();
      const future = signCheckpoint(
        { origin: seen.origin, size: seen.size + 3, root: seen.root },
        seedOf(logKey),
      );
      items.set(pinned[0], JSON.stringify({ ...pin, checkpoint: future }));
      const rolled = await pageLogChecks(doc, keys);
      assert.ok(
        rolled.some(
          (c) => c.label === 'Log consistency' && c.state === 'bad' && /a rollback$/.test(c.detail),
        ),
      );

      const { log_index: _, seal_log_index: __, ...unlogged } = doc;
      assert.deepEqual(
        (await pageLogChecks(unlogged, keys)).map((c) => c.state),
        ['note', 'warn'],
      );
    } finally {
      globalThis.fetch = realFetch;
      Reflect.deleteProperty(globalThis, 'localStorage');
      Reflect.deleteProperty(globalThis, 'location');
    }
  });
});

/** A server that answers as `upstream` does, with some bodies rewritten. */
async function forward(upstream: string, rewrite: (path: string, body: string) => string) {
  const server: Server = createServer(async (req, res) => {
    const answer = await fetch(`${upstream}${req.url}`);
    const body = rewrite(req.url ?? '/', await answer.text());
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

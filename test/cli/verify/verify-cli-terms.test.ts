import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { publicJwk } from '../../../src/signing/certificate-crypto.ts';
import { API, addParticipants, createGiveaway, draw, people } from '../../giveaways/giveaway-helpers.ts';
import {
  createVerifiable,
  seal,
  startVerifiableApp,
  type VerifiableApp,
} from '../../giveaways/verifiable-helpers.ts';
import { bearer } from '../../helpers/app.ts';
import { EXAMPLE_KEY, sampleCertificateV2 } from '../../helpers/certificates-v2.ts';
import { freshState, runTyche } from '../../helpers/cli.ts';
import { downloadVerifier, olderNode, runStandalone } from '../../helpers/standalone-verifier.ts';
import { storeTargets } from '../../helpers/stores.ts';

const TERMS = 'One entry per person.\nWinners claim within 3 days — or the next reserve wins. 🎁';

for (const target of await storeTargets()) {
  /**
   * CONTRACT §14: `tyche verify --terms FILE` hashes the file and compares it with the seal's
   * `giveaway.terms_sha256`, naming each way it can fail; seals made before terms were committed
   * still verify, and say that they commit to nothing about terms.
   */
  describe(`tyche verify --terms (${target.dialect})`, { skip: target.skip }, () => {
    let t: VerifiableApp;
    let url: string;
    let dir: string;
    let key: string;
    const file = (name: string, content: string | Uint8Array) => {
      writeFileSync(join(dir, name), content);
      return join(dir, name);
    };
    const drawn: Record<'terms' | 'none', { id: string; verify: string }> = {} as never;

    /** A verifiable giveaway, sealed and drawn on the fake chain. */
    async function drawnWith(body: Record<string, unknown>) {
      const id = await createVerifiable(t, key, { winners_count: 1, reserve_count: 1, ...body });
      await addParticipants(t, key, id, people(4));
      const sealed = await seal(t, key, id);
      assert.equal(sealed.statusCode, 200, sealed.body);
      t.reachRound(sealed.json().seal.beacon.round);
      await t.runner.runDue();
      const got = (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json();
      assert.equal(got.status, 'completed');
      return { id, verify: `${url}/verify/${got.certificate_id}` };
    }

    const verify = (args: string[]) =>
      runTyche(['verify', ...args, '--drand-chain', join(dir, 'chain.json')], freshState());

    before(async () => {
      t = await startVerifiableApp({ dialect: target.dialect });
      key = await t.key();
      url = await t.app.listen({ host: '127.0.0.1', port: 0 });
      dir = mkdtempSync(join(tmpdir(), 'tyche-terms-'));
      file('chain.json', JSON.stringify(t.drand.info));
      drawn.terms = await drawnWith({ terms: TERMS });
      drawn.none = await drawnWith({});
    });
    after(async () => {
      await t?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('the terms as published pass; the heading of the check names the file', async () => {
      // What a reader saves: the "terms" member of /g/{public_id}.json, byte for byte.
      const published = (await (await fetch(`${url}/g/${drawn.terms.id}.json`)).json()).terms;
      const good = file('terms.txt', published);
      const run = await verify([drawn.terms.verify, '--terms', good]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(
        run.stdout,
        new RegExp(
          `^✓ Terms: SHA-256 of ${good} \\(${Buffer.byteLength(TERMS)} bytes\\) is the seal's terms_sha256: these are the terms the seal committed to$`,
          'm',
        ),
      );
      const json = JSON.parse((await verify([drawn.terms.verify, '--terms', good, '--json'])).stdout);
      assert.equal(json.valid, true);
      assert.equal(json.checks.find((c: { id: string }) => c.id === 'terms').ok, true);

      // Without --terms, a seal that commits to terms says how to check them.
      const hint = await verify([drawn.terms.verify]);
      assert.equal(hint.code, 0, hint.stdout);
      assert.match(
        hint.stdout,
        /^- Terms: not checked; the seal commits to terms with SHA-256 [0-9a-f]{64}: pass --terms FILE/m,
      );
    });

    test('other terms fail by name; a near miss says what differs', async () => {
      const other = file('other.txt', TERMS.replace('3 days', '30 days'));
      const run = await verify([drawn.terms.verify, '--terms', other]);
      assert.equal(run.code, 1, run.stdout);
      assert.match(
        run.stdout,
        /^✗ Terms: the file's SHA-256 is [0-9a-f]{64}, the seal's terms_sha256 is [0-9a-f]{64}: these are not the terms the seal committed to$/m,
      );
      assert.match(run.stdout, /\nINVALID: 1 of \d+ checks failed\.\n$/);

      const trailing = await verify([drawn.terms.verify, '--terms', file('newline.txt', `${TERMS}\n`)]);
      assert.equal(trailing.code, 1);
      assert.match(
        trailing.stdout,
        /^✗ Terms: .*\(the file matches without its final line break: save the terms exactly as published/m,
      );
      const crlf = await verify([
        drawn.terms.verify,
        '--terms',
        file('crlf.txt', TERMS.replaceAll('\n', '\r\n')),
      ]);
      assert.match(crlf.stdout, /^✗ Terms: .*\(the file matches with LF line breaks instead of CRLF/m);
      const bom = await verify([
        drawn.terms.verify,
        '--terms',
        file('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TERMS)])),
      ]);
      assert.match(bom.stdout, /^✗ Terms: .*\(the file matches without its byte-order mark/m);
    });

    test('a seal that commits to no terms, an instant draw and a missing file are each named', async () => {
      const any = file('any.txt', TERMS);
      const none = await verify([drawn.none.verify, '--terms', any]);
      assert.equal(none.code, 1, none.stdout);
      assert.match(
        none.stdout,
        /^✗ Terms: the seal's terms_sha256 is null: this giveaway published no terms, so the file \(SHA-256 [0-9a-f]{64}\) is not its terms$/m,
      );
      assert.doesNotMatch((await verify([drawn.none.verify])).stdout, /Terms/, 'nothing to hint at');

      const instant = await createGiveaway(t, key, { title: 'Instant', winners_count: 1 });
      await addParticipants(t, key, instant, people(3));
      const certificateId = (await draw(t, key, instant)).json().certificate_id;
      const v1 = await verify([`${url}/verify/${certificateId}`, '--terms', any]);
      assert.equal(v1.code, 1, v1.stdout);
      assert.match(
        v1.stdout,
        /^✗ Terms: a tyche-draw-v1 certificate has no seal, so it commits to no terms$/m,
      );

      const missing = await verify([drawn.terms.verify, '--terms', join(dir, 'nowhere.txt')]);
      assert.equal(missing.code, 3);
      assert.match(missing.stderr, /cannot read the terms file .*nowhere\.txt/);
      const usage = await runTyche(['verify', '--result', any, '--terms', any], freshState());
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /--terms checks a draw, not a signed result/);
    });

    test("--receipt --terms checks the terms against the seal of the entrant's giveaway", async () => {
      const receipt = (
        await t.app.inject({
          url: `${API}/${drawn.terms.id}/entrants/${people(1)[0].telegram_id}/receipt`,
          headers: bearer(key),
        })
      ).json();
      const link = `${url}/g/${drawn.terms.id}/receipt#${receipt.telegram_id}.${receipt.salt}`;
      const good = await verify(['--receipt', link, '--terms', file('r.txt', TERMS)]);
      assert.equal(good.code, 0, good.stdout + good.stderr);
      assert.match(good.stdout, /^✓ Terms: SHA-256 of .* is the seal's terms_sha256/m);
      const bad = await verify(['--receipt', link, '--terms', file('r2.txt', 'Other rules')]);
      assert.equal(bad.code, 1);
      assert.match(bad.stdout, /^✗ Terms: the file's SHA-256 is /m);

      const open = await createVerifiable(t, key, { terms: TERMS });
      await addParticipants(t, key, open, people(2));
      const entrant = (
        await t.app.inject({
          url: `${API}/${open}/entrants/${people(1)[0].telegram_id}/receipt`,
          headers: bearer(key),
        })
      ).json();
      const early = await verify([
        '--receipt',
        `${url}/g/${open}/receipt#${entrant.telegram_id}.${entrant.salt}`,
        '--terms',
        file('r3.txt', TERMS),
      ]);
      assert.equal(early.code, 1, early.stdout);
      assert.match(
        early.stdout,
        /^✗ Terms: the giveaway is not sealed yet: no seal commits to its terms until entries close$/m,
      );
    });

    test('tyche-verify.mjs, on plain Node, checks --terms the same way', async () => {
      const standalone = await downloadVerifier(url);
      try {
        const node = olderNode();
        const args = (terms: string) => [
          drawn.terms.verify,
          '--drand-chain',
          join(dir, 'chain.json'),
          '--terms',
          terms,
        ];
        for (const [terms, code] of [
          [file('s-good.txt', TERMS), 0],
          [file('s-bad.txt', `${TERMS}\n`), 1],
        ] as const) {
          const [cli, mjs] = await Promise.all([
            verify([drawn.terms.verify, '--terms', terms]),
            runStandalone(node.path, standalone.file, args(terms), { cwd: standalone.dir }),
          ]);
          assert.equal(mjs.code, code, mjs.stdout + mjs.stderr);
          assert.equal(mjs.stdout, cli.stdout);
        }
      } finally {
        rmSync(standalone.dir, { recursive: true, force: true });
      }
    });

    test('a seal made before terms were committed still verifies, and --terms says why it cannot match', async () => {
      // The reference draw on quicknet round 657413: its seal has no terms_sha256 member at all.
      const certificate = sampleCertificateV2();
      assert.equal('terms_sha256' in certificate.seal.giveaway, false);
      const cert = file('old.json', JSON.stringify(certificate));
      const keys = file('keys.json', JSON.stringify({ keys: [publicJwk(EXAMPLE_KEY)] }));
      const plain = await runTyche(['verify', cert, '--keys', keys], freshState());
      assert.equal(plain.code, 0, plain.stdout + plain.stderr);
      assert.doesNotMatch(plain.stdout, /✗/);
      const run = await runTyche(
        ['verify', cert, '--keys', keys, '--terms', file('t.txt', TERMS)],
        freshState(),
      );
      assert.equal(run.code, 1, run.stdout);
      assert.match(
        run.stdout,
        /^✗ Terms: the seal has no terms_sha256: it was made before seals committed to terms, so no file can be checked against it$/m,
      );
      assert.equal((run.stdout.match(/^✗/gm) ?? []).length, 1, 'every other check still passes');
    });
  });
}

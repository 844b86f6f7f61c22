import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { readLogKey } from '../../../src/log/log-key.ts';
import type { SubmitToWitness } from '../../../src/log/witness-job.ts';
import { cosign, cosignerVerifierKey } from '../../../src/proof/cosignature.ts';
import { fromBase64 } from '../../../src/proof/hex.ts';
import { leafDataOf } from '../../../src/proof/log-entry.ts';
import { parseNote } from '../../../src/proof/note.ts';
import type { CertificateV2, Seal } from '../../../src/proof/v2-types.ts';
import { addParticipants, draw, people } from '../../giveaways/giveaway-helpers.ts';
import {
  createVerifiable,
  startVerifiableApp,
  type VerifiableApp,
} from '../../giveaways/verifiable-helpers.ts';
import { bearer } from '../../helpers/app.ts';
import { runTyche } from '../../helpers/cli.ts';
import { downloadVerifier, olderNode, runStandalone } from '../../helpers/standalone-verifier.ts';
import { storeTargets } from '../../helpers/stores.ts';
import { logWorld } from '../../proof/log-world.ts';
import { appendForgedDraw, type FrontAnswer, forgeDraw, front } from './forged-draw.ts';

/** A witness in memory that cosigns every checkpoint it is given, at the app's (fake) time. */
function cosigningWitness(name: string, now: () => number) {
  const seed = ed25519.utils.randomSecretKey();
  return {
    vkey: cosignerVerifierKey(name, ed25519.getPublicKey(seed)),
    submit: (async ({ note }) => {
      const { text } = parseNote(note);
      return { status: 'cosigned', signatures: [cosign(text, name, seed, Math.floor(now() / 1000))] };
    }) as SubmitToWitness,
  };
}

for (const target of await storeTargets()) {
  /**
   * A seal witnessed before its round, then the operator's answer after the round: the seal re-made
   * and drawn again with the service's own keys, re-logged by appending it or by rewriting the log.
   * `--witness` alone leaves the appended forgery VALID with a warning; `--require-outside 1` fails
   * it, and the witnesses' checkpoint fails the rewritten one whatever the reader requires.
   */
  describe(`tyche verify --require-outside, and witnesses the log must extend (${target.dialect})`, {
    skip: target.skip,
  }, () => {
    let t: VerifiableApp;
    let url: string;
    let dir: string;
    let witness: ReturnType<typeof cosigningWitness>;
    let genuine: CertificateV2 & { log_index: number; seal_witness?: { checkpoint: string; index: number } };
    let forged: { seal: Seal; certificate: CertificateV2 };
    let standalone: { dir: string; file: string };
    const node = olderNode();

    before(async () => {
      let now = () => Date.now();
      witness = cosigningWitness('witness.test/w', () => now());
      t = await startVerifiableApp({
        dialect: target.dialect,
        config: { TYCHE_WITNESSES: `http://127.0.0.1:9/w ${witness.vkey}` },
        submitToWitness: (request) => witness.submit(request),
      });
      now = () => t.clock.now().getTime();
      const key = await t.key();
      const id = await createVerifiable(t, key, { winners_count: 2, reserve_count: 1 });
      await addParticipants(t, key, id, people(12, 4_000));
      const { seal } = (await draw(t, key, id)).json() as { seal: Seal };
      await t.runner.runDue(); // the witness cosigns the checkpoint holding the seal, before the round
      t.reachRound(seal.beacon.round);
      await t.runner.runDue(); // the draw
      const g = (await t.app.inject({ url: `/api/v1/giveaways/${id}`, headers: bearer(key) })).json();
      assert.equal(g.status, 'completed');
      genuine = (await t.app.inject({ url: `/verify/${g.certificate_id}.json` })).json();
      assert.ok(genuine.seal_witness, 'the seal is witnessed before its round');

      const exported = await t.app.inject({
        url: `/api/v1/giveaways/${id}/entrants?limit=100`,
        headers: bearer(key),
      });
      forged = forgeDraw(genuine, exported.json().entrants, await t.services.signer.current());
      url = await t.app.listen({ host: '127.0.0.1', port: 0 });
      dir = mkdtempSync(join(tmpdir(), 'tyche-outside-'));
      writeFileSync(join(dir, 'chain.json'), JSON.stringify(t.drand.info));
      standalone = await downloadVerifier(url);
    });
    after(async () => {
      await t?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      if (standalone) rmSync(standalone.dir, { recursive: true, force: true });
    });

    /** `tyche verify` and tyche-verify.mjs on the same arguments: one verdict, one output. */
    async function both(verifyUrl: string, args: string[]): Promise<{ code: number | null; out: string }> {
      const all = [verifyUrl, '--drand-chain', join(dir, 'chain.json'), ...args];
      const [cli, mjs] = await Promise.all([
        runTyche(['verify', ...all], {}),
        runStandalone(node.path, standalone.file, all, { cwd: standalone.dir }),
      ]);
      const shown = `--- tyche verify\n${cli.stdout}${cli.stderr}--- tyche-verify.mjs\n${mjs.stdout}${mjs.stderr}`;
      assert.equal(mjs.code, cli.code, shown);
      assert.equal(mjs.stdout, cli.stdout, shown);
      return { code: cli.code, out: cli.stdout + cli.stderr };
    }

    const certUrl = (base: string) => `${base}/verify/${genuine.certificate_id}`;

    test('the witnessed seal: operator-proof, and enough for --require-outside 1 but not 2', async () => {
      const trusted = await both(certUrl(url), ['--witness', witness.vkey, '--require-outside', '1']);
      assert.equal(trusted.code, 0, trusted.out);
      assert.match(
        trusted.out,
        /^✓ Witnessed checkpoint: the seal is entry \d+ of the checkpoint at size \d+, which the log at size \d+ extends; cosigned by 1 witness you trust, 1 of them before the round$/m,
      );
      assert.match(trusted.out, /^✓ Seal witnesses: seal witnessed before the round by 1 witness$/m);
      assert.match(
        trusted.out,
        /^✓ Seal time: operator-proof: seal witnessed or timestamped before the round \(1 witness; 1 required\)$/m,
      );
      assert.match(trusted.out, /\nVALID: every check passed\.\n$/);

      const two = await both(certUrl(url), ['--witness', witness.vkey, '--require-outside', '2']);
      assert.equal(two.code, 1);
      assert.match(
        two.out,
        /^✗ Seal time: only 1 witness dated the seal before the round; 2 outside attestations are required$/m,
      );
      // A witness the reader does not trust counts for nothing.
      const untrusted = await both(certUrl(url), ['--require-outside', '1']);
      assert.equal(untrusted.code, 1);
      assert.match(untrusted.out, /none by a witness key you gave$/m);
      assert.match(
        untrusted.out,
        /^✗ Seal time: seal time attested by the operator only, and 1 outside attestation is required$/m,
      );
    });

    test('re-made after the round and re-logged by appending: VALID with a warning, unless --require-outside 1', async () => {
      const at = t.clock.now().getTime();
      const relogged = await appendForgedDraw(t, forged, at);
      // The forger has no witness from before the round for the new entry, so it shows none.
      const doc = { ...forged.certificate, ...relogged };
      const shown = await front(url, (u) =>
        u.pathname.endsWith(`/verify/${genuine.certificate_id}.json`) ? { json: doc } : undefined,
      );
      try {
        const lenient = await both(certUrl(shown.url), ['--witness', witness.vkey]);
        assert.equal(lenient.code, 0, lenient.out);
        assert.doesNotMatch(lenient.out, /^✗/m);
        assert.match(lenient.out, /^! Seal time: warning: seal time attested by the operator only$/m);
        assert.match(lenient.out, /\nVALID: no check failed, 1 with a warning \(Seal time\)\.\n$/);

        const strict = await both(certUrl(shown.url), ['--witness', witness.vkey, '--require-outside', '1']);
        assert.equal(strict.code, 1, strict.out);
        assert.match(
          strict.out,
          /^✗ Seal time: seal time attested by the operator only, and 1 outside attestation is required$/m,
        );
        assert.match(strict.out, /\nINVALID: 1 of \d+ checks failed\.\n$/);

        // Keeping the first seal's witnesses names the entry they saw, not this one.
        const kept = await front(url, (u) =>
          u.pathname.endsWith('.json') && u.pathname.includes('/verify/')
            ? { json: { ...doc, seal_witness: genuine.seal_witness } }
            : undefined,
        );
        try {
          const run = await both(certUrl(kept.url), ['--witness', witness.vkey]);
          assert.equal(run.code, 1);
          assert.match(
            run.out,
            new RegExp(
              `^✗ Witnessed checkpoint: the witnessed seal is entry ${genuine.seal_witness!.index}, not ${relogged.seal_log_index}$`,
              'm',
            ),
          );
        } finally {
          await kept.close();
        }
      } finally {
        await shown.close();
      }
    });

    test('re-logged by rewriting the log where the first seal was: the witnesses checkpoint fails its consistency', async () => {
      // The log as the service serves it, with the forged seal and certificate in place of the first ones.
      const keys = (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json();
      const head = (await t.app.inject({ url: '/log/checkpoint' })).body;
      const size = Number(parseNote(head).text.split('\n')[1]);
      const entries = (await t.app.inject({ url: `/log/entries?start=0&end=${size}` })).json().entries;
      const fork = logWorld(keys.log.origin, await readLogKey(t.store.db));
      const sealIndex = genuine.seal_witness!.index;
      const certIndex = genuine.log_index;
      for (const [i, e] of (entries as { leaf_data: string }[]).entries()) {
        const replaced = i === sealIndex ? forged.seal : i === certIndex ? forged.certificate : undefined;
        fork.leaves.push(replaced ? leafDataOf(replaced) : fromBase64(e.leaf_data)!);
      }
      const doc = {
        ...forged.certificate,
        log_index: certIndex,
        seal_log_index: sealIndex,
        seal_witness: genuine.seal_witness,
      };
      const answer = (u: URL): FrontAnswer => {
        const q = (name: string) => Number(u.searchParams.get(name));
        if (u.pathname === `/verify/${genuine.certificate_id}.json`) return { json: doc };
        if (u.pathname === '/log/checkpoint') return { text: fork.checkpoint() };
        if (u.pathname === '/log/proof/inclusion') {
          return {
            json: { index: q('index'), size: q('size'), proof: fork.inclusion(q('index'), q('size')) },
          };
        }
        if (u.pathname === '/log/proof/consistency') {
          const [first, second] = [q('first'), q('second')];
          return { json: { first, second, proof: fork.consistency(first, second) } };
        }
        return undefined;
      };
      const shown = await front(url, answer);
      try {
        // A first-time reader: nothing pinned, so only the witnesses' checkpoint can tell.
        for (const args of [['--witness', witness.vkey], []]) {
          const run = await both(certUrl(shown.url), args);
          assert.equal(run.code, 1, run.out);
          for (const label of ['Log checkpoint', 'Log inclusion \\(seal\\)', 'Seal signature', 'Winners']) {
            assert.match(run.out, new RegExp(`^✓ ${label}: `, 'm'), label);
          }
          assert.match(
            run.out,
            new RegExp(
              `^✗ Witnessed checkpoint: the log at size ${size} is not an extension of the checkpoint its witnesses cosigned at size \\d+: it was rewritten after they saw it$`,
              'm',
            ),
          );
          assert.match(run.out, /^! Seal time: warning: seal time attested by the operator only$/m);
        }
      } finally {
        await shown.close();
      }
    });

    test('--require-outside takes a whole number, and no signed result', async () => {
      const bad = await runTyche(['verify', certUrl(url), '--require-outside', 'all'], {});
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--require-outside: "all" is not a whole number of outside attestations/);
      const result = await runTyche(
        ['verify', '--result', join(dir, 'x.json'), '--require-outside', '1'],
        {},
      );
      assert.equal(result.code, 2);
      assert.match(result.stderr, /--require-outside checks a draw, not a signed result/);
    });
  });
}

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Amendment } from '../../../src/proof/amendments.ts';
import { sealCertificate } from '../../../src/signing/certificate-crypto.ts';
import { drawnGiveaway, replace } from '../../giveaways/amendment-helpers.ts';
import { startVerifiableApp, type VerifiableApp } from '../../giveaways/verifiable-helpers.ts';
import { freshState, runTyche } from '../../helpers/cli.ts';
import { downloadVerifier, olderNode, runStandalone } from '../../helpers/standalone-verifier.ts';
import { storeTargets } from '../../helpers/stores.ts';
import { front } from './forged-draw.ts';

type Published = Record<string, unknown> & { certificate_id: string; amendments: Amendment[] };

for (const target of await storeTargets()) {
  /**
   * CONTRACT §14: `tyche verify` and tyche-verify.mjs check a certificate's amendments — the chain,
   * the signatures, the reserve order and each amendment's entry in the log — and name what fails;
   * `tyche log verify` reports an amendment in the log that skipped a reserve, or a chain with a gap.
   */
  describe(`tyche verify and tyche log verify check amendments (${target.dialect})`, {
    skip: target.skip,
  }, () => {
    let t: VerifiableApp;
    let url: string;
    let dir: string;
    let standalone: { dir: string; file: string };
    let published: Published;
    const node = olderNode();

    before(async () => {
      t = await startVerifiableApp({ dialect: target.dialect });
      const key = await t.key();
      const { id, certificateId } = await drawnGiveaway(t, key, { winners: 2, reserves: 3, entrants: 10 });
      const first = await replace(t, key, id, 1, { reason: 'duplicate_account', note: 'Same phone as #2' });
      assert.equal(first.statusCode, 200, first.body);
      const second = await replace(t, key, id, 2, { reason: 'ineligible' });
      assert.equal(second.statusCode, 200, second.body);
      published = (await t.app.inject({ url: `/verify/${certificateId}.json` })).json();
      assert.equal(published.amendments.length, 2);
      url = await t.app.listen({ host: '127.0.0.1', port: 0 });
      dir = mkdtempSync(join(tmpdir(), 'tyche-amended-'));
      writeFileSync(join(dir, 'chain.json'), JSON.stringify(t.drand.info));
      standalone = await downloadVerifier(url);
    });
    after(async () => {
      await t?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      if (standalone) rmSync(standalone.dir, { recursive: true, force: true });
    });

    /** Both verifiers on the same arguments: one verdict, one output. */
    async function both(base: string): Promise<{ code: number | null; out: string }> {
      const args = [`${base}/verify/${published.certificate_id}`, '--drand-chain', join(dir, 'chain.json')];
      const [cli, mjs] = await Promise.all([
        runTyche(['verify', ...args], freshState()),
        runStandalone(node.path, standalone.file, args, { cwd: standalone.dir }),
      ]);
      const shown = `--- tyche verify\n${cli.stdout}${cli.stderr}--- tyche-verify.mjs\n${mjs.stdout}${mjs.stderr}`;
      assert.equal(mjs.code, cli.code, shown);
      assert.equal(mjs.stdout, cli.stdout, shown);
      return { code: cli.code, out: cli.stdout + cli.stderr };
    }

    /** The certificate JSON as a front serves it, with its amendments changed. */
    async function served(amendments: unknown[]) {
      const doc = { ...published, amendments };
      return front(url, (u) =>
        u.pathname.endsWith('.json') && u.pathname.startsWith('/verify/') ? { json: doc } : undefined,
      );
    }

    /** An amendment changed and signed again with the service's own key, as its operator could. */
    async function resigned(a: Amendment, change: Partial<Amendment>): Promise<Amendment> {
      const { hash: _h, signature: _s, ...body } = { ...a, ...change };
      return sealCertificate(body, await t.services.signer.current()) as Amendment;
    }

    test('a valid chain passes: every amendment checked and found in the log, the winners as amended printed', async () => {
      const run = await both(url);
      assert.equal(run.code, 0, run.out);
      assert.match(
        run.out,
        /^✓ Amendments: 2 amendments in sequence, each chained to the one before by its hash, signed by a published key, and taking the next unused reserve$/m,
      );
      assert.match(
        run.out,
        /^✓ Amended winners: the winners published as amended are the certificate's winners after 2 amendments$/m,
      );
      for (const n of [1, 2]) {
        assert.match(
          run.out,
          new RegExp(
            `^✓ Log inclusion \\(amendment ${n}\\): the amendment ${n} is entry \\d+ of the log of size \\d+$`,
            'm',
          ),
        );
        assert.match(run.out, new RegExp(`^✓ Signing key in the log \\(amendment ${n}\\): `, 'm'));
      }
      assert.match(
        run.out,
        /^Winners as amended:\n {2}#1 .*\n {2}#2 .*\nAmendments \(2\):\n {2}1\. \S+: #1 .* replaced by reserve 1, .*: duplicate account — note: "Same phone as #2"\n {2}2\. \S+: #2 .* replaced by reserve 2, .*: ineligible$/m,
      );
      assert.match(run.out, /\nVALID: /);
    });

    test('an altered signature fails by name, and the altered amendment is not the one in the log', async () => {
      const [first, second] = published.amendments;
      const value = first.signature.value;
      const altered = {
        ...first,
        signature: { ...first.signature, value: `${value[0] === 'A' ? 'B' : 'A'}${value.slice(1)}` },
      };
      const shown = await served([altered, second]);
      try {
        const run = await both(shown.url);
        assert.equal(run.code, 1, run.out);
        assert.match(
          run.out,
          /^✗ Amendment signature \(amendment 1\): does not verify under key \w+: the content is not what was signed$/m,
        );
        assert.match(
          run.out,
          /^✗ Log inclusion \(amendment 1\): the amendment 1: entry \d+ is not this object in the log of size \d+$/m,
        );
        assert.match(run.out, /\nINVALID: /);
      } finally {
        await shown.close();
      }
    });

    test('a substitute that skipped a reserve fails by name, even signed with the service key', async () => {
      const [first] = published.amendments;
      const { certificate } = {
        certificate: published as unknown as { reserves: { index: number; leaf_hash: string }[] },
      };
      const skip = certificate.reserves[1];
      const forged = await resigned(first, {
        by: { reserve_position: 2, index: skip.index, leaf_hash: skip.leaf_hash },
      });
      const shown = await served([forged]);
      try {
        const run = await both(shown.url);
        assert.equal(run.code, 1, run.out);
        assert.match(
          run.out,
          /^✗ Next unused reserve \(amendment 1\): the next unused reserve is reserve 1 \(index \d+\), not reserve 2 \(index \d+\)$/m,
        );
        assert.doesNotMatch(run.out, /^✗ Amendment signature/m);
      } finally {
        await shown.close();
      }
    });

    test('a broken previous hash fails by name', async () => {
      const [first, second] = published.amendments;
      const forged = await resigned(second, { previous: 'ab'.repeat(32) });
      const shown = await served([first, forged]);
      try {
        const run = await both(shown.url);
        assert.equal(run.code, 1, run.out);
        assert.match(
          run.out,
          new RegExp(
            `^✗ Amendment chain \\(amendment 2\\): previous is ${'ab'.repeat(32)}, expected ${first.hash}$`,
            'm',
          ),
        );
      } finally {
        await shown.close();
      }
    });

    test('tyche log verify reports an amendment in the log that skipped a reserve, and a chain with a gap', async () => {
      const env = freshState();
      const clean = await runTyche(['log', 'verify', url], env);
      assert.equal(clean.code, 0, clean.stdout + clean.stderr);
      assert.match(clean.stdout, /no amendment skipping a reserve or breaking its chain/);

      const [first, second] = published.amendments;
      const reserves = (published as unknown as { reserves: { index: number; leaf_hash: string }[] })
        .reserves;
      // A third amendment that takes the last reserve, skipping the one next in order; then one
      // numbered 5, leaving a gap after it.
      const skipping = await resigned(second, {
        amendment_id: `${second.amendment_id.slice(0, -1)}X`,
        sequence: 3,
        previous: second.hash,
        position: 1,
        replaced: { index: first.by.index, leaf_hash: first.by.leaf_hash },
        by: { reserve_position: 4, index: reserves[2].index, leaf_hash: reserves[2].leaf_hash },
      });
      const gap = await resigned(second, {
        amendment_id: `${second.amendment_id.slice(0, -1)}Y`,
        sequence: 5,
        previous: skipping.hash,
      });
      const at = t.clock.now().getTime();
      await t.store.db.transaction().execute(async (trx) => {
        for (const a of [skipping, gap])
          await t.services.transparency.appendSigned(trx, 'amendment', a.amendment_id, a, at);
      });
      const audit = await runTyche(['log', 'verify', url], env);
      const out = audit.stdout + audit.stderr;
      assert.equal(audit.code, 1, out);
      assert.match(
        out,
        new RegExp(
          `^ {4}giveaway \\w+: amendment ${skipping.amendment_id} \\(entry \\d+\\): Next unused reserve: the next unused reserve is reserve 3 \\(index ${reserves[2].index}\\), not reserve 4 `,
          'm',
        ),
      );
      assert.match(
        out,
        new RegExp(
          `^ {4}giveaway \\w+: amendment ${gap.amendment_id} \\(entry \\d+\\): Amendment sequence: sequence is 5, expected 4$`,
          'm',
        ),
      );
    });
  });
}

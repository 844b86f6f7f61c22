import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sha256 } from '../../../src/giveaways/draw/certificate.ts';
import { toBase64 } from '../../../src/proof/hex.ts';
import { SEAL_OPERATOR_ONLY, sealTimeCheck } from '../../../src/proof/outside-evidence.ts';
import { timestampImprint } from '../../../src/proof/timestamp/tsa-request.ts';
import type { CertificateV2, Seal } from '../../../src/proof/v2-types.ts';
import { verifyCertificate } from '../../../src/proof/verifier.ts';
import { API } from '../../giveaways/giveaway-helpers.ts';
import { seal } from '../../giveaways/verifiable-helpers.ts';
import { runTyche } from '../../helpers/cli.ts';
import { writeTsaTrust } from '../../helpers/fake-tsa.ts';
import { downloadVerifier, olderNode, runStandalone } from '../../helpers/standalone-verifier.ts';
import { storeTargets } from '../../helpers/stores.ts';
import { type StampedApp, startStampedApp, verifiableWith } from '../../timestamps/stamped-app.ts';
import { appendForgedDraw, forgeDraw, front } from './forged-draw.ts';

type Stamp = { tsa: string; gen_time: string; token: string };
type Published = CertificateV2 & {
  log_index: number;
  seal_timestamps: Stamp[];
  certificate_timestamps: Stamp[];
};

for (const target of await storeTargets()) {
  /**
   * The attack RFC 3161 tokens close (CONTRACT §13): the operator, with the database and the keys,
   * re-makes the seal after its round is public — a new seal for the same giveaway committing to
   * the same round, re-signed and re-logged — and draws again from it. The honest seal got its
   * tokens from the (fake) TSAs before the round; the re-made one can only get a token after it,
   * carry the honest seal's tokens, or carry none. Every verifier names why it fails.
   */
  describe(`a seal re-made after its round, against its timestamps (${target.dialect})`, {
    skip: target.skip,
  }, () => {
    let t: StampedApp;
    let url: string;
    let dir: string;
    let trust: string;
    let genuine: Published;
    let forged: { seal: Seal; certificate: CertificateV2 };
    let relogged: { log_index: number; seal_log_index: number };
    let late: Stamp;
    let standalone: { dir: string; file: string };
    let keys: unknown;
    const node = olderNode();

    before(async () => {
      t = await startStampedApp(target.dialect);
      const key = await t.key();
      const id = await verifiableWith(t, key, 8);
      const sealed = await seal(t, key, id);
      assert.equal(sealed.statusCode, 200, sealed.body);
      const round = (sealed.json().seal as Seal).beacon.round;
      t.clock.advance((t.drand.genesis + (round - 1) * t.drand.period) * 1000 + 1 - t.clock.now().getTime());
      await t.runner.runDue(); // the draw, and its certificate's tokens
      const g = (await t.get(`${API}/${id}`, key)).json();
      assert.equal(g.status, 'completed');
      genuine = (await t.app.inject({ url: `/verify/${g.certificate_id}.json` })).json();
      assert.equal(genuine.seal_timestamps.length, 2, 'both TSAs dated the honest seal before its round');

      // After the round: the forger re-makes the seal and the draw with the service's own key...
      const entrants = (await t.get(`${API}/${id}/entrants?limit=100`, key)).json().entrants;
      forged = forgeDraw(genuine, entrants, await t.services.signer.current());
      const at = t.clock.now().getTime();
      relogged = await appendForgedDraw(t, forged, at);
      // ...and asks a TSA for the new seal: it dates it now, after the round.
      const der = await t.tsas[0].ca.token({
        imprint: await timestampImprint(forged.seal.hash),
        genTime: t.clock.now(),
      });
      late = { tsa: t.tsas[0].url, gen_time: t.clock.now().toISOString(), token: toBase64(der) };

      url = await t.app.listen({ host: '127.0.0.1', port: 0 });
      dir = mkdtempSync(join(tmpdir(), 'tyche-stamped-'));
      writeFileSync(join(dir, 'chain.json'), JSON.stringify(t.drand.info));
      trust = writeTsaTrust(join(dir, 'tsa-roots.pem'), t.tsas);
      keys = (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json();
      standalone = await downloadVerifier(url);
    });
    after(async () => {
      await t?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      if (standalone) rmSync(standalone.dir, { recursive: true, force: true });
    });

    /** `tyche verify` and tyche-verify.mjs on the same arguments: one verdict, one output. */
    async function both(base: string, args: string[]): Promise<{ code: number | null; out: string }> {
      const all = [
        `${base}/verify/${genuine.certificate_id}`,
        '--drand-chain',
        join(dir, 'chain.json'),
        ...args,
      ];
      const [cli, mjs] = await Promise.all([
        runTyche(['verify', ...all], {}),
        runStandalone(node.path, standalone.file, all, { cwd: standalone.dir }),
      ]);
      const shown = `--- tyche verify\n${cli.stdout}${cli.stderr}--- tyche-verify.mjs\n${mjs.stdout}${mjs.stderr}`;
      assert.equal(mjs.code, cli.code, shown);
      assert.equal(mjs.stdout, cli.stdout, shown);
      return { code: cli.code, out: cli.stdout + cli.stderr };
    }

    /** The forged certificate served in place of the genuine one, re-logged, with `stamps` beside its seal. */
    async function withForged<T>(stamps: Stamp[], run: (base: string) => Promise<T>): Promise<T> {
      const doc = { ...forged.certificate, ...relogged, seal_timestamps: stamps, certificate_timestamps: [] };
      const shown = await front(url, (u) =>
        u.pathname === `/verify/${genuine.certificate_id}.json` ? { json: doc } : undefined,
      );
      try {
        return await run(shown.url);
      } finally {
        await shown.close();
      }
    }

    /** The page's check through the proof core: the report, then the verdict on the seal's time. */
    async function pageCheck(doc: unknown, required = 0) {
      const report = await verifyCertificate({
        certificate: doc,
        keys,
        sha256,
        chains: [t.drand.info],
        tsaTrust: t.tsas.map((tsa) => tsa.rootPem),
      });
      const seal = (doc as { seal: Seal }).seal;
      return { report, time: sealTimeCheck(report.outside ?? [], seal, required) };
    }

    test('the honest seal: timestamped before the round by 2 of 2 TSAs, operator-proof', async () => {
      const run = await both(url, ['--tsa-trust', trust, '--require-outside', '2']);
      assert.equal(run.code, 0, run.out);
      assert.match(
        run.out,
        /^✓ Seal timestamps: seal timestamped before the round by 2 of 2 TSAs \(Fake TSA (One|Two), Fake TSA (One|Two)\)$/m,
      );
      assert.match(run.out, /^✓ Certificate timestamps: draw timestamped after the round by 2 of 2 TSAs /m);
      assert.match(
        run.out,
        /^✓ Seal time: operator-proof: seal witnessed or timestamped before the round \(2 TSAs; 2 required\)$/m,
      );
      const page = await pageCheck(genuine, 2);
      assert.equal(page.report.valid, true);
      assert.equal(page.time.ok, true);
      assert.equal(page.time.warning, undefined);
    });

    test('without --tsa-trust the fake TSAs are nobody: the token chain alone is never trusted', async () => {
      const run = await both(url, []);
      assert.equal(run.code, 1, run.out);
      assert.match(
        run.out,
        /^✗ Seal timestamps: seal timestamped before the round by 0 of 2 TSAs; failed: Fake TSA (One|Two) \(http:\/\/127\.0\.0\.1:\d+\/tsa\): no chain to a trusted root from "Fake TSA (One|Two) Issuing CA"; /m,
      );
    });

    test('re-made with a token from after the round: genTime after round_at, named', async () => {
      await withForged([late], async (base) => {
        const run = await both(base, ['--tsa-trust', trust]);
        assert.equal(run.code, 1, run.out);
        assert.match(run.out, /^✓ Seal signature: /m);
        assert.match(
          run.out,
          /^✗ Seal timestamps: seal timestamped before the round by 0 of 1 TSA; failed: Fake TSA One \(http:\/\/127\.0\.0\.1:\d+\/tsa\): genTime \S+ is not before \S+$/m,
        );
        assert.match(run.out, /\nINVALID: 1 of \d+ checks failed\.\n$/);
      });
      const page = await pageCheck({ ...forged.certificate, seal_timestamps: [late] });
      assert.equal(page.report.valid, false);
      assert.match(page.report.checks.find((c) => !c.ok)?.detail ?? '', /genTime \S+ is not before/);
    });

    test("re-made carrying the honest seal's tokens: their imprint does not match, named", async () => {
      await withForged(genuine.seal_timestamps, async (base) => {
        const run = await both(base, ['--tsa-trust', trust]);
        assert.equal(run.code, 1, run.out);
        assert.match(
          run.out,
          /^✗ Seal timestamps: seal timestamped before the round by 0 of 2 TSAs; failed: .*: imprint does not match; .*: imprint does not match$/m,
        );
      });
      const page = await pageCheck({ ...forged.certificate, seal_timestamps: genuine.seal_timestamps });
      assert.equal(page.report.valid, false);
      assert.match(page.report.checks.find((c) => !c.ok)?.detail ?? '', /imprint does not match/);
    });

    test('re-made with no token: a warning, and a failure under --require-outside 1', async () => {
      await withForged([], async (base) => {
        const lenient = await both(base, ['--tsa-trust', trust]);
        assert.equal(lenient.code, 0, lenient.out);
        assert.match(lenient.out, /^! Seal time: warning: seal time attested by the operator only$/m);
        const strict = await both(base, ['--tsa-trust', trust, '--require-outside', '1']);
        assert.equal(strict.code, 1, strict.out);
        assert.match(
          strict.out,
          /^✗ Seal time: seal time attested by the operator only, and 1 outside attestation is required$/m,
        );
      });
      const page = await pageCheck({ ...forged.certificate, seal_timestamps: [] }, 1);
      assert.equal(page.report.valid, true);
      assert.equal(page.time.ok, false);
      assert.equal((await pageCheck({ ...forged.certificate })).time.warning, SEAL_OPERATOR_ONLY);
    });

    test('--tsa-trust: a file with no certificate cannot be checked; with a signed result it is refused', async () => {
      writeFileSync(join(dir, 'empty.pem'), 'nothing here\n');
      const run = await runTyche(
        ['verify', `${url}/verify/${genuine.certificate_id}`, '--tsa-trust', join(dir, 'empty.pem')],
        {},
      );
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stderr, /--tsa-trust .*empty\.pem holds no CERTIFICATE block/);
      const result = await runTyche(['verify', '--result', join(dir, 'x.json'), '--tsa-trust', trust], {});
      assert.equal(result.code, 2);
      assert.match(result.stderr, /--tsa-trust checks a draw, not a signed result/);
    });
  });
}

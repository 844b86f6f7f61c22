import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { splitLogAnnotations } from '../../src/proof/log-entry.ts';
import { objectHashProblem } from '../../src/proof/signed-object.ts';
import { checkTimestampToken } from '../../src/proof/timestamp/token-check.ts';
import { verifyCertificate } from '../../src/proof/verifier.ts';
import type { Stamp } from '../../src/timestamps/timestamp.service.ts';
import { API, createGiveaway, draw, people } from '../giveaways/giveaway-helpers.ts';
import { seal } from '../giveaways/verifiable-helpers.ts';
import { bearer } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';
import { type StampedApp, startStampedApp, TSA_BUDGET_MS, verifiableWith } from './stamped-app.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

for (const target of await storeTargets()) {
  describe(`outside timestamps (${target.dialect})`, { skip: target.skip }, () => {
    let t: StampedApp;
    let roots: string[];
    before(async () => {
      t = await startStampedApp(target.dialect);
      roots = t.tsas.map((tsa) => tsa.rootPem);
    });
    after(() => t?.close());
    beforeEach(async () => {
      for (const tsa of t.tsas) await tsa.setMode('good');
    });

    /** Moves the clock to `round`'s time, when the fake chain has published it. */
    const reachRound = (round: number) => {
      const at = (t.drand.genesis + (round - 1) * t.drand.period) * 1000 + 1;
      const now = t.clock.now().getTime();
      if (at > now) t.clock.advance(at - now);
    };

    /** Every token checks out for `hash` under the fake TSAs' roots, with the time it is listed at. */
    async function assertValid(stamps: Stamp[], hash: string, notAfter?: string) {
      for (const stamp of stamps) {
        const check = await checkTimestampToken(stamp.token, { hash, anchors: roots, notAfter });
        assert.equal(check.ok, true, `${stamp.tsa}: ${check.reason}`);
        assert.equal(check.genTime?.toISOString(), stamp.gen_time);
      }
    }

    test('a seal is stamped by every TSA before its answer, and every view shows the tokens beside it', async () => {
      const key = await t.key();
      const id = await verifiableWith(t, key);
      const sealed = await seal(t, key, id);
      assert.equal(sealed.statusCode, 200, sealed.body);
      const { seal: signed, seal_timestamps: stamps } = sealed.json();
      assert.deepEqual(stamps.map((s: Stamp) => s.tsa).sort(), t.tsas.map((tsa) => tsa.url).sort());
      await assertValid(stamps, signed.hash, signed.beacon.round_at);

      assert.deepEqual((await t.get(`/g/${id}.json`, key)).json().seal_timestamps, stamps);
      assert.deepEqual((await t.get(`${API}/${id}`, key)).json().seal_timestamps, stamps);
      assert.deepEqual(
        (await t.get(`${API}/${id}/entrants/500/receipt`, key)).json().seal_timestamps,
        stamps,
      );
      const page = (await t.get(`${API}/${id}/entrants`, key)).json();
      assert.deepEqual(Object.keys(page), ['entrants', 'next_cursor', 'seal_timestamps']);
      assert.deepEqual(page.seal_timestamps, stamps);
      const promise = await t.services.jobs.find(`timestamp:seal:${signed.seal_id}`);
      assert.notEqual(promise?.doneAt, null, 'every TSA answered: the promised retries are not needed');

      reachRound(signed.beacon.round);
      await t.runner.runDue();
      const drawn = (await t.get(`${API}/${id}`, key)).json();
      assert.equal(drawn.status, 'completed');
      const cert = (await t.get(`/verify/${drawn.certificate_id}.json`, key)).json();
      assert.deepEqual(cert.seal_timestamps, stamps);
      assert.equal(cert.certificate_timestamps.length, 2);
      await assertValid(cert.certificate_timestamps, cert.hash);

      // Annotations: split off exactly, so the certificate's own hash and every check still hold.
      const { signed: bare, annotations } = splitLogAnnotations(cert);
      assert.deepEqual(Object.keys(annotations).sort(), [
        'certificate_timestamps',
        'log_index',
        'seal_log_index',
        'seal_timestamps',
      ]);
      assert.equal(objectHashProblem(bare, sha256), null);
      const keys = (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json();
      const report = await verifyCertificate({
        certificate: cert,
        keys,
        sha256,
        chains: [t.drand.info],
        tsaTrust: roots,
      });
      assert.match(
        report.checks.find((c) => c.id === 'seal-timestamps')?.detail ?? '',
        /^seal timestamped before the round by 2 of 2 TSAs \(Fake TSA (One|Two), Fake TSA (One|Two)\)$/,
      );
      assert.ok(report.valid, JSON.stringify(report.checks.filter((c) => !c.ok)));
    });

    test('an instant draw: the v1 certificate is stamped, with no seal to stamp', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      await t.app.inject({
        method: 'POST',
        url: `${API}/${id}/participants`,
        headers: bearer(key),
        payload: { participants: people(3) },
      });
      const done = await draw(t, key, id);
      assert.equal(done.statusCode, 200, done.body);
      const cert = (await t.get(`/verify/${done.json().certificate_id}.json`, key)).json();
      assert.equal('seal_timestamps' in cert, false);
      assert.equal(cert.certificate_timestamps.length, 2);
      await assertValid(cert.certificate_timestamps, cert.hash);
    });

    test('every TSA silent: the seal answers at the 3 s budget without tokens; the job fetches them before the round', async () => {
      const [one, two] = t.tsas;
      const failed = async () => [
        (await t.metric(`tyche_tsa_failures_total{tsa="${one.url}"}`)) ?? 0,
        (await t.metric(`tyche_tsa_failures_total{tsa="${two.url}"}`)) ?? 0,
      ];
      const before = await failed();
      await one.setMode('hang');
      await two.setMode('hang');
      const key = await t.key();
      const id = await verifiableWith(t, key);
      const asked = [one.requests, two.requests];
      const answer = seal(t, key, id);
      await Promise.all([one.whenRequests(asked[0] + 1), two.whenRequests(asked[1] + 1)]);
      // Neither TSA will ever answer these requests: only the budget, on the test's clock, ends them.
      t.clock.advance(TSA_BUDGET_MS);
      const sealed = await answer;
      assert.equal(sealed.statusCode, 200, sealed.body);
      const { seal: signed, seal_timestamps } = sealed.json();
      assert.deepEqual(seal_timestamps, []);
      assert.deepEqual(await failed(), [before[0] + 1, before[1] + 1]);

      // One TSA is back, the other refuses connections: the job keeps what it can and tries again.
      await one.setMode('good');
      await two.setMode('refuse');
      t.clock.advance(5000);
      await t.runner.runDue();
      let kept = await t.stampsOf('seal', signed.seal_id);
      assert.deepEqual(
        kept.map((s) => s.tsa),
        [one.url],
      );
      const job = await t.services.jobs.find(`timestamp:seal:${signed.seal_id}`);
      assert.equal(job?.doneAt, null, 'still promised for the TSA that failed');

      await two.setMode('good');
      t.clock.advance(job!.runAt - t.clock.now().getTime());
      await t.runner.runDue();
      kept = await t.stampsOf('seal', signed.seal_id);
      assert.deepEqual(kept.map((s) => s.tsa).sort(), [one.url, two.url].sort());
      assert.ok(kept.every((s) => Date.parse(s.gen_time) < Date.parse(signed.beacon.round_at)));
      await assertValid(kept, signed.hash, signed.beacon.round_at);
      assert.notEqual((await t.services.jobs.find(`timestamp:seal:${signed.seal_id}`))?.doneAt, null);
      assert.deepEqual((await t.get(`/g/${id}.json`, key)).json().seal_timestamps, kept);
      // Each was asked once by the answer and once more by the job (two's refused connection never
      // reached it): a TSA that gave its token is not asked again.
      assert.deepEqual([one.requests, two.requests], [asked[0] + 2, asked[1] + 2]);
    });

    test('a TSA still failing at the round is given up and counted; nothing is kept after the round', async () => {
      const [one, two] = t.tsas;
      const givenUp = async (url: string) => (await t.metric(`tyche_tsa_given_up_total{tsa="${url}"}`)) ?? 0;
      const before = [await givenUp(one.url), await givenUp(two.url)];
      await one.setMode('error-500');
      await two.setMode('rejection');
      const key = await t.key();
      const id = await verifiableWith(t, key);
      const sealed = await seal(t, key, id);
      const { seal: signed, seal_timestamps } = sealed.json();
      assert.deepEqual(seal_timestamps, []);
      const jobKey = `timestamp:seal:${signed.seal_id}`;
      for (let runs = 0; (await t.services.jobs.find(jobKey))?.doneAt === null; runs++) {
        assert.ok(runs < 50, 'the job ends');
        const job = (await t.services.jobs.find(jobKey))!;
        t.clock.advance(Math.max(1, job.runAt - t.clock.now().getTime()));
        await t.runner.runDue();
      }
      assert.ok(t.clock.now().getTime() >= Date.parse(signed.beacon.round_at), 'retried until the round');
      assert.deepEqual([await givenUp(one.url), await givenUp(two.url)], [before[0] + 1, before[1] + 1]);
      assert.deepEqual(await t.stampsOf('seal', signed.seal_id), []);
      await one.setMode('good');
      await t.runner.runDue();
      assert.deepEqual(
        await t.stampsOf('seal', signed.seal_id),
        [],
        'a token after the round proves nothing',
      );
    });

    test('tokens that fail a check are refused and counted, never kept', async () => {
      const [one, two] = t.tsas;
      const failures = async (url: string) => (await t.metric(`tyche_tsa_failures_total{tsa="${url}"}`)) ?? 0;
      const before = [await failures(one.url), await failures(two.url)];
      await one.setMode('wrong-nonce');
      await two.setMode('untrusted-root');
      const key = await t.key();
      const id = await verifiableWith(t, key);
      const sealed = await seal(t, key, id);
      assert.equal(sealed.statusCode, 200, sealed.body);
      assert.deepEqual(sealed.json().seal_timestamps, []);
      assert.deepEqual(await t.stampsOf('seal', sealed.json().seal.seal_id), []);
      assert.deepEqual([await failures(one.url), await failures(two.url)], [before[0] + 1, before[1] + 1]);
    });
  });
}

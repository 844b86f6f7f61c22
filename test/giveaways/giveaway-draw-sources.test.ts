import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Certificate, sha256 } from '../../src/giveaways/draw/certificate.ts';
import { beaconR, fromHex, toHex } from '../../src/proof/draw-v1.ts';
import { verifyCertificate } from '../../src/proof/verifier.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { type FakeUpstreams, startFakeUpstreams } from '../helpers/fake-upstreams.ts';
import { API, draw, expectProblem, readyGiveaway } from './giveaway-helpers.ts';

/** Draws whose R comes from each kind of source, through the whole stack against fake upstreams. */
describe('draw randomness by source', () => {
  const clock = createFakeClock('2026-11-21T12:00:00Z');
  let fakes: FakeUpstreams;
  before(async () => {
    fakes = await startFakeUpstreams(clock);
  });
  after(() => fakes.close());

  async function withApp(sources: string, work: (t: TestApp) => Promise<void>) {
    const t = await startTestApp({ clock, ...fakes.appOptions(sources) });
    try {
      await work(t);
    } finally {
      await t.close();
    }
  }

  async function drawnCertificate(t: TestApp) {
    const key = await t.key();
    const id = await readyGiveaway(t, key, 12, 3);
    const res = await draw(t, key, id);
    assert.equal(res.statusCode, 200, res.body);
    const cert = (await t.services.giveaways.certificates.get(res.json().certificate_id)) as Certificate;
    const keys = (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json().keys;
    assert.equal((await verifyCertificate({ certificate: cert, keys: { keys }, sha256 })).valid, true);
    return { body: res.json(), cert };
  }

  for (const [source, valueBytes] of [
    ['drand', 32],
    ['nist', 64],
  ] as const) {
    test(`${source}: R = SHA-256(beacon value ‖ system entropy), both recorded`, async () => {
      await fakes.anu.setMode('ok');
      await withApp(source, async (t) => {
        const { body, cert } = await drawnCertificate(t);
        assert.equal(body.qrng_source, source);
        const r = cert.randomness;
        assert.equal(r.source, source);
        assert.match(r.beacon_value!, new RegExp(`^[0-9a-f]{${valueBytes * 2}}$`));
        assert.match(r.system_entropy!, /^[0-9a-f]{64}$/);
        assert.equal(r.bytes, toHex(beaconR(fromHex(r.beacon_value!), fromHex(r.system_entropy!), sha256)));
        assert.match(r.source_reference, source === 'nist' ? /\/pulse\/\d+$/ : /\d+/);
      });
    });
  }

  test('anu: R is the 32 quantum bytes as delivered, with their batch and range', async () => {
    await fakes.anu.setMode('ok');
    await withApp('anu', async (t) => {
      const { body, cert } = await drawnCertificate(t);
      assert.equal(body.qrng_source, 'anu');
      assert.equal(cert.randomness.beacon_value, undefined);
      assert.equal(cert.randomness.system_entropy, undefined);
      assert.match(cert.randomness.source_reference, /^anu:.+#\d+-\d+$/);
      const [start, end] = cert.randomness.source_reference.split('#')[1].split('-').map(Number);
      assert.equal(end - start, 32);
    });
  });

  test('when no source can serve: 503, refunded, and the giveaway is left exactly as it was', async () => {
    await fakes.anu.setMode('error-500');
    try {
      await withApp('anu', async (t) => {
        const key = await t.key({ dailyLimit: 100 });
        const id = await readyGiveaway(t, key, 4);
        const before = (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json();
        const failed = await draw(t, key, id);
        expectProblem(failed, 503, 'randomness_unavailable');
        assert.ok(Number(failed.headers['retry-after']) >= 1);
        const after = await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) });
        assert.deepEqual(after.json(), before);
        assert.equal(after.json().status, 'active');
        // create, add, get, (refunded draw), get: 4 counted.
        assert.equal(after.headers['x-ratelimit-remaining'], '96');
        const added = await t.app.inject({
          method: 'POST',
          url: `${API}/${id}/participants`,
          headers: bearer(key),
          payload: { participants: [{ telegram_id: 999 }] },
        });
        assert.equal(added.statusCode, 200, 'still accepts participants');
      });
    } finally {
      await fakes.anu.setMode('ok');
    }
  });
});

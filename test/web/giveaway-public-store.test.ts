import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { escapeHtml } from '../../src/edge/html.ts';
import type { CertificateV2, Receipt, Seal } from '../../src/proof/v2-types.ts';
import { verifyCertificate, verifyReceipt } from '../../src/proof/verifier.ts';
import { API, addParticipants, expectProblem } from '../giveaways/giveaway-helpers.ts';
import {
  createVerifiable,
  seal,
  startVerifiableApp,
  type VerifiableApp,
} from '../giveaways/verifiable-helpers.ts';
import { bearer } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';
import { sha256 } from '../helpers/v2-fixtures.ts';

const TITLE = `Prize <script>alert(1)</script> & "more"`;

// The public routes on the giveaway service itself, through a whole life: open, sealed, drawn.
for (const target of await storeTargets()) {
  describe(`public giveaway routes on the service (${target.dialect})`, { skip: target.skip }, () => {
    let t: VerifiableApp;
    let key: string;
    let id: string;
    let receipts: Receipt[];
    let sealed: Seal;
    before(async () => {
      t = await startVerifiableApp({ dialect: target.dialect, delayRounds: 2 });
      key = await t.key();
      id = await createVerifiable(t, key, { title: TITLE, winners_count: 2, reserve_count: 1 });
      const entrants = Array.from({ length: 7 }, (_, i) => ({
        telegram_id: 9_100 + i,
        username: `<i>u${i}</i>`,
      }));
      await addParticipants(t, key, id, entrants);
      receipts = await Promise.all(
        entrants.map(async (e) => {
          const res = await t.app.inject({
            url: `${API}/${id}/entrants/${e.telegram_id}/receipt`,
            headers: bearer(key),
          });
          assert.equal(res.statusCode, 200, res.body);
          return res.json() as Receipt;
        }),
      );
    });
    after(() => t?.close());

    const get = (url: string) => t.app.inject({ url });
    const keys = async () => (await get('/.well-known/tyche-keys.json')).json();

    test('open: page and JSON without a seal, tickets served, proofs refused with not_sealed', async () => {
      const page = await get(`/g/${id}`);
      assert.equal(page.statusCode, 200);
      assert.ok(page.body.includes(`<h1>${escapeHtml(TITLE)}</h1>`));
      assert.match(page.body, /data-status="active"/);
      const json = (await get(`/g/${id}.json`)).json();
      assert.equal(json.status, 'active');
      assert.equal(json.seal, null);
      assert.equal(json.entrants_count, 7);
      assert.equal(json.receipt_url, `http://127.0.0.1:8080/g/${id}/receipt`);
      assert.equal(json.drand.relay, t.drand.url);
      const r = receipts[0];
      assert.equal(r.receipt_url, `${json.receipt_url}#${r.telegram_id}.${r.salt}`);
      assert.deepEqual((await get(`/g/${id}/ticket/${r.leaf_hash}`)).json(), r.ticket);
      expectProblem(await get(`/g/${id}/proof/${r.leaf_hash}`), 409, 'not_sealed');
      expectProblem(await get(`/g/${id}/proof/${'a'.repeat(64)}`), 404, 'not_found');
      expectProblem(await get(`/g/${id}/ticket/${'a'.repeat(64)}`), 404, 'not_found');
    });

    test('sealed: the seal is published; each entrant proof is its receipt and verifies', async () => {
      const res = await seal(t, key, id);
      assert.equal(res.statusCode, 200, res.body);
      sealed = res.json().seal;
      const json = (await get(`/g/${id}.json`)).json();
      assert.equal(json.status, 'sealed');
      assert.deepEqual(json.seal, sealed);
      const page = await get(`/g/${id}`);
      assert.ok(page.body.includes(sealed.entrants.root) && page.body.includes(sealed.hash));
      for (const before of receipts) {
        const proof = (await get(`/g/${id}/proof/${before.leaf_hash}`)).json();
        const now = (
          await t.app.inject({
            url: `${API}/${id}/entrants/${before.telegram_id}/receipt`,
            headers: bearer(key),
          })
        ).json() as Required<Receipt>;
        assert.equal(now.seal_hash, sealed.hash);
        // The public proof names the seal it is in as the receipt does: by id and by hash.
        assert.deepEqual(proof, {
          index: now.index,
          count: now.count,
          root: now.root,
          proof: now.proof,
          seal_id: sealed.seal_id,
          seal_hash: sealed.hash,
        });
        const report = await verifyReceipt({
          receipt: now,
          seal: json.seal,
          keys: await keys(),
          sha256,
          chains: [t.drand.info],
        });
        assert.equal(report.valid, true, JSON.stringify(report.checks.filter((c) => !c.ok)));
        assert.match(
          report.checks.find((c) => c.id === 'receipt-seal')!.detail,
          new RegExp(`^seal ${sealed.seal_id}, hash ${sealed.hash} as the receipt names it: `),
        );
      }
    });

    test('drawn: the page links the certificate, whose page shows the seal it drew from', async () => {
      t.reachRound(sealed.beacon.round);
      t.clock.advance(1000);
      await t.runner.runDue();
      const json = (await get(`/g/${id}.json`)).json();
      assert.equal(json.status, 'completed');
      assert.equal(json.verify_url, `http://127.0.0.1:8080/verify/${json.certificate_id}`);
      assert.match((await get(`/g/${id}`)).body, /data-certificate-link/);
      const cert: CertificateV2 = (await get(`/verify/${json.certificate_id}.json`)).json();
      const report = await verifyCertificate({
        certificate: cert,
        keys: await keys(),
        sha256,
        chains: [t.drand.info],
      });
      assert.equal(report.valid, true);
      const page = await get(`/verify/${json.certificate_id}`);
      assert.equal(page.statusCode, 200);
      const csp = String(page.headers['content-security-policy']);
      assert.match(csp, new RegExp(`connect-src 'self' ${new URL(t.drand.url).origin};`));
      for (const value of [sealed.hash, sealed.entrants.root, cert.beacon.signature, cert.seed, cert.hash]) {
        assert.ok(page.body.includes(value), value);
      }
      assert.ok(page.body.includes(escapeHtml('@<i>u')));
      assert.doesNotMatch(page.body, /<i>u/);
    });
  });
}

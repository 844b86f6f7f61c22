import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { verifySeal } from '../../src/proof/verifier.ts';
import { bearer } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';
import { API, addParticipants, expectProblem, people } from './giveaway-helpers.ts';
import { createVerifiable, seal, startVerifiableApp, type VerifiableApp } from './verifiable-helpers.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const hexOf = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Rules as people write them: lines, tabs, quotes, markup that must stay text, and non-ASCII. */
const TERMS = [
  'Правила: one entry per person, 18+.',
  '\tWinners must claim within 3 days — else the next reserve wins 🎁.',
  '<script>alert("x")</script> & <b>bold</b> are text here.  ',
  '',
].join('\n');

for (const target of await storeTargets()) {
  /**
   * CONTRACT §14 "Rules in the commitment": terms accepted at creation, stored exactly as given,
   * shown in the API and on /g/{public_id} escaped with their SHA-256, and committed to by the
   * seal's `giveaway.terms_sha256` (null without terms; absent only in seals made before).
   */
  describe(`a giveaway's terms (${target.dialect})`, { skip: target.skip }, () => {
    let t: VerifiableApp;
    let key: string;
    before(async () => {
      t = await startVerifiableApp({ dialect: target.dialect });
      key = await t.key();
    });
    after(() => t?.close());

    const create = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: API,
        headers: bearer(key),
        payload: { title: 'Terms', winners_count: 1, ...payload },
      });

    test('accepted at creation, kept byte for byte, with their SHA-256, in the giveaway and its GET', async () => {
      const res = await create({ terms: TERMS });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.equal(body.terms, TERMS, 'no trimming: the seal commits to these bytes');
      assert.equal(body.terms_sha256, hexOf(TERMS));
      const got = (await t.app.inject({ url: `${API}/${body.public_id}`, headers: bearer(key) })).json();
      assert.equal(got.terms, TERMS);
      assert.equal(got.terms_sha256, hexOf(TERMS));
      const listed = (await t.app.inject({ url: `${API}?limit=1`, headers: bearer(key) })).json();
      assert.equal('terms' in listed.giveaways[0], false, 'the list stays a summary');

      const none = (await create({})).json();
      assert.equal(none.terms, null);
      assert.equal(none.terms_sha256, null);
    });

    test('limits: 20 000 characters (code points), not blank, the text rules of descriptions', async () => {
      const longest = '😀'.repeat(20_000);
      const ok = await create({ terms: longest });
      assert.equal(ok.statusCode, 201, ok.body);
      assert.equal(ok.json().terms_sha256, hexOf(longest));
      for (const terms of [
        'x'.repeat(20_001),
        '😀'.repeat(20_001),
        '   \n\t ',
        '',
        'bell\u0007',
        'cr\r\nlf',
        'c1\u0085',
      ]) {
        const res = await create({ terms });
        expectProblem(res, 400, 'invalid_parameter');
        assert.equal(res.json().errors[0].parameter, 'terms', res.body);
      }
      const lone = await t.app.inject({
        method: 'POST',
        url: API,
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: '{"title":"Terms","winners_count":1,"terms":"half \\ud83d of an emoji"}',
      });
      expectProblem(lone, 400, 'invalid_parameter');
      assert.match(lone.json().detail, /lone surrogate/);
      for (const terms of [42, ['a'], { text: 'a' }, true])
        expectProblem(await create({ terms }), 422, 'invalid_type');
    });

    test('the seal commits to their SHA-256, and to null without terms; both seals verify', async () => {
      const keys = (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json();
      const withTerms = await createVerifiable(t, key, { terms: TERMS });
      const without = await createVerifiable(t, key);
      for (const id of [withTerms, without]) await addParticipants(t, key, id, people(3));
      const sealedWith = (await seal(t, key, withTerms)).json().seal;
      const sealedWithout = (await seal(t, key, without)).json().seal;
      assert.equal(sealedWith.giveaway.terms_sha256, hexOf(TERMS));
      assert.ok('terms_sha256' in sealedWithout.giveaway, 'present, so that null is a statement');
      assert.equal(sealedWithout.giveaway.terms_sha256, null);
      for (const s of [sealedWith, sealedWithout]) {
        const verdict = await verifySeal({ seal: s, keys, sha256, chains: [t.drand.info] });
        assert.equal(verdict.valid, true, JSON.stringify(verdict.checks));
      }

      // A seal whose terms_sha256 is neither null nor hex is refused by its format, before its hash.
      const bad = { ...sealedWith, giveaway: { ...sealedWith.giveaway, terms_sha256: 'ABC' } };
      const refused = await verifySeal({ seal: bad, keys, sha256, chains: [t.drand.info] });
      assert.equal(refused.valid, false);
      assert.match(refused.checks[0].detail, /giveaway\.terms_sha256 is neither null nor 64 lower-case hex/);
    });

    test('/g/{public_id} shows the terms escaped, their hash, and what the seal commits to', async () => {
      const id = await createVerifiable(t, key, { terms: TERMS });
      const open = await t.app.inject({ url: `/g/${id}` });
      assert.equal(open.statusCode, 200);
      const page = open.body;
      assert.match(page, /data-terms>Правила: one entry per person, 18\+\.\n\tWinners must claim/);
      assert.ok(
        page.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;'),
      );
      assert.ok(!page.includes('<script>alert'), 'user text never becomes markup');
      assert.ok(!page.includes('<b>bold</b>'));
      assert.match(page, new RegExp(`data-terms-sha256>${hexOf(TERMS)}<`));
      assert.match(page, /data-terms-commitment="pending"/);

      const json = (await t.app.inject({ url: `/g/${id}.json` })).json();
      assert.equal(json.terms, TERMS);
      assert.equal(json.terms_sha256, hexOf(TERMS));

      await addParticipants(t, key, id, people(2));
      assert.equal((await seal(t, key, id)).statusCode, 200);
      const sealed = (await t.app.inject({ url: `/g/${id}` })).body;
      assert.match(sealed, /data-terms-commitment="committed"/);

      const bare = await createVerifiable(t, key);
      const plain = (await t.app.inject({ url: `/g/${bare}` })).body;
      assert.doesNotMatch(plain, /id="terms"/, 'no section for a giveaway without terms');
      assert.equal((await t.app.inject({ url: `/g/${bare}.json` })).json().terms, null);
    });
  });
}

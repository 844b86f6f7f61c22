import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Amendment } from '../../src/proof/amendments.ts';
import type { CertificateV2, Seal } from '../../src/proof/v2-types.ts';
import { sealCertificate } from '../../src/signing/certificate-crypto.ts';
import { replace } from '../giveaways/amendment-helpers.ts';
import { API, addParticipants, expectProblem, people } from '../giveaways/giveaway-helpers.ts';
import {
  createVerifiable,
  seal,
  startVerifiableApp,
  type VerifiableApp,
} from '../giveaways/verifiable-helpers.ts';
import { bearer } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';

interface Record_ {
  owner: string;
  log_entries: number;
  giveaways_sealed: number;
  giveaways_drawn: number;
  median_seconds_round_to_draw: number | null;
  replacements: { total: number; by_reason: Record<string, number> };
  red_flags: { flag: string; giveaways: string[]; entries: number[]; detail: string }[];
  giveaways: { public_id: string; seconds_round_to_draw: number | null; replacements: number }[];
}

for (const target of await storeTargets()) {
  /**
   * CONTRACT §14 "GET /o/{owner}": an owner's record, computed from the transparency log entries
   * filed under their pseudonym — counts, the median from round to draw, replacements by reason —
   * and each red flag named, provoked here by the service itself or by entries forged with its key.
   */
  describe(`/o/{owner}: an organizer's record from the log (${target.dialect})`, {
    skip: target.skip,
  }, () => {
    let t: VerifiableApp;
    before(async () => {
      t = await startVerifiableApp({ dialect: target.dialect });
    });
    after(() => t?.close());

    const get = (path: string, headers: Record<string, string> = {}) => t.app.inject({ url: path, headers });
    const recordOf = async (owner: string) => {
      const res = await get(`/o/${owner}.json`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Record_;
    };

    /** A verifiable giveaway of `key` with entrants, sealed now: its id and signed seal. */
    async function sealed(key: string, body: Record<string, unknown> = {}) {
      const id = await createVerifiable(t, key, { winners_count: 2, reserve_count: 3, ...body });
      await addParticipants(t, key, id, people(8));
      const res = await seal(t, key, id);
      assert.equal(res.statusCode, 200, res.body);
      return { id, seal: res.json().seal as Seal };
    }

    /** Drawn `afterMs` after its committed round is due: the record's round-to-draw time. */
    async function drawnLate(key: string, id: string, s: Seal, afterMs: number) {
      t.reachRound(s.beacon.round);
      t.clock.advance(afterMs);
      await t.runner.runDue();
      const got = (await get(`${API}/${id}`, bearer(key))).json();
      assert.equal(got.status, 'completed');
      return got.certificate_id as string;
    }

    const appendForged = async (kind: 'seal' | 'amendment', id: string, signed: object) => {
      const at = t.clock.now().getTime();
      await t.store.db
        .transaction()
        .execute((trx) => t.services.transparency.appendSigned(trx, kind, id, signed, at));
    };

    test('sealed, drawn, the median from round to draw, replacements by reason; no red flag', async () => {
      const key = await t.key();
      const delays = [4000, 10_000, 1000];
      const ids: string[] = [];
      let owner = '';
      for (const [i, delay] of delays.entries()) {
        const s = await sealed(key, { title: `Drop ${i} <script>alert(${i})</script>` });
        owner = s.seal.giveaway.owner;
        await drawnLate(key, s.id, s.seal, delay);
        ids.push(s.id);
      }
      const open = await createVerifiable(t, key);
      assert.equal((await replace(t, key, ids[0], 1, { reason: 'duplicate_account' })).statusCode, 200);
      assert.equal(
        (await replace(t, key, ids[0], 2, { reason: 'other', note: 'Asked to withdraw' })).statusCode,
        200,
      );
      assert.equal((await replace(t, key, ids[1], 1, { reason: 'duplicate_account' })).statusCode, 200);

      const record = await recordOf(owner);
      assert.equal(record.owner, owner);
      assert.equal(record.giveaways_sealed, 3, 'the open giveaway is not in the log');
      assert.equal(record.giveaways_drawn, 3);
      // Each draw ran `delay` + 1 ms after its round was due: 1.001, 4.001 and 10.001 s.
      assert.equal(record.median_seconds_round_to_draw, 4.001);
      assert.deepEqual(
        Object.fromEntries(record.giveaways.map((g) => [g.public_id, g.seconds_round_to_draw])),
        { [ids[0]]: 4.001, [ids[1]]: 10.001, [ids[2]]: 1.001 },
      );
      assert.deepEqual(record.replacements, {
        total: 3,
        by_reason: { left_channel: 0, unclaimed: 0, ineligible: 0, duplicate_account: 2, other: 1 },
      });
      assert.deepEqual(record.red_flags, []);
      assert.equal(record.log_entries, 3 + 3 + 3, 'three seals, three certificates, three amendments');
      assert.deepEqual(
        record.giveaways.map((g) => g.public_id),
        [...ids].reverse(),
        'newest first',
      );
      assert.ok(!record.giveaways.some((g) => g.public_id === open));

      const page = await get(`/o/${owner}`);
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
      assert.match(page.body, /data-red-flags="0"/);
      assert.match(page.body, /<dd data-median>4\.001 s/);
      assert.match(page.body, /<li data-reason="duplicate_account">2 duplicate account<\/li>/);
      assert.ok(page.body.includes('Drop 0 &lt;script&gt;alert(0)&lt;/script&gt;'), 'titles are escaped');
      assert.ok(!page.body.includes('<script>alert'), 'no user text becomes markup');
      for (const id of ids) assert.ok(page.body.includes(`href="/g/${id}"`));
    });

    test('kept per state of the log: an ETag, 304 for the same state, a new record after a new entry', async () => {
      const key = await t.key();
      const first = await sealed(key);
      const owner = first.seal.giveaway.owner;
      const one = await get(`/o/${owner}.json`);
      const etag = String(one.headers.etag);
      assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
      assert.match(String(one.headers['cache-control']), /max-age=60/);
      assert.equal(one.headers['access-control-allow-origin'], '*', 'readable from any page');
      assert.equal((await get(`/o/${owner}.json`, { 'if-none-match': etag })).statusCode, 304);
      const html = await get(`/o/${owner}`);
      assert.notEqual(html.headers.etag, etag, 'the page and the JSON are tagged apart');
      assert.equal((await get(`/o/${owner}`, { accept: 'application/json' })).headers.etag, etag);

      await drawnLate(key, first.id, first.seal, 0);
      const two = await get(`/o/${owner}.json`, { 'if-none-match': etag });
      assert.equal(two.statusCode, 200, 'the certificate entry changed the record');
      assert.equal(two.json().giveaways_drawn, 1);
    });

    test("two of one owner's giveaways sealed on the same drand round: shared_round", async () => {
      const key = await t.key();
      const a = await sealed(key);
      const b = await sealed(key);
      assert.equal(a.seal.beacon.round, b.seal.beacon.round, 'sealed at one instant, committed to one round');
      const other = await sealed(await t.key());
      assert.equal(other.seal.beacon.round, a.seal.beacon.round);

      const record = await recordOf(a.seal.giveaway.owner);
      assert.equal(record.red_flags.length, 1, JSON.stringify(record.red_flags));
      const [flag] = record.red_flags;
      assert.equal(flag.flag, 'shared_round');
      assert.deepEqual(
        flag.giveaways,
        [a.id, b.id],
        "in log order; another owner's seal is not this owner's flag",
      );
      assert.equal(flag.entries.length, 2);
      assert.equal(
        flag.detail,
        `giveaways ${a.id}, ${b.id} were sealed on the same drand round ${a.seal.beacon.round}: one owner's copies of a draw on one round could be compared and the best kept`,
      );
      assert.deepEqual((await recordOf(other.seal.giveaway.owner)).red_flags, []);
      const page = (await get(`/o/${a.seal.giveaway.owner}`)).body;
      assert.match(page, /data-red-flags="1"/);
      assert.match(
        page,
        /<li data-red-flag="shared_round"><strong>Giveaways sealed on the same drand round<\/strong>/,
      );
    });

    test('a giveaway sealed twice, the second seal forged with the service key: multiple_seals', async () => {
      const key = await t.key();
      const first = await sealed(key);
      // Re-made as an operator holding the key could: same id, list and round, a second earlier.
      const { hash: _h, signature: _s, ...body } = first.seal;
      const remade = sealCertificate(
        { ...body, sealed_at: new Date(Date.parse(body.sealed_at) - 1000).toISOString() },
        await t.services.signer.current(),
      ) as Seal;
      await appendForged('seal', remade.seal_id, remade);

      const record = await recordOf(first.seal.giveaway.owner);
      assert.deepEqual(
        record.red_flags.map((f) => f.flag),
        ['multiple_seals'],
      );
      const [flag] = record.red_flags;
      assert.deepEqual(flag.giveaways, [first.id]);
      assert.match(
        flag.detail,
        new RegExp(
          `^giveaway ${first.id} has 2 seals: ${first.seal.seal_id} \\(hash ${first.seal.hash.slice(0, 16)}…, entry \\d+\\), ${remade.seal_id} \\(hash ${remade.hash.slice(0, 16)}…, entry \\d+\\); a giveaway has at most one seal, ever$`,
        ),
      );
      assert.equal(record.giveaways_sealed, 1, 'still one giveaway');
    });

    test('a substitute taken out of reserve order, forged with the service key: reserve_order', async () => {
      const key = await t.key();
      const s = await sealed(key);
      const certificateId = await drawnLate(key, s.id, s.seal, 0);
      assert.equal((await replace(t, key, s.id, 1, { reason: 'other' })).statusCode, 200);
      const published = (await get(`/verify/${certificateId}.json`)).json() as CertificateV2 & {
        amendments: Amendment[];
      };
      const [first] = published.amendments;
      // Position 2 goes to reserve 3, skipping reserve 2; its id is text an attacker chose.
      const skipped = published.reserves[2];
      const {
        hash: _h,
        signature: _s,
        ...body
      } = {
        ...first,
        amendment_id: 'a_<b>forged</b>',
        sequence: 2,
        previous: first.hash,
        position: 2,
        replaced: { index: published.winners[1].index, leaf_hash: published.winners[1].leaf_hash },
        by: { reserve_position: 3, index: skipped.index, leaf_hash: skipped.leaf_hash },
      };
      const forged = sealCertificate(body, await t.services.signer.current()) as Amendment;
      await appendForged('amendment', forged.amendment_id, forged);

      const record = await recordOf(s.seal.giveaway.owner);
      assert.deepEqual(
        record.red_flags.map((f) => f.flag),
        ['reserve_order'],
      );
      const [flag] = record.red_flags;
      assert.equal(
        flag.detail,
        `giveaway ${s.id}, amendment a_<b>forged</b> (entry ${flag.entries[0]}): the next unused reserve is reserve 2 (index ${published.reserves[1].index}), not reserve 3 (index ${skipped.index})`,
      );
      assert.equal(record.replacements.total, 2);
      const page = (await get(`/o/${s.seal.giveaway.owner}`)).body;
      assert.ok(page.includes('amendment a_&lt;b&gt;forged&lt;/b&gt; (entry'), 'log text is escaped too');
      assert.ok(!page.includes('<b>forged</b>'));
    });

    test('an owner the log knows nothing of: a 404 page, or a problem for JSON', async () => {
      const key = await t.key();
      const open = await createVerifiable(t, key);
      const pseudonym = (await get(`/g/${open}.json`)).json().owner as string;
      assert.match(pseudonym, /^o_[0-9A-Za-z]{16}$/, 'the page names the owner before any seal');
      for (const owner of [pseudonym, 'o_AAAAAAAAAAAAAAAA', '<img src=x>', 'x'.repeat(300)]) {
        const page = await get(`/o/${encodeURIComponent(owner)}`);
        assert.equal(page.statusCode, 404, owner);
        assert.match(String(page.headers['content-type']), /^text\/html/);
        assert.match(page.body, /No record for this organizer/);
        assert.ok(!page.body.includes('<img src=x>'));
        expectProblem(await get(`/o/${encodeURIComponent(owner)}.json`), 404, 'not_found');
      }
    });

    test('in Russian: Accept-Language or ?lang=ru, every label, flag and reason from the catalogue', async () => {
      const key = await t.key();
      const a = await sealed(key);
      const b = await sealed(key);
      await drawnLate(key, a.id, a.seal, 2000);
      assert.equal((await replace(t, key, a.id, 1, { reason: 'duplicate_account' })).statusCode, 200);
      const owner = a.seal.giveaway.owner;
      const ru = await get(`/o/${owner}`, { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.5' });
      assert.equal(ru.statusCode, 200);
      assert.equal(ru.headers.vary, 'accept, accept-language');
      const page = ru.body;
      assert.match(page, /<html lang="ru">/);
      assert.match(page, /<a href="\/o\/[^"]+\?lang=en" hreflang="en" lang="en">English<\/a>/, 'the switch');
      assert.match(page, /<h1>Организатор <code class="mono">/);
      assert.match(page, /<h2 id="flags-heading" class="bad">Тревожные признаки<\/h2><p>1 тревожный признак/);
      assert.match(page, /<strong>Розыгрыши запечатаны на одном раунде drand<\/strong>: копии розыгрыша/);
      assert.match(page, /<dd data-median>2,001 с/, 'a Russian decimal comma');
      assert.match(page, /<li data-reason="duplicate_account">1 повторный аккаунт<\/li>/);
      assert.match(page, /<caption>2 розыгрыша, сначала новые<\/caption>/);
      assert.ok(page.includes(`data-giveaway="${b.id}"`));
      // No English sentence of the page is left: the words below are each in one of its strings.
      for (const english of [
        'Red flags',
        'At a glance',
        'Giveaways sealed',
        'newest first',
        'not drawn yet',
        'How this record is made',
        'the transparency log',
        'were sealed on the same drand round',
      ]) {
        assert.ok(!page.includes(english), english);
      }
      const chosen = await get(`/o/${owner}?lang=ru`);
      assert.match(chosen.body, /<html lang="ru">/);
      assert.ok(
        chosen.body.includes(`href="/g/${a.id}?lang=ru"`),
        'the chosen language is kept in its links',
      );
      assert.notEqual(chosen.headers.etag, ru.headers.etag, 'each form of the page is tagged apart');
      const english = await get(`/o/${owner}?lang=en`, { 'accept-language': 'ru' });
      assert.match(english.body, /<html lang="en">/);
      assert.match(english.body, /<h2 id="flags-heading" class="bad">Red flags<\/h2>/);
      const missing = await get('/o/o_AAAAAAAAAAAAAAAA', { 'accept-language': 'ru' });
      assert.equal(missing.statusCode, 404);
      assert.match(missing.body, /У этого организатора нет досье/);
      const g = await get(`/g/${b.id}`, { 'accept-language': 'ru' });
      assert.match(
        g.body,
        /<dt>Организатор<\/dt>.*>досье организатора<\/a>/s,
        'the row on /g speaks Russian too',
      );
    });

    test('every /g and /verify page links to the record', async () => {
      const key = await t.key();
      const open = await createVerifiable(t, key);
      const owner = (await get(`/g/${open}.json`)).json().owner as string;
      const link = `href="/o/${owner}"`;
      assert.ok((await get(`/g/${open}`)).body.includes(link), 'before the seal');
      const s = await sealed(key);
      assert.equal(s.seal.giveaway.owner, owner, "the seal names the account's pseudonym");
      assert.ok((await get(`/g/${s.id}`)).body.includes(link), 'once sealed');
      const certificateId = await drawnLate(key, s.id, s.seal, 0);
      assert.ok((await get(`/g/${s.id}`)).body.includes(link), 'once drawn');
      assert.ok((await get(`/verify/${certificateId}`)).body.includes(link), 'on the certificate page');
    });
  });
}

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { canonicalJsonBytes } from '../../src/proof/canonical-json.ts';
import { openCheckpoint } from '../../src/proof/checkpoint.ts';
import { fromBase64, fromHex } from '../../src/proof/hex.ts';
import { openKeyEntry, readLogEntry, splitLogAnnotations } from '../../src/proof/log-entry.ts';
import { leafHash, verifyInclusion } from '../../src/proof/merkle.ts';
import { verifyConsistency } from '../../src/proof/merkle-proofs.ts';
import { parseVerifierKey } from '../../src/proof/note.ts';
import { draw, readyGiveaway } from '../giveaways/giveaway-helpers.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';
import { pdfText } from '../pdf/pdf-text.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

for (const target of await storeTargets()) {
  describe(`the transparency log over HTTP (${target.dialect})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ dialect: target.dialect });
    });
    after(() => t.close());

    const get = (url: string) => t.app.inject({ url });

    test('the signing key is announced by the log key before it signs; the keys document names both', async () => {
      const doc = (await get('/.well-known/tyche-keys.json')).json();
      assert.equal(doc.log.origin, '127.0.0.1:8080/log');
      const logKey = parseVerifierKey(doc.log.key);
      assert.equal(logKey.name, doc.log.origin);
      const [signing] = doc.keys;
      assert.equal(signing.log_indices.length, 1);
      const index = signing.log_indices[0];
      const [entry] = (await get(`/log/entries?start=${index}&end=${index + 1}`)).json().entries;
      assert.deepEqual([entry.kind, entry.id], ['key', signing.kid]);
      const read = readLogEntry(fromBase64(entry.leaf_data)!, 'key', signing.kid);
      assert.ok(read.ok, read.ok ? '' : read.problem);
      const opened = openKeyEntry(read.object, logKey.publicKey, sha256);
      assert.ok(opened.ok, opened.ok ? '' : opened.problem);
      assert.equal(Buffer.from(opened.key.publicKey).toString('base64url'), signing.x);
      const forged = { ...read.object, created_at: '2021-01-01T00:00:00.000Z' };
      assert.equal(openKeyEntry(forged, logKey.publicKey, sha256).ok, false);
    });

    test('a certificate is logged in its transaction; checkpoint, inclusion and consistency verify', async () => {
      const before = await get('/log/checkpoint');
      assert.equal(before.statusCode, 200);
      assert.match(String(before.headers['content-type']), /^text\/plain; charset=utf-8/);
      assert.equal(before.headers['cache-control'], 'no-store');
      const { log } = (await get('/.well-known/tyche-keys.json')).json();
      const old = openCheckpoint(before.body, log.key);
      assert.ok(old.ok, old.ok ? '' : old.problem);

      const key = await t.key();
      const id = await readyGiveaway(t, key, 5, 2);
      const drawn = (await draw(t, key, id)).json();
      assert.equal(typeof drawn.log_index, 'number');
      const now = openCheckpoint((await get('/log/checkpoint')).body, log.key);
      assert.ok(now.ok, now.ok ? '' : now.problem);
      assert.equal(now.checkpoint.size, drawn.log_index + 1);

      const published = (await get(`/verify/${drawn.certificate_id}.json`)).json();
      assert.equal(published.log_index, drawn.log_index);
      const leaf = leafHash(canonicalJsonBytes(splitLogAnnotations(published).signed), sha256);
      const inclusion = await get(
        `/log/proof/inclusion?index=${drawn.log_index}&size=${now.checkpoint.size}`,
      );
      assert.equal(inclusion.statusCode, 200);
      assert.match(String(inclusion.headers['cache-control']), /immutable/);
      const path = inclusion.json().proof.map(fromHex);
      assert.ok(
        verifyInclusion(leaf, drawn.log_index, now.checkpoint.size, path, now.checkpoint.root, sha256),
      );

      const [first, second] = [old.checkpoint.size, now.checkpoint.size];
      const consistency = (await get(`/log/proof/consistency?first=${first}&second=${second}`)).json();
      assert.deepEqual([consistency.first, consistency.second], [first, second]);
      const proof = consistency.proof.map(fromHex);
      assert.ok(verifyConsistency(first, second, old.checkpoint.root, now.checkpoint.root, proof, sha256));

      const page = (await get(`/verify/${drawn.certificate_id}`)).body;
      assert.ok(page.includes(`entry ${drawn.log_index} of /log`), 'the page names the log entry');
      const pdf = await t.app.inject({ url: `/verify/${drawn.certificate_id}.pdf` });
      assert.ok((await pdfText(pdf.rawPayload)).text.join(' ').includes(`entry ${drawn.log_index} of /log`));

      const [entry] = (await get(`/log/entries?start=${drawn.log_index}&end=${second}`)).json().entries;
      assert.deepEqual(
        fromBase64(entry.leaf_data),
        canonicalJsonBytes(splitLogAnnotations(published).signed),
      );
    });

    test('bad ranges are 400 problems naming what to fix', async () => {
      const size = openCheckpointSize((await get('/log/checkpoint')).body);
      const bad = [
        `/log/entries?start=2&end=1`,
        `/log/entries?start=0&end=${size + 1}`,
        `/log/entries?start=0&end=1001`,
        `/log/entries?start=-1&end=1`,
        `/log/entries?end=1`,
        `/log/proof/inclusion?index=${size}&size=${size}`,
        `/log/proof/inclusion?index=0&size=${size + 1}`,
        `/log/proof/consistency?first=${size}&second=${size - 1}`,
        `/log/proof/consistency?first=0&second=${size + 1}`,
      ];
      for (const url of bad) {
        const res = await get(url);
        assert.equal(res.statusCode, 400, url);
        assert.match(String(res.headers['content-type']), /application\/problem\+json/, url);
        assert.ok(res.json().detail, url);
      }
      // Not a number at all is a type error, as everywhere in the API.
      for (const url of ['/log/entries?start=a&end=1', '/log/proof/consistency?first=1.5&second=2']) {
        assert.equal((await get(url)).statusCode, 422, url);
      }
      assert.equal((await get(`/log/entries?start=${size}&end=${size}`)).json().entries.length, 0);
    });
  });
}

function openCheckpointSize(note: string): number {
  return Number(note.split('\n')[1]);
}

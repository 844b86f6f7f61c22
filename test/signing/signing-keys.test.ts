import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { createConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import { createLogService } from '../../src/log/log.service.ts';
import { createServices } from '../../src/services.ts';
import { LEASE_MS } from '../../src/signing/signer.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { addParticipants, createGiveaway, draw } from '../giveaways/giveaway-helpers.ts';
import { bearer } from '../helpers/app.ts';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.ts';
import { storeTargets } from '../helpers/stores.ts';
import { LOG_ORIGIN, processSigner } from './signer-helpers.ts';

const example = JSON.parse(
  readFileSync(new URL('../fixtures/certificate-example.json', import.meta.url), 'utf8'),
);
const OTHER_SEED = Buffer.alloc(32, 7).toString('base64url');
const clock = { now: () => new Date() };

/** An app on an existing store, as `tyche serve` would build it. */
async function appOn(
  store: Store,
  env: Record<string, string>,
  extra: Record<string, string> = {},
  options: { clock?: FakeClock } = {},
) {
  const config = createConfig({ ...env, TYCHE_SOURCES: 'system', TYCHE_TSA_URLS: '', ...extra });
  const metrics = createMetrics();
  const services = createServices(config, store, { registry: metrics.registry, clock: options.clock });
  const app = await buildApp({ config, store, metrics, ...services });
  await app.ready();
  const keys = async () => (await app.inject({ url: '/.well-known/tyche-keys.json' })).json().keys;
  return { app, services, keys };
}

for (const target of await storeTargets()) {
  describe(`signing keys on ${target.dialect}`, { skip: target.skip }, () => {
    test('generated at start, published without a key, kept across restarts', async () => {
      const opened = await target.open();
      try {
        const first = await appOn(opened.store, opened.env);
        const res = await first.app.inject({ url: '/.well-known/tyche-keys.json' });
        assert.equal(res.statusCode, 200);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        assert.match(String(res.headers['cache-control']), /max-age/);
        const [published] = res.json().keys;
        assert.deepEqual(Object.keys(published).sort(), [
          'alg',
          'created_at',
          'crv',
          'kid',
          'kty',
          'log_indices',
          'retired_at',
          'use',
          'x',
        ]);
        assert.equal(published.kty, 'OKP');
        assert.equal(published.crv, 'Ed25519');
        assert.equal(published.alg, 'EdDSA');
        assert.equal(published.use, 'sig');
        assert.equal(published.retired_at, null);
        assert.equal((await first.services.signer.current()).kid, published.kid);
        await first.app.close();
        await opened.store.close();

        // A new process on the same data: same key, no second one.
        const reopened = openStore(opened.env);
        try {
          const second = await appOn(reopened, opened.env);
          assert.deepEqual(await second.keys(), [published]);
          await second.app.close();
        } finally {
          await reopened.close();
        }
      } finally {
        await opened.cleanup().catch(() => {});
      }
    });

    test('TYCHE_SIGNING_KEY signs; earlier keys stay published, a replaced one retired once unused', async () => {
      const opened = await target.open();
      const clock = createFakeClock(Date.now());
      try {
        const generated = await appOn(opened.store, opened.env, {}, { clock });
        const [generatedKey] = await generated.keys();
        await generated.app.close();

        const configured = await appOn(
          opened.store,
          opened.env,
          { TYCHE_SIGNING_KEY: example.key.seed },
          { clock },
        );
        const key = (await configured.services.accounts.createKey({ plan: 'business' })).key;
        const id = await createGiveaway(configured, key);
        await addParticipants(configured, key, id, [{ telegram_id: 1 }]);
        const drawn = (await draw(configured, key, id)).json();
        const cert = await configured.services.giveaways.certificates.get(drawn.certificate_id);
        assert.equal(cert?.signature.kid, example.key.jwk.kid);
        const keys = await configured.keys();
        assert.deepEqual(
          keys.map((k: { kid: string }) => k.kid).sort(),
          [generatedKey.kid, example.key.jwk.kid].sort(),
        );
        const published = keys.find((k: { kid: string }) => k.kid === example.key.jwk.kid);
        assert.equal(published.x, example.key.jwk.x);
        assert.equal(
          JSON.stringify(Object.values(published).slice(0, 6)),
          JSON.stringify(Object.values(example.key.jwk)),
        );
        await configured.app.close();

        const rotated = await appOn(opened.store, opened.env, { TYCHE_SIGNING_KEY: OTHER_SEED }, { clock });
        const replaced = async () =>
          (await rotated.keys()).find((k: { kid: string }) => k.kid === example.key.jwk.kid);
        assert.equal((await rotated.keys()).length, 3);
        // The process that signed with it may still date a signature by it until its lease ends.
        assert.equal((await replaced()).retired_at, null);
        clock.advance(LEASE_MS);
        assert.equal((await replaced()).retired_at, clock.now().toISOString());
        const old = await rotated.app.inject({ url: `/api/v1/giveaways/${id}`, headers: bearer(key) });
        assert.equal(old.json().certificate_id, drawn.certificate_id, 'old certificates are untouched');
        await rotated.app.close();
      } finally {
        await opened.cleanup().catch(() => {});
      }
    });

    test('processes that start together settle on one generated key', async () => {
      const opened = await target.open();
      // Several handles on one SQLite file cannot share a process: node:sqlite waits for a lock
      // synchronously, which stalls the handle holding it. One handle per process is the
      // deployment; the signers below still race within it.
      const extra = target.dialect === 'postgres' ? 3 : 0;
      const stores = [opened.store, ...Array.from({ length: extra }, () => openStore(opened.env))];
      try {
        const signers = stores.flatMap((store) =>
          Array.from({ length: 3 }, () => processSigner(store, clock)),
        );
        const kids = await Promise.all(signers.map(async (signer) => (await signer.current()).kid));
        assert.equal(new Set(kids).size, 1, kids.join(','));
        assert.equal((await signers[0].publicKeys()).length, 1);
        const log = createLogService({ db: opened.store.db, origin: LOG_ORIGIN });
        assert.deepEqual((await log.keyIndices(kids[0])).length, 1, 'the key is announced exactly once');
      } finally {
        for (const store of stores.slice(1)) await store.close();
        await opened.cleanup().catch(() => {});
      }
    });
  });
}

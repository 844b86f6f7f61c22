import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createLogService } from '../../src/log/log.service.ts';
import { sealCertificate } from '../../src/signing/certificate-crypto.ts';
import { checkLease, LEASE_MS, REFRESH_MS, StaleKeyError } from '../../src/signing/signer.ts';
import type { Store } from '../../src/store/store.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { storeTargets } from '../helpers/stores.ts';
import { LOG_ORIGIN, processSigner } from './signer-helpers.ts';

const OLD_SEED = Buffer.alloc(32, 1).toString('base64url');
const NEW_SEED = Buffer.alloc(32, 2).toString('base64url');

/** The key entries of the log, oldest first: which kid, and whether the entry retires it. */
async function keyEntries(store: Store): Promise<[string, boolean][]> {
  const { log } = createLogService({ db: store.db, origin: LOG_ORIGIN });
  const rows = await log.entries(0, await log.size());
  return rows
    .filter((row) => row.kind === 'key')
    .map((row) => {
      const entry = JSON.parse(Buffer.from(row.leafData).toString('utf8'));
      return [entry.kid, entry.retired_at !== undefined];
    });
}

async function retiredAt(store: Store, kid: string): Promise<number | null> {
  const row = await store.db
    .selectFrom('signing_keys')
    .select('retired_at')
    .where('kid', '=', kid)
    .executeTakeFirstOrThrow();
  return row.retired_at === null ? null : Number(row.retired_at);
}

for (const target of await storeTargets()) {
  describe(`signing key leases on ${target.dialect}`, { skip: target.skip }, () => {
    test('a rotation reaches every process within REFRESH_MS; the old key retires once no lease on it lasts', async () => {
      const opened = await target.open();
      try {
        const clock = createFakeClock(Date.now());
        const t0 = clock.now().getTime();
        const [a, b, cli] = [0, 1, 2].map(() => processSigner(opened.store, clock));
        const old = (await a.current()).kid;
        assert.equal((await b.current()).kid, old);

        clock.advance(1_000);
        const { kid, replaced } = await cli.rotate();
        assert.deepEqual(replaced, [old]);
        // Until their next read, both go on signing with the old key, which stays valid meanwhile.
        assert.equal((await a.current()).kid, old);
        assert.deepEqual(await cli.retireUnused(), {
          retired: [],
          waiting: [{ kid: old, until: t0 + LEASE_MS }],
        });

        clock.advance(REFRESH_MS - 1_000);
        assert.equal((await a.current()).kid, kid);
        assert.equal((await b.current()).kid, kid);
        assert.deepEqual(
          (await cli.retireUnused()).retired,
          [],
          'a request may still date a signature by it',
        );
        assert.equal(await retiredAt(opened.store, old), null);

        clock.advance(LEASE_MS - REFRESH_MS);
        assert.deepEqual(await cli.retireUnused(), { retired: [old], waiting: [] });
        assert.equal(await retiredAt(opened.store, old), clock.now().getTime());
        assert.deepEqual(await cli.retireUnused(), { retired: [], waiting: [] }, 'retired once');
        assert.deepEqual(await keyEntries(opened.store), [
          [old, false],
          [kid, false],
          [old, true],
        ]);
      } finally {
        await opened.cleanup().catch(() => {});
      }
    });

    test('a process still configured with a replaced key keeps it valid until it stops', async () => {
      const opened = await target.open();
      try {
        const clock = createFakeClock(Date.now());
        const straggler = processSigner(opened.store, clock, OLD_SEED);
        const old = (await straggler.current()).kid;
        const restarted = processSigner(opened.store, clock, NEW_SEED);
        const kid = (await restarted.current()).kid;

        // Not restarted, it signs with the old key at every read, and the key is not retired under it.
        let lastUntil = 0;
        for (let i = 0; i < 6; i++) {
          clock.advance(REFRESH_MS);
          const key = await straggler.current();
          assert.equal(key.kid, old);
          lastUntil = key.until;
          assert.equal((await restarted.current()).kid, kid);
          assert.equal(await retiredAt(opened.store, old), null);
        }

        // Stopped: once its lease has run out, the next read elsewhere retires the key.
        clock.advance(LEASE_MS);
        await restarted.current();
        const retired = await retiredAt(opened.store, old);
        assert.equal(retired, clock.now().getTime());
        assert.ok(retired >= lastUntil, 'no signature it made is dated after the retirement');

        // Started again with the old key, it announces it again before signing with it.
        await straggler.current();
        assert.equal(await retiredAt(opened.store, old), null);
        assert.deepEqual(await keyEntries(opened.store), [
          [old, false],
          [kid, false],
          [old, true],
          [old, false],
        ]);
      } finally {
        await opened.cleanup().catch(() => {});
      }
    });

    test('nothing is dated after its key’s lease, nor logged under a retired key', async () => {
      const opened = await target.open();
      try {
        const clock = createFakeClock(Date.now());
        const [a, cli] = [0, 1].map(() => processSigner(opened.store, clock));
        const held = await a.current();
        checkLease(held, held.until);
        assert.throws(() => checkLease(held, held.until + 1), StaleKeyError);

        await cli.rotate();
        clock.advance(LEASE_MS);
        assert.deepEqual((await cli.retireUnused()).retired, [held.kid]);

        // A process that held the key past its lease (a stalled one) cannot get it into the log.
        const transparency = createLogService({ db: opened.store.db, origin: LOG_ORIGIN });
        const append = (key: typeof held, id: string) =>
          opened.store.db
            .transaction()
            .execute((trx) =>
              transparency.appendSigned(
                trx,
                'certificate',
                id,
                sealCertificate({ id }, key),
                clock.now().getTime(),
              ),
            );
        const size = await transparency.log.size();
        await assert.rejects(append(held, 'c_stale'), StaleKeyError);
        assert.equal(await transparency.log.size(), size, 'the refused entry left nothing behind');
        assert.equal(await append(await a.current(), 'c_fresh'), size);
      } finally {
        await opened.cleanup().catch(() => {});
      }
    });
  });
}

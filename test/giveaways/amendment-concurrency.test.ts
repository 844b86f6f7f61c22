import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createConfig } from '../../src/config.ts';
import { CLAIM_DEADLINE_JOB, claimJobKey } from '../../src/giveaways/amendments/amendment-writes.ts';
import { createWinnerClaims } from '../../src/giveaways/amendments/winner-claims.ts';
import { createWinnerReplacement } from '../../src/giveaways/amendments/winner-replacement.ts';
import type { AnyCertificate, GiveawayRow } from '../../src/giveaways/core/giveaway.repository.ts';
import { createGiveawayStore } from '../../src/giveaways/giveaway-store.ts';
import { createServices } from '../../src/services.ts';
import { isAppError } from '../../src/shared/errors.ts';
import { openStore } from '../../src/store/store.ts';
import { storeTargets } from '../helpers/stores.ts';
import { drawnGiveaway, getGiveaway, publishedAndChecked, replace } from './amendment-helpers.ts';
import { startVerifiableApp, type VerifiableApp } from './verifiable-helpers.ts';

/** Lets calls through only once `n` have arrived: the reads before a transaction, interleaved. */
function gate(n: number) {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return async () => {
    if (++arrived >= n) open();
    await opened;
  };
}

for (const target of await storeTargets()) {
  describe(`replacements at the same time (${target.dialect})`, { skip: target.skip }, () => {
    let t: VerifiableApp;
    before(async () => {
      t = await startVerifiableApp({ dialect: target.dialect });
    });
    after(() => t.close());

    /** The replacement and claims of this store, whose first reads wait at `wait`. */
    function gated(wait: () => Promise<void>) {
      const { repos, uow } = createGiveawayStore(t.store.db, {
        transparency: t.services.transparency,
        publicBaseUrl: 'http://127.0.0.1:8080',
      });
      const reads = {
        list: async (id: number) => {
          await wait();
          return repos.amendments.list(id);
        },
        claims: (id: number) => repos.amendments.claims(id),
      };
      const certificateOf = async (row: GiveawayRow) =>
        JSON.parse((await repos.giveaways.findCertificate(row.certificate_id!))!.body) as AnyCertificate;
      const clock = t.clock;
      const replacement = createWinnerReplacement({
        uow,
        reads,
        certificateOf,
        leftChannel: async () => {},
        signer: t.services.signer,
        clock,
      });
      const claims = createWinnerClaims({
        uow,
        reads,
        giveaways: repos.giveaways,
        certificateOf,
        replace: replacement,
        clock,
        log: { warn() {} },
      });
      const row = async (publicId: string) => (await repos.giveaways.findByPublicId(publicId))!;
      return { replacement, claims, row };
    }

    test('two replacements of one position read at once: one is made, the other is 409 position_replaced', async () => {
      const key = await t.key();
      const { id, certificateId } = await drawnGiveaway(t, key, { reserves: 3 });
      const { replacement, row } = gated(gate(2));
      const drawn = await row(id);
      const outcomes = await Promise.allSettled([
        replacement(drawn, 1, { reason: 'other' }),
        replacement(drawn, 1, { reason: 'ineligible' }),
      ]);
      const made = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.filter((o) => o.status === 'rejected');
      assert.equal(made.length, 1);
      assert.equal(refused.length, 1);
      const error = (refused[0] as PromiseRejectedResult).reason;
      assert.ok(
        isAppError(error) && error.code === 'position_replaced' && error.status === 409,
        String(error),
      );
      assert.equal((await getGiveaway(t, key, id)).amendments.length, 1);
      assert.deepEqual((await publishedAndChecked(t, certificateId)).verdict.failures, []);
    });

    test('the deadline job and the owner at once: one amendment only', async () => {
      const key = await t.key();
      const { id, certificateId } = await drawnGiveaway(t, key, { winners: 1, claim_within: 'PT1H' });
      const { certificate } = await publishedAndChecked(t, certificateId);
      const job = (await t.services.jobs.find(claimJobKey(id, certificate.winners[0].index)))!;
      t.clock.advance(3_600_000);
      const { replacement, claims, row } = gated(gate(2));
      const [owner, deadline] = await Promise.allSettled([
        replacement(await row(id), 1, { reason: 'unclaimed' }),
        claims.handlers[CLAIM_DEADLINE_JOB](job),
      ]);
      assert.deepEqual(deadline, { status: 'fulfilled', value: { done: true } });
      const amendments = (await getGiveaway(t, key, id)).amendments;
      assert.equal(amendments.length, 1, JSON.stringify(owner));
      if (owner.status === 'rejected') assert.equal(owner.reason.code, 'position_replaced');
      else assert.deepEqual(owner.value.amendment, amendments[0]);
      assert.deepEqual((await publishedAndChecked(t, certificateId)).verdict.failures, []);
    });

    test('the deadline job run twice at once (a lease ended while it ran): one amendment', async () => {
      const key = await t.key();
      const { id, certificateId } = await drawnGiveaway(t, key, { winners: 1, claim_within: 'PT1H' });
      const { certificate } = await publishedAndChecked(t, certificateId);
      const job = (await t.services.jobs.find(claimJobKey(id, certificate.winners[0].index)))!;
      t.clock.advance(3_600_000);
      const handler = t.services.jobHandlers[CLAIM_DEADLINE_JOB];
      await Promise.all([handler(job), handler(job), t.runner.runDue()]);
      assert.equal((await getGiveaway(t, key, id)).amendments.length, 1);
    });

    test('a burst of requests for one position: each is made in turn or refused, and the chain holds', async () => {
      const key = await t.key();
      const { id, certificateId } = await drawnGiveaway(t, key, { reserves: 6 });
      const answers = await Promise.all(Array.from({ length: 6 }, () => replace(t, key, id, 1)));
      for (const res of answers) {
        assert.ok(
          res.statusCode === 200 || (res.statusCode === 409 && res.json().code === 'position_replaced'),
          res.body,
        );
      }
      const made = answers.filter((r) => r.statusCode === 200).map((r) => r.json().amendment.sequence);
      assert.deepEqual(
        made.sort((a, b) => a - b),
        made.map((_, i) => i + 1),
      );
      const { certificate, verdict } = await publishedAndChecked(t, certificateId);
      assert.deepEqual(verdict.failures, []);
      assert.equal(certificate.amendments.length, made.length);
    });

    test('two processes run the same deadline: one amendment', {
      skip: target.dialect === 'sqlite' ? 'on SQLite one process serves the store' : undefined,
    }, async () => {
      const key = await t.key();
      const { id, certificateId } = await drawnGiveaway(t, key, { winners: 2, claim_within: 'PT1H' });
      const other = openStore({ DATA_DIR: t.env.DATA_DIR, DATABASE_URL: t.env.DATABASE_URL });
      try {
        const second = createServices(createConfig(t.env), other, { clock: t.clock });
        t.clock.advance(3_600_000);
        const { certificate } = await publishedAndChecked(t, certificateId);
        const jobs = await Promise.all(
          certificate.winners.map((w: { index: number }) => t.services.jobs.find(claimJobKey(id, w.index))),
        );
        await Promise.all(
          jobs.flatMap((job) => [
            t.services.jobHandlers[CLAIM_DEADLINE_JOB](job!),
            second.jobHandlers[CLAIM_DEADLINE_JOB](job!),
          ]),
        );
        const amendments = (await getGiveaway(t, key, id)).amendments;
        assert.deepEqual(
          amendments.map((a: { position: number }) => a.position).sort(),
          [1, 2],
          'each unclaimed winner replaced once',
        );
        assert.deepEqual((await publishedAndChecked(t, certificateId)).verdict.failures, []);
      } finally {
        await other.close();
      }
    });
  });
}

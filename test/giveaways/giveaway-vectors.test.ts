import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createAccountRepository } from '../../src/accounts/account.repository.ts';
import { type Certificate, sha256 } from '../../src/giveaways/draw/certificate.ts';
import { createGiveawayService } from '../../src/giveaways/giveaway.service.ts';
import { createGiveawayStore } from '../../src/giveaways/giveaway-store.ts';
import type { DrawResponse } from '../../src/giveaways/results/giveaway-draw-views.ts';
import { QUICKNET } from '../../src/proof/drand.ts';
import { fromHex } from '../../src/proof/draw-v1.ts';
import { verifyCertificate } from '../../src/proof/verifier.ts';
import type { Operation, OperationContext } from '../../src/randomness/random.service.ts';
import type { SourceName } from '../../src/randomness/source.ts';
import { createDrandClient } from '../../src/randomness/sources/drand-client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

interface Vector {
  name: string;
  participants?: number[];
  winners_count: number;
  randomness: { source: SourceName; bytes: string; beacon_value?: string; system_entropy?: string };
  expected: {
    participants_count: number;
    participants_hash: string;
    seed: string;
    winners: { position: number; index: number; telegram_id: number }[];
  };
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/draw-v1-vectors.json', import.meta.url), 'utf8'),
) as {
  vectors: Vector[];
};

/** The randomness a vector records, delivered as the cascade would have delivered it. */
function fakeRandom(v: Vector) {
  const beacon = v.randomness.beacon_value !== undefined;
  const op: Operation = {
    requestId: randomUUID(),
    material: {
      source: v.randomness.source,
      kind: beacon ? 'beacon' : 'private',
      bytes: fromHex(beacon ? v.randomness.beacon_value! : v.randomness.bytes),
      reference: `${v.randomness.source}:vector`,
      fetchedAt: new Date('2025-06-01T12:00:00Z'),
    },
    systemEntropy: beacon ? fromHex(v.randomness.system_entropy!) : new Uint8Array(32),
    createdAt: new Date('2025-06-01T12:00:00Z'),
  };
  return {
    operate: async () => [op],
    rows: (ctx: OperationContext, ops: Operation[]) =>
      ops.map((o) => ({
        request_id: o.requestId,
        x_request_id: ctx.xRequestId,
        account_id: ctx.accountId,
        key_id: ctx.keyId,
        endpoint: ctx.endpoint,
        source: o.material.source,
        source_reference: o.material.reference,
        source_fetched_at: o.material.fetchedAt.getTime(),
        created_at: o.createdAt.getTime(),
      })),
  };
}

/**
 * The service's draw, fed each published vector's R, must produce the vector's hash, seed and
 * winners (docs/draw-algorithm.md §7): the server runs tyche-draw-v1 as specified, end to end
 * from stored participants to the sealed certificate.
 */
describe('the service draws the published vectors', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  for (const v of fixture.vectors.filter((vector) => vector.participants)) {
    test(v.name, async () => {
      const service = createGiveawayService({
        ...createGiveawayStore(t.store.db, {
          transparency: t.services.transparency,
          publicBaseUrl: 'http://127.0.0.1:8080',
        }),
        random: fakeRandom(v),
        clock: { now: () => new Date() },
        signer: t.services.signer,
        publicBaseUrl: 'http://127.0.0.1:8080',
        owners: createAccountRepository(t.store.db),
        drand: createDrandClient({ url: 'http://127.0.0.1:9', chain: QUICKNET }),
        drandRelay: 'http://127.0.0.1:9',
        delayRounds: 10,
        drawWaitMs: 0,
        transparency: t.services.transparency,
      });
      const created = await t.services.accounts.createKey({ plan: 'business' });
      const ctx = { accountId: created.account_id, keyId: 'k', xRequestId: 'x', endpoint: 'test' };
      const giveaway = await service.create(ctx.accountId, {
        title: v.name,
        winners_count: v.winners_count,
        draw_mode: 'instant',
      });
      // Join order differs from canonical order on purpose: the draw must sort.
      const ids = [...v.participants!].reverse();
      await service.addParticipants(
        ctx.accountId,
        giveaway.public_id,
        ids.map((telegram_id) => ({ telegram_id })),
      );
      const outcome = await service.draw(ctx, giveaway.public_id);
      assert.equal(outcome.kind, 'drawn');
      const res = outcome.draw as DrawResponse;
      assert.equal(res.participants_count, v.expected.participants_count);
      assert.equal(res.participants_hash, v.expected.participants_hash);
      const cert = (await service.certificates.get(res.certificate_id)) as Certificate;
      assert.equal(cert.randomness.bytes, v.randomness.bytes);
      assert.equal(cert.seed, v.expected.seed);
      assert.deepEqual(
        cert.winners.map(({ position, index, telegram_id }) => ({ position, index, telegram_id })),
        v.expected.winners,
      );
      assert.deepEqual(
        res.winners.map((w) => w.telegram_id),
        v.expected.winners.map((w) => w.telegram_id),
      );
      if (v.randomness.beacon_value) {
        assert.equal(cert.randomness.beacon_value, v.randomness.beacon_value);
        assert.equal(cert.randomness.system_entropy, v.randomness.system_entropy);
      }
      const keys = await t.services.signer.publicKeys();
      assert.equal((await verifyCertificate({ certificate: cert, keys: { keys }, sha256 })).valid, true);
    });
  }
});

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  createDrandSource,
  DRAND_QUICKNET,
  DRAND_URL,
  drandRoundAt,
} from '../../../src/randomness/sources/drand.source.ts';
import { createFakeClock } from '../../helpers/fake-clock.ts';
import { DRAND_MODES, type DrandMode, type FakeDrand, startFakeDrand } from '../../helpers/fake-upstreams.ts';
import {
  COMMON_MODE_ERRORS,
  expectSourceError,
  readFixture,
  sentTo,
  settledYet,
  stubFetch,
} from '../../helpers/source-testing.ts';

interface Beacon {
  round: number;
  randomness: string;
  signature: string;
}
const quicknet = JSON.parse(readFixture('drand-quicknet.json').toString('utf8'));
const beacons: Beacon[] = quicknet.beacons;
const roundTimeMs = (round: number) => (DRAND_QUICKNET.genesis + (round - 1) * DRAND_QUICKNET.period) * 1000;
/** A clock `extraMs` after the round's time (one second by default). */
const clockAt = (round: number, extraMs = 1000) => createFakeClock(roundTimeMs(round) + extraMs);
const sourceFor = (round: number, body: unknown, extraMs?: number) =>
  createDrandSource({
    timeoutMs: 1000,
    clock: clockAt(round, extraMs),
    fetch: stubFetch({ body: JSON.stringify(body) }).fetch,
  });

describe('drand source on real quicknet beacons', () => {
  it('uses the quicknet chain of the fixture by default', () => {
    assert.equal(DRAND_QUICKNET.chainHash, quicknet.chainHash);
    assert.equal(DRAND_QUICKNET.publicKey, quicknet.info.public_key);
    assert.equal(DRAND_QUICKNET.genesis, quicknet.info.genesis_time);
    assert.equal(DRAND_QUICKNET.period, quicknet.info.period);
  });

  for (const beacon of beacons) {
    it(`round ${beacon.round} verifies and gives its 32 randomness bytes`, async () => {
      const stub = stubFetch({ body: JSON.stringify(beacon) });
      const clock = clockAt(beacon.round);
      const batch = await createDrandSource({ timeoutMs: 1000, clock, fetch: stub.fetch }).fetch();
      assert.equal(stub.calls[0].url, `${DRAND_URL}/${quicknet.chainHash}/public/latest`);
      assert.equal(batch.source, 'drand');
      assert.equal(batch.kind, 'beacon');
      assert.equal(Buffer.from(batch.bytes).toString('hex'), beacon.randomness);
      assert.equal(batch.reference, String(beacon.round));
      assert.equal(batch.producedAt.getTime(), roundTimeMs(beacon.round));
      assert.equal(batch.expiresAt?.getTime(), roundTimeMs(beacon.round) + 5 * 3000);
      assert.deepEqual(batch.fetchedAt, clock.now());
    });

    it(`round ${beacon.round}'s signature fails for round ${beacon.round + 1}`, async () => {
      const source = sourceFor(beacon.round + 1, { ...beacon, round: beacon.round + 1 });
      await expectSourceError(source.fetch(), 'drand', /BLS signature does not verify/);
    });
  }

  it('rejects randomness that is not SHA-256(signature)', async () => {
    const [beacon] = beacons;
    const source = sourceFor(beacon.round, { ...beacon, randomness: beacons[1].randomness });
    await expectSourceError(source.fetch(), 'drand', /randomness is not SHA-256\(signature\)/);
  });

  it('rejects a signature that is not a point of the curve', async () => {
    const signature = '00'.repeat(48);
    const randomness = createHash('sha256').update(Buffer.from(signature, 'hex')).digest('hex');
    const source = sourceFor(1, { round: 1, randomness, signature });
    await expectSourceError(source.fetch(), 'drand', /malformed BLS signature/);
  });

  it('accepts a round five periods old and rejects it a millisecond later', async () => {
    const beacon = beacons[3];
    assert.equal((await sourceFor(beacon.round, beacon, 15_000).fetch()).reference, '657413');
    await expectSourceError(
      sourceFor(beacon.round, beacon, 15_001).fetch(),
      'drand',
      /stale round 657413: expected about 657418/,
    );
  });

  it('rejects a round older than one it already served', async () => {
    const stub = stubFetch([{ body: JSON.stringify(beacons[1]) }, { body: JSON.stringify(beacons[0]) }]);
    const source = createDrandSource({ timeoutMs: 1000, clock: clockAt(2), fetch: stub.fetch });
    assert.equal((await source.fetch()).reference, '2');
    await expectSourceError(source.fetch(), 'drand', /round went back from 2 to 1/);
  });

  for (const [label, edit, message] of [
    ['round 0', { round: 0 }, /body.round must be an integer in \[1, /],
    ['round as a string', { round: '3' }, /body.round must be an integer/],
    ['short signature', { signature: 'ab'.repeat(47) }, /body.signature must be 96 hex characters/],
    ['randomness not hex', { randomness: 'zz'.repeat(32) }, /body.randomness must be 64 hex characters/],
  ] as const) {
    it(`rejects a body with ${label}`, async () => {
      await expectSourceError(sourceFor(3, { ...beacons[2], ...edit }).fetch(), 'drand', message);
    });
  }

  it('computes the current round as floor((t − genesis) / period) + 1', () => {
    assert.equal(drandRoundAt(new Date(DRAND_QUICKNET.genesis * 1000), DRAND_QUICKNET), 1);
    assert.equal(drandRoundAt(new Date(roundTimeMs(657413) + 2999), DRAND_QUICKNET), 657413);
    assert.equal(drandRoundAt(new Date(roundTimeMs(657413) + 3000), DRAND_QUICKNET), 657414);
  });

  it('refuses a chain given only in part', () => {
    assert.throws(() => createDrandSource({ timeoutMs: 1000, chainHash: quicknet.chainHash }), TypeError);
    assert.throws(() =>
      createDrandSource({ timeoutMs: 1000, ...DRAND_QUICKNET, publicKey: '00'.repeat(96) }),
    );
  });
});

describe('drand source against a fake chain', () => {
  const clock = createFakeClock('2026-05-01T10:00:00.500Z');
  let fake: FakeDrand;
  before(async () => {
    fake = await startFakeDrand({ clock });
  });
  after(() => fake.close());
  afterEach(async () => {
    await fake.setMode('ok');
  });
  // Timeouts run on the fake clock too: a served answer never turns into one on a busy machine,
  // and a hang is cut when the test moves the clock.
  const source = () =>
    createDrandSource({
      url: fake.url,
      chain: fake.info,
      timeoutMs: 200,
      clock,
      timers: clock,
    });

  it('serves the current round, and the next one a period later', async () => {
    const first = await source().fetch();
    assert.equal(first.reference, String(drandRoundAt(clock.now(), fake)));
    clock.advance(3000);
    const next = await source().fetch();
    assert.equal(Number(next.reference), Number(first.reference) + 1);
    assert.notDeepEqual(next.bytes, first.bytes);
  });

  it('does not trust the fake chain with the quicknet key', async () => {
    const quicknetKey = createDrandSource({
      ...fake,
      url: fake.url,
      publicKey: DRAND_QUICKNET.publicKey,
      timeoutMs: 200,
      clock,
      timers: clock,
    });
    await expectSourceError(quicknetKey.fetch(), 'drand', /BLS signature does not verify/);
  });

  it('rejects a round that does not advance once it is five periods behind', async () => {
    await fake.setMode('stuck');
    const client = source();
    const stuck = await client.fetch();
    clock.advance(3000);
    assert.equal((await client.fetch()).reference, stuck.reference, 'the same round is fine while fresh');
    clock.advance(5 * 3000);
    await expectSourceError(client.fetch(), 'drand', new RegExp(`stale round ${stuck.reference}`));
  });

  const expected: Record<Exclude<DrandMode, 'ok' | 'stuck'>, RegExp> = {
    ...COMMON_MODE_ERRORS,
    'bad-signature': /BLS signature does not verify/,
  };
  for (const mode of DRAND_MODES.filter((m) => m !== 'stuck')) {
    it(`${mode} → SourceError`, async () => {
      await fake.setMode(mode);
      if (mode !== 'hang') {
        await expectSourceError(source().fetch(), 'drand', expected[mode]);
        return;
      }
      const { pending } = await sentTo(fake, () => source().fetch());
      clock.advance(199);
      assert.equal(await settledYet(pending), false, 'the hang holds the call until the timeout');
      clock.advance(1);
      await expectSourceError(pending, 'drand', expected[mode]);
    });
  }
});

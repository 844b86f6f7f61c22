import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  createNistSource,
  NIST_BEACON_URL,
  nistOutputValue,
  parseNistPulse,
  serializeNistPulse,
} from '../../../src/randomness/sources/nist.source.ts';
import { createFakeClock } from '../../helpers/fake-clock.ts';
import { type FakeNist, NIST_MODES, type NistMode, startFakeNist } from '../../helpers/fake-upstreams.ts';
import {
  COMMON_MODE_ERRORS,
  expectSourceError,
  readFixture,
  sentTo,
  settledYet,
  stubFetch,
} from '../../helpers/source-testing.ts';

const PULSES = ['nist-pulse.json', 'nist-pulse-next.json'];
const certificate = readFixture('nist-certificate.pem').toString('utf8');
const rawPulse = (name: string) => readFixture(name).toString('utf8');
const pulseJson = (text: string) => JSON.parse(text).pulse as Record<string, unknown>;
/** A clock one second after a pulse's timeStamp (+ extra ms). */
const clockAfter = (text: string, extraMs = 0) =>
  createFakeClock(Date.parse(String(pulseJson(text).timeStamp)) + 1000 + extraMs);

/** Re-seals an edited pulse (outputValue recomputed) so only the check under test can fail. */
function reseal(pulse: Record<string, unknown>): string {
  const parsed = parseNistPulse({ pulse: { ...pulse, outputValue: '00'.repeat(64) } });
  const output = nistOutputValue(serializeNistPulse(parsed), parsed.signatureValue);
  return JSON.stringify({
    pulse: { ...pulse, outputValue: Buffer.from(output).toString('hex').toUpperCase() },
  });
}

describe('nist source on the two real pulses', () => {
  for (const name of PULSES) {
    it(`${name} passes the integrity check and gives its 64 outputValue bytes`, async () => {
      const text = rawPulse(name);
      assert.ok(text.includes('\r\n'), 'the capture keeps its CRLF line endings');
      const pulse = pulseJson(text);
      const stub = stubFetch({ body: readFixture(name), contentType: 'application/json;charset=UTF-8' });
      const clock = clockAfter(text);
      const batch = await createNistSource({ timeoutMs: 1000, clock, fetch: stub.fetch }).fetch();
      assert.equal(stub.calls[0].url, `${NIST_BEACON_URL}/pulse/last`);
      assert.equal(batch.source, 'nist');
      assert.equal(batch.kind, 'beacon');
      assert.equal(Buffer.from(batch.bytes).toString('hex').toUpperCase(), pulse.outputValue);
      assert.equal(batch.bytes.length, 64);
      assert.equal(batch.reference, pulse.uri);
      assert.equal(batch.producedAt.toISOString(), pulse.timeStamp);
      assert.deepEqual(batch.fetchedAt, clock.now());
      assert.equal(batch.expiresAt?.getTime(), Date.parse(String(pulse.timeStamp)) + 2 * 60_000);
    });

    it(`${name} also passes the RSA signature check with the real certificate`, async () => {
      const text = rawPulse(name);
      const source = createNistSource({
        timeoutMs: 1000,
        clock: clockAfter(text),
        certificate,
        fetch: stubFetch({ body: text }).fetch,
      });
      assert.equal((await source.fetch()).reference, pulseJson(text).uri);
    });

    for (const field of ['timeStamp', 'localRandomValue', 'precommitmentValue', 'outputValue']) {
      it(`${name} fails the integrity check after a one-character change of ${field}`, async () => {
        const text = rawPulse(name);
        // The first character of the value: a year digit or a hex digit, swapped for another of its kind.
        const edited = text.replace(
          new RegExp(`("${field}" : ")(.)`),
          (_, head, c) => head + (c === '2' ? '3' : '2'),
        );
        assert.notEqual(edited, text);
        const source = createNistSource({
          timeoutMs: 1000,
          clock: clockAfter(text),
          fetch: stubFetch({ body: edited }).fetch,
        });
        await expectSourceError(source.fetch(), 'nist', /fails its integrity check/);
      });
    }
  }

  it('serializes the real pulse to the 807 bytes NIST hashes', () => {
    const pulse = parseNistPulse(JSON.parse(rawPulse('nist-pulse.json')));
    assert.equal(serializeNistPulse(pulse).length, 807);
  });

  it('accepts a pulse exactly two periods old and rejects one a millisecond older', async () => {
    const text = rawPulse('nist-pulse.json');
    const fresh = createNistSource({
      timeoutMs: 1000,
      clock: clockAfter(text, 119_000),
      fetch: stubFetch({ body: text }).fetch,
    });
    assert.ok((await fresh.fetch()).bytes.length === 64);
    const stale = createNistSource({
      timeoutMs: 1000,
      clock: clockAfter(text, 119_001),
      fetch: stubFetch({ body: text }).fetch,
    });
    await expectSourceError(stale.fetch(), 'nist', /stale pulse .*\/pulse\/1921299/);
  });

  it('rejects a pulse dated more than a period ahead of our clock', async () => {
    const text = rawPulse('nist-pulse.json');
    const source = createNistSource({
      timeoutMs: 1000,
      clock: clockAfter(text, -62_000),
      fetch: stubFetch({ body: text }).fetch,
    });
    await expectSourceError(source.fetch(), 'nist', /in the future/);
  });

  it('rejects a validly hashed pulse whose RSA signature is not the certificate’s', async () => {
    const text = rawPulse('nist-pulse.json');
    const pulse = pulseJson(text);
    const signature = String(pulse.signatureValue);
    const forged = reseal({
      ...pulse,
      signatureValue: (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1),
    });
    const source = createNistSource({
      timeoutMs: 1000,
      clock: clockAfter(text),
      certificate,
      fetch: stubFetch({ body: forged }).fetch,
    });
    await expectSourceError(source.fetch(), 'nist', /invalid RSA signature/);
  });

  it('rejects a pulse that names another certificate than the configured one', async () => {
    const text = rawPulse('nist-pulse.json');
    const other = reseal({ ...pulseJson(text), certificateId: 'AB'.repeat(64) });
    const source = createNistSource({
      timeoutMs: 1000,
      clock: clockAfter(text),
      certificate,
      fetch: stubFetch({ body: other }).fetch,
    });
    await expectSourceError(source.fetch(), 'nist', /names another certificate/);
  });

  for (const [label, edit, message] of [
    ['outputValue of 126 hex', { outputValue: 'AB'.repeat(63) }, /outputValue must be 128 hex characters/],
    [
      'outputValue with a non-hex character',
      { outputValue: `${'AB'.repeat(63)}AG` },
      /outputValue must be 128 hex/,
    ],
    ['missing uri', { uri: undefined }, /body.pulse.uri must be a string, got nothing/],
    ['period as a string', { period: '60000' }, /body.pulse.period must be an integer/],
    ['unknown cipherSuite', { cipherSuite: 1 }, /unsupported cipherSuite 1/],
    ['timeStamp that is not ISO', { timeStamp: 'yesterday' }, /timeStamp "yesterday" is not an ISO UTC time/],
    ['listValues not an array', { listValues: {} }, /listValues must be an array/],
  ] as const) {
    it(`rejects a pulse with ${label}`, async () => {
      const text = rawPulse('nist-pulse.json');
      const body = JSON.stringify({ pulse: { ...pulseJson(text), ...edit } });
      const source = createNistSource({
        timeoutMs: 1000,
        clock: clockAfter(text),
        fetch: stubFetch({ body }).fetch,
      });
      await expectSourceError(source.fetch(), 'nist', message);
    });
  }
});

describe('nist source against a fake beacon', () => {
  const clock = createFakeClock('2026-05-01T10:00:30.000Z');
  let fake: FakeNist;
  before(async () => {
    fake = await startFakeNist({ clock });
  });
  after(() => fake.close());
  afterEach(async () => {
    await fake.setMode('ok');
  });
  // Timeouts run on the fake clock too: a served answer never turns into one on a busy machine,
  // and a hang is cut when the test moves the clock.
  const source = () => createNistSource({ url: fake.url, timeoutMs: 200, clock, timers: clock });

  it('reads a fresh pulse, the same one within a period and a new one the next period', async () => {
    const first = await source().fetch();
    assert.equal(first.producedAt.toISOString(), '2026-05-01T10:00:00.000Z');
    assert.match(first.reference, /^http:\/\/127\.0\.0\.1:\d+\/beacon\/2\.0\/chain\/2\/pulse\/\d+$/);
    assert.deepEqual((await source().fetch()).bytes, first.bytes);
    clock.advance(60_000);
    const next = await source().fetch();
    assert.notEqual(next.reference, first.reference);
    assert.notDeepEqual(next.bytes, first.bytes);
  });

  it('accepts pulses whose version reads "Version 2.0", as older ones do', async () => {
    const old = await startFakeNist({ clock, version: 'Version 2.0' });
    try {
      const batch = await createNistSource({ url: old.url, timeoutMs: 200, clock, timers: clock }).fetch();
      assert.equal(batch.bytes.length, 64);
    } finally {
      await old.close();
    }
  });

  const expected: Record<Exclude<NistMode, 'ok'>, RegExp> = {
    ...COMMON_MODE_ERRORS,
    'bad-output-value': /outputValue must be 128 hex characters/,
    'integrity-mismatch': /fails its integrity check/,
    stale: /stale pulse/,
  };
  for (const mode of NIST_MODES) {
    it(`${mode} → SourceError`, async () => {
      await fake.setMode(mode);
      if (mode !== 'hang') {
        await expectSourceError(source().fetch(), 'nist', expected[mode]);
        return;
      }
      const { pending } = await sentTo(fake, () => source().fetch());
      clock.advance(199);
      assert.equal(await settledYet(pending), false, 'the hang holds the call until the timeout');
      clock.advance(1);
      await expectSourceError(pending, 'nist', expected[mode]);
    });
  }
});

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { compareBeaconRecord } from '../../../src/cli/verify/beacon-record.ts';
import { DRAND_QUICKNET } from '../../../src/randomness/sources/drand.source.ts';
import { sampleCertificate, tampered } from '../../helpers/certificates.ts';
import { runTyche } from '../../helpers/cli.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/upstreams/${name}`, import.meta.url), 'utf8');
const NIST_BODY = fixture('nist-pulse.json');
const NIST_OUTPUT: string = JSON.parse(NIST_BODY).pulse.outputValue.toLowerCase();
const NIST_URI = 'https://beacon.nist.gov/beacon/2.0/chain/2/pulse/1921299';
const DRAND = JSON.parse(fixture('drand-quicknet.json')).beacons.at(-1) as {
  round: number;
  randomness: string;
  signature: string;
};

describe('public beacon records', () => {
  let relay: Server;
  let base: string;
  let forgeDrand = false;
  before(async () => {
    // Stands in for beacon.nist.gov and api.drand.sh with records captured from them.
    relay = createServer((request, response) => {
      let body: string | undefined;
      if (request.url === '/beacon/2.0/chain/2/pulse/1921299') body = NIST_BODY;
      if (request.url === `/drand/${DRAND_QUICKNET.chainHash}/public/${DRAND.round}`) {
        body = JSON.stringify(
          forgeDrand ? { ...DRAND, signature: DRAND.signature.replace(/^../, '00') } : DRAND,
        );
      }
      response.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
      response.end(body ?? '{}');
    }).listen(0, '127.0.0.1');
    await once(relay, 'listening');
    base = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
  });
  after(() => relay?.close());

  const relays = () => ({ nist: `${base}/beacon/2.0`, drand: `${base}/drand` });
  const nist = (value = NIST_OUTPUT, reference = NIST_URI) =>
    sampleCertificate({ beacon: { source: 'nist', value, reference } }).certificate.randomness;
  const drand = (value = DRAND.randomness, reference = String(DRAND.round)) =>
    sampleCertificate({ beacon: { source: 'drand', value, reference } }).certificate.randomness;

  test('a NIST pulse and a drand round that match the certificate', async () => {
    const n = await compareBeaconRecord(nist(), relays());
    assert.deepEqual(n, { ok: true, detail: `beacon_value equals NIST pulse ${NIST_URI} (outputValue)` });
    const d = await compareBeaconRecord(drand(), relays());
    assert.equal(d.ok, true, d.detail);
    assert.match(d.detail, /drand quicknet round 657413 \(BLS signature valid\)/);
  });

  test('a value that differs from the public record, or a record that does not check out', async () => {
    const other = 'ab'.repeat(64);
    assert.match(
      (await compareBeaconRecord(nist(other), relays())).detail,
      /is [0-9a-f]{128}, the certificate says abab/,
    );
    assert.equal((await compareBeaconRecord(drand('cd'.repeat(32)), relays())).ok, false);
    forgeDrand = true;
    try {
      const forged = await compareBeaconRecord(drand(), relays());
      assert.equal(forged.ok, false);
      assert.match(forged.detail, /cannot read the public record/);
    } finally {
      forgeDrand = false;
    }
    assert.match(
      (await compareBeaconRecord(nist(NIST_OUTPUT, 'https://evil.example/pulse/1'), relays())).detail,
      /not a NIST Beacon 2\.0 pulse URI/,
    );
    assert.match(
      (await compareBeaconRecord(drand(DRAND.randomness, '1'), relays())).detail,
      /cannot read the public record/,
    );
  });

  test('tyche verify --beacon adds the comparison and fails on a mismatch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tyche-beacon-'));
    try {
      const good = sampleCertificate({
        beacon: { source: 'drand', value: DRAND.randomness, reference: String(DRAND.round) },
      });
      const bad = tampered(
        good.certificate,
        (c) => {
          c.randomness.source_reference = '1921299';
        },
        good.key,
      );
      writeFileSync(join(dir, 'good.json'), JSON.stringify(good.certificate));
      writeFileSync(join(dir, 'bad.json'), JSON.stringify(bad));
      writeFileSync(join(dir, 'keys.json'), JSON.stringify(good.keys));
      const env = { DRAND_URL: `${base}/drand` };
      const [withBeacon, without, mismatch] = await Promise.all([
        runTyche(['verify', join(dir, 'good.json'), '--keys', join(dir, 'keys.json'), '--beacon'], env),
        runTyche(['verify', join(dir, 'good.json'), '--keys', join(dir, 'keys.json')], env),
        runTyche(['verify', join(dir, 'bad.json'), '--keys', join(dir, 'keys.json'), '--beacon'], env),
      ]);
      assert.equal(withBeacon.code, 0, withBeacon.stdout + withBeacon.stderr);
      assert.match(
        withBeacon.stdout,
        /✓ Randomness R: .*\n✓ Public beacon record: beacon_value equals drand quicknet round 657413/,
      );
      assert.equal(without.code, 0);
      assert.match(without.stdout, /- Public beacon record: not checked; pass --beacon/);
      assert.equal(mismatch.code, 1, mismatch.stdout);
      assert.match(mismatch.stdout, /✗ Public beacon record: cannot read the public record/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

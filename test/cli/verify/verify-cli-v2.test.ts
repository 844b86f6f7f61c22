import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { CertificateV2 } from '../../../src/proof/v2-types.ts';
import { type DrawnServer, sameVerdict, startDrawnServer } from '../../helpers/v2-server.ts';

const flip = (hex: string) => hex.replace(/^./, (d) => (d === '0' ? '1' : '0'));

describe('tyche verify and tyche-verify.mjs on tyche-draw-v2 certificates', () => {
  let s: DrawnServer;
  let chain: string[];
  const tamperedFile = (name: string, change: (c: CertificateV2) => void) => {
    const copy = structuredClone(s.drawn.certificate);
    change(copy);
    writeFileSync(s.file(name), JSON.stringify(copy));
    return s.file(name);
  };
  before(async () => {
    s = await startDrawnServer();
    chain = ['--drand-chain', s.file('chain.json')];
  });
  after(() => s?.stop());

  test('a valid certificate: each check on its own line, the same from both verifiers', async () => {
    const out = sameVerdict(await s.both([s.drawn.verifyUrl, ...chain]), 0, 'valid');
    for (const label of [
      'Format',
      'Seal hash',
      'Seal signature',
      'drand chain',
      'Committed round',
      'drand round signature',
      'Round drawn = round committed',
      'Seed',
      'Winners',
      'Reserves',
      'Leaf hashes',
      'Inclusion proofs',
      'Certificate hash',
      'Certificate signature',
    ]) {
      assert.match(out, new RegExp(`^✓ ${label}: `, 'm'), `${label}\n${out}`);
    }
    assert.match(out, /^- Entrant list: not checked; pass --entrants/m);
    assert.match(out, /^- drand relay record: not checked; pass --beacon/m);
    for (const label of ['Log checkpoint', 'Log inclusion \\(seal\\)', 'Log inclusion \\(certificate\\)']) {
      assert.match(out, new RegExp(`^✓ ${label}: `, 'm'), `${label}\n${out}`);
    }
    assert.match(
      out,
      /^✓ Signing key in the log \(certificate\): its key was announced in the log before entry \d+/m,
    );
    assert.match(out, /^! Seal time: warning: seal time attested by the operator only$/m);
    assert.match(out, /\nVALID: no check failed, 1 with a warning \(Seal time\)\.\n$/);
    assert.doesNotMatch(out, /randomness must be trusted|✗/);
    assert.match(
      out,
      new RegExp(`Sealed at .*: 12 entrants, root ${s.drawn.certificate.seal.entrants.root}`),
    );
  });

  test(`the chain's key from a file, from the relay's /info, or missing`, async () => {
    const info = `${s.drand.url}/${s.drand.info.hash}/info`;
    const fromFile = sameVerdict(
      await s.both([s.file('certificate.json'), '--keys', s.file('keys.json'), ...chain]),
      0,
      'file',
    );
    // A file has no server to ask: the log is said to be unchecked, never passed.
    assert.match(fromFile, /^- Transparency log: not checked; verify the certificate by its verify URL/m);
    assert.doesNotMatch(fromFile, /Log checkpoint/);
    sameVerdict(await s.both([s.drawn.verifyUrl, '--drand-chain', info]), 0, 'info URL');
    const out = sameVerdict(await s.both([s.drawn.verifyUrl]), 1, 'no chain');
    assert.match(out, /^✗ drand chain: /m);
    assert.match(out, /^- drand chain key: only quicknet's is built in; pass --drand-chain/m);
    writeFileSync(s.file('not-chain.json'), '{"schemeID":"pedersen-bls-chained"}');
    const bad = sameVerdict(
      await s.both([s.drawn.verifyUrl, '--drand-chain', s.file('not-chain.json')]),
      3,
      'bad',
    );
    assert.match(bad, /not-chain\.json is not a drand chain's \/info: .*schemeID/);
  });

  test('--beacon: the round read from the relay the giveaway names, or from --relay', async () => {
    const named = sameVerdict(await s.both([s.drawn.verifyUrl, ...chain, '--beacon']), 0, 'beacon');
    assert.match(named, /^✓ drand relay record: /m);
    assert.doesNotMatch(named, /- drand relay record/);
    const relay = sameVerdict(
      await s.both([s.drawn.verifyUrl, ...chain, '--beacon', '--relay', s.drand.url]),
      0,
      'relay',
    );
    assert.match(relay, /^✓ drand relay record: /m);
    // A relay whose copy of the round differs (signed over another message) is named as such.
    await s.drand.setMode('bad-signature');
    try {
      const differs = sameVerdict(await s.both([s.drawn.verifyUrl, ...chain, '--beacon']), 1, 'differs');
      assert.match(differs, /^✗ drand relay record: /m);
    } finally {
      await s.drand.setMode('ok');
    }
    const down = sameVerdict(
      await s.both([s.drawn.verifyUrl, ...chain, '--beacon', '--relay', 'http://127.0.0.1:9']),
      3,
      'down',
    );
    assert.match(down, /cannot reach http:\/\/127\.0\.0\.1:9\/[0-9a-f]{64}\/public\/\d+/);
  });

  test("--entrants: the owner's export rebuilds the sealed root; a changed export is named", async () => {
    const pages = s.exportPages as { entrants: { telegram_id: number; salt: string }[] }[];
    assert.ok(pages.length >= 3, 'the export comes in several pages');
    writeFileSync(s.file('entrants.json'), pages.map((p) => JSON.stringify(p)).join('\n'));
    const all = pages.flatMap((p) => p.entrants);
    writeFileSync(s.file('entrants-list.json'), JSON.stringify(all));
    writeFileSync(s.file('entrants-short.json'), JSON.stringify({ entrants: all.slice(1) }));
    const salted = structuredClone(all);
    salted[4].salt = flip(salted[4].salt);
    writeFileSync(s.file('entrants-salt.json'), JSON.stringify(salted));
    writeFileSync(s.file('entrants-bad.json'), '{"entrants":[{"telegram_id":1}]}');
    for (const name of ['entrants.json', 'entrants-list.json']) {
      const out = sameVerdict(
        await s.both([s.drawn.verifyUrl, ...chain, '--entrants', s.file(name)]),
        0,
        name,
      );
      assert.match(out, /^✓ Entrant list: /m);
    }
    for (const name of ['entrants-short.json', 'entrants-salt.json']) {
      const out = sameVerdict(
        await s.both([s.drawn.verifyUrl, ...chain, '--entrants', s.file(name)]),
        1,
        name,
      );
      assert.match(out, /^✗ Entrant list: /m);
    }
    const bad = sameVerdict(
      await s.both([s.drawn.verifyUrl, ...chain, '--entrants', s.file('entrants-bad.json')]),
      3,
      'bad',
    );
    assert.match(bad, /entrants-bad\.json is not an entrants export: entrants\[0\]\.salt/);
  });

  test('every tampering of the certificate or its seal fails, naming the check', async () => {
    const cases: [string, (c: CertificateV2) => void, RegExp][] = [
      ['winners', (c) => ([c.winners[0], c.winners[1]] = [c.winners[1], c.winners[0]]), /^✗ Winners: /m],
      ['reserve', (c) => (c.reserves[0].index = (c.reserves[0].index + 1) % 12), /^✗ Reserves: /m],
      ['seal root', (c) => (c.seal.entrants.root = flip(c.seal.entrants.root)), /^✗ Seal hash: /m],
      ['seal round', (c) => (c.seal.beacon.round -= 1), /^✗ Seal hash: /m],
      [
        'seal signature',
        (c) => (c.seal.signature.value = c.seal.signature.value.split('').reverse().join('')),
        /^✗ Seal signature: /m,
      ],
      ['randomness', (c) => (c.beacon.randomness = flip(c.beacon.randomness)), /^✗ drand round signature: /m],
      ['seed', (c) => (c.seed = flip(c.seed)), /^✗ Seed: /m],
      ['salt', (c) => (c.winners[0].salt = flip(c.winners[0].salt)), /^✗ Leaf hashes: /m],
      ['hash', (c) => (c.hash = flip(c.hash)), /^✗ Certificate hash: /m],
      [
        'signature',
        (c) => (c.signature.value = c.signature.value.split('').reverse().join('')),
        /^✗ Certificate signature: /m,
      ],
    ];
    const runs = await Promise.all(
      cases.map(([name, change]) =>
        s.both([
          tamperedFile(`t-${name.replace(' ', '-')}.json`, change),
          '--keys',
          s.file('keys.json'),
          ...chain,
        ]),
      ),
    );
    for (const [i, [name, , failure]] of cases.entries()) {
      const out = sameVerdict(runs[i], 1, name);
      assert.match(out, failure, `${name}\n${out}`);
      assert.match(out, /\nINVALID: \d+ of \d+ checks failed\.\n$/, name);
    }
  });

  test('--json, and what does not go with a v2 certificate', async () => {
    const { cli, mjs } = await s.both([s.drawn.verifyUrl, ...chain, '--json']);
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal(mjs.stdout, cli.stdout);
    const report = JSON.parse(cli.stdout);
    assert.equal(report.valid, true);
    assert.equal(report.algorithm, 'tyche-draw-v2');
    assert.equal(report.trust, 'public');
    assert.equal(report.trust_label, undefined);
    assert.equal(report.certificate_id, s.drawn.certificate.certificate_id);
    assert.ok(report.checks.every((c: { ok: boolean }) => c.ok));
    const csv = sameVerdict(
      await s.both([s.drawn.verifyUrl, '--participants', s.file('keys.json')]),
      2,
      'csv',
    );
    assert.match(csv, /--participants is for tyche-draw-v1 certificates; for tyche-draw-v2 pass --entrants/);
  });
});

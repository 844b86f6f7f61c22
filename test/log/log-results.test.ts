import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { resultEntryBody } from '../../src/proof/result-entry.ts';
import { type SignedBlock, type SignedFields, signedResultBody } from '../../src/proof/signed-result.ts';
import {
  createSigningKey,
  type SigningKey,
  sealCertificate,
  signingKeyFromSecret,
} from '../../src/signing/certificate-crypto.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { runTyche } from '../helpers/cli.ts';
import { fakeLog } from '../helpers/fake-log.ts';

describe('tyche log verify lists an account’s signed results', () => {
  let t: TestApp;
  let url: string;
  let mine: (Record<string, unknown> & { signed: SignedBlock })[];
  before(async () => {
    t = await startTestApp();
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const [key, other] = [await t.key(), await t.key()];
    const ask = async (apiKey: string, path: string) => {
      const res = await t.app.inject({ url: path, headers: bearer(apiKey) });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    mine = [await ask(key, '/api/v1/random/int?min=1&max=49&count=6&signed=true')];
    await ask(other, '/api/v1/random/bytes?n=4&signed=true');
    mine.push(await ask(key, '/api/v1/random/bytes?n=16&format=base64&signed=true'));
    mine.push(await ask(key, '/api/v1/random/int?min=1&max=49&count=6&signed=true'));
  });
  after(() => t.close());

  test('by its pseudonym, in order, with what was asked; no gap is a clean run', async () => {
    const account = mine[0].signed.account!;
    const res = await runTyche(['log', 'verify', `${url}/log`, '--account', account], {});
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /✓ Monitoring: .*no account's signed results skipping or repeating a number/);
    assert.match(res.stdout, new RegExp(`Results of account ${account}: 3 signed results in the log`));
    const listed = res.stdout.split('\n').filter((line) => line.startsWith('    result '));
    assert.deepEqual(
      listed,
      mine.map(
        ({ signed }, i) =>
          `    result ${i + 1}: serial ${signed.serial}, issued at ${signed.issued_at}, ${
            i === 1 ? 'bytes: 16 (base64)' : 'int: 6 in [1, 49]'
          }, hash ${signed.hash}, entry ${signed.log_index}`,
      ),
    );
    const json = await runTyche(['log', 'verify', url, '--account', account, '--json'], {});
    const out = JSON.parse(json.stdout);
    assert.equal(out.valid, true);
    assert.equal(out.account, account);
    assert.deepEqual(
      out.results.map((r: { account_serial: number; index: number }) => [r.account_serial, r.index]),
      mine.map(({ signed }, i) => [i + 1, signed.log_index]),
    );
  });

  test('a pseudonym the log never names lists nothing; a malformed one is a usage error', async () => {
    const none = await runTyche(['log', 'verify', url, '--account', 'o_0000000000000000'], {});
    assert.equal(none.code, 0, none.stdout);
    assert.match(none.stdout, /Results of account o_0000000000000000: 0 signed results in the log/);
    const bad = await runTyche(['log', 'verify', url, '--account', 'someone'], {});
    assert.equal(bad.code, 2, bad.stdout + bad.stderr);
    assert.match(bad.stderr, /not an account pseudonym/);
  });
});

describe('tyche log verify on result entries that lie', () => {
  const seed = randomBytes(32);
  const logKey = signingKeyFromSecret(seed);
  const signer = createSigningKey();
  const log = fakeLog('127.0.0.1/fake/log', logKey, seed);
  let url: string;
  let serial = 0;
  before(async () => {
    url = await log.listen();
    log.announce(signer);
  });
  after(() => log.close());

  /** Logs a signed result of `account`, numbered `accountSerial` there, as the service would. */
  function logResult(account: string, accountSerial: number, key: SigningKey = signer, at = ++serial) {
    const response = { bytes: 'ab', format: 'hex', length: 1, qrng_source: 'system', request_id: `r-${at}` };
    const fields: SignedFields = {
      serial: at,
      issued_at: new Date(Date.UTC(2026, 2, 1, 0, 0, at)).toISOString(),
      account_serial: accountSerial,
      account,
    };
    const { hash, signature } = sealCertificate(signedResultBody(response, fields), key);
    const signed: SignedBlock = { ...fields, hash, signature };
    log.push('result', String(at), sealCertificate(resultEntryBody({ ...response, signed }), key));
  }

  test('a gap, a repeat, a serial going back and a forged result are each reported', async () => {
    const [a, b] = ['o_AAAAAAAAAAAAAAAA', 'o_BBBBBBBBBBBBBBBB'];
    logResult(a, 1);
    logResult(a, 2);
    logResult(b, 1);
    const clean = await runTyche(['log', 'verify', url, '--account', a], {});
    assert.equal(clean.code, 0, clean.stdout);

    logResult(a, 4); // result 3 withheld
    logResult(b, 1); // counted twice
    logResult(a, 5, createSigningKey()); // signed by a key the log never announced: counts for nothing
    logResult(a, 6, signer, 2); // a serial already given
    const res = await runTyche(['log', 'verify', url, '--account', a], {});
    assert.equal(res.code, 1, res.stdout);
    assert.match(
      res.stdout,
      /✗ Entries: 1 broken, the first at index 6: result 6: signed by key "[0-9a-f]{16}"/,
    );
    assert.match(res.stdout, /✗ Monitoring: 3 findings/);
    assert.match(res.stdout, /result entry 7 has serial 2, not above the previous result's 5/);
    assert.match(res.stdout, new RegExp(`account ${a}: signed results 3, 5 of 6 are not in the log`));
    assert.match(res.stdout, new RegExp(`account ${b}: result 1 is logged 2 times \\(entries 3, 5\\)`));
    assert.match(res.stdout, new RegExp(`Results of account ${a}: 4 signed results in the log`));
  });
});

import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { configFromEnv } from '../../src/config.ts';
import { TSA_ROOTS } from '../../src/proof/timestamp/tsa-roots.ts';
import { askTsa } from '../../src/timestamps/tsa-client.ts';

// The one test that reaches the internet, for an operator with a network: it asks the configured
// public TSAs (TYCHE_TSA_URLS, else the defaults) for real tokens and checks them against the
// shipped roots (plus TYCHE_TSA_TRUST), as the service would. `TYCHE_TSA_LIVE=1` runs it.
const live = process.env.TYCHE_TSA_LIVE === '1';

describe('the configured public TSAs, live', {
  skip: live ? false : 'set TYCHE_TSA_LIVE=1 to ask the real TSAs',
}, () => {
  const config = configFromEnv();
  const anchors = [
    ...TSA_ROOTS.map((r) => r.pem),
    ...(config.tsaTrust === undefined ? [] : [config.tsaTrust]),
  ];

  test('at least two TSAs are configured', () => {
    assert.ok(config.TYCHE_TSA_URLS.length >= 2, config.TYCHE_TSA_URLS.join(', '));
  });

  for (const url of config.TYCHE_TSA_URLS) {
    test(`${url} gives a token that passes every check under the shipped roots`, async () => {
      const hash = createHash('sha256').update(randomBytes(32)).digest('hex');
      const outcome = await askTsa({
        url,
        hash,
        anchors,
        now: () => new Date(),
        signal: AbortSignal.timeout(15_000),
      });
      assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
    });
  }
});

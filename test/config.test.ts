import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, createConfig } from '../src/config.ts';

test('defaults follow the contract', () => {
  const config = createConfig({});
  assert.equal(config.HOST, '127.0.0.1');
  assert.equal(config.PORT, 8080);
  assert.equal(config.DATA_DIR, './data');
  assert.equal(config.DATABASE_URL, undefined);
  assert.deepEqual(config.TYCHE_SOURCES, ['anu', 'nist', 'system']);
  assert.equal(config.TELEGRAM_API_ROOT, 'https://api.telegram.org');
  assert.equal(config.publicBaseUrl, 'http://127.0.0.1:8080');
  assert.equal(config.TYCHE_TIME_BUDGET_MS, 3000);
});

test('PUBLIC_BASE_URL wins over HOST:PORT and loses its trailing slash', () => {
  assert.equal(createConfig({ HOST: '0.0.0.0', PORT: '9000' }).publicBaseUrl, 'http://0.0.0.0:9000');
  assert.equal(
    createConfig({ PUBLIC_BASE_URL: 'https://tyche.example/' }).publicBaseUrl,
    'https://tyche.example',
  );
  assert.equal(createConfig({ HOST: '::1', PORT: '1' }).publicBaseUrl, 'http://[::1]:1');
});

test('an empty variable counts as unset', () => {
  assert.equal(createConfig({ PORT: '' }).PORT, 8080);
});

test('each bad value fails with one line naming the variable and what is allowed', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'abc' }, /^PORT="abc" is not valid: expected an integer from 0 to 65535$/],
    [{ PORT: '70000' }, /^PORT=.*integer from 0 to 65535/],
    [{ PORT: '80.5' }, /^PORT=/],
    [
      { TYCHE_SOURCES: 'anu,quantum' },
      /^TYCHE_SOURCES="anu,quantum" is not valid: expected a comma list of distinct sources from anu, nist, drand, system$/,
    ],
    [{ TYCHE_SOURCES: 'anu,anu' }, /^TYCHE_SOURCES=/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL="mysql:\/\/x" is not valid: expected a postgres:\/\//],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, /^PUBLIC_BASE_URL=/],
    [
      { LOG_LEVEL: 'loud' },
      /^LOG_LEVEL="loud" is not valid: expected one of fatal, error, warn, info, debug, trace, silent$/,
    ],
    [{ TELEGRAM_BOT_TOKEN: 'not a token' }, /^TELEGRAM_BOT_TOKEN=/],
    [{ TYCHE_TIME_BUDGET_MS: '5' }, /^TYCHE_TIME_BUDGET_MS=.*from 100 to 60000/],
  ];
  for (const [input, message] of cases) {
    assert.throws(
      () => createConfig(input),
      (error: unknown) =>
        error instanceof ConfigError && message.test(error.message) && !error.message.includes('\n'),
      JSON.stringify(input),
    );
  }
});

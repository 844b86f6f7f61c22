import assert from 'node:assert/strict';
import { createPrivateKey, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
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
    [{ TELEGRAM_BOT_TOKEN: 'not a token' }, /^TELEGRAM_BOT_TOKEN is not valid/],
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

test('a secret is never echoed: the message names the variable, not the value', () => {
  const secret = 'hunter2-secret-value';
  const cases: [Record<string, string>, RegExp][] = [
    [{ TELEGRAM_BOT_TOKEN: secret }, /^TELEGRAM_BOT_TOKEN is not valid \(its value is not shown\)/],
    [{ ANU_QRNG_API_KEY: `${secret} x` }, /^ANU_QRNG_API_KEY is not valid/],
    [{ TELEGRAM_WEBHOOK_SECRET: `${secret}!` }, /^TELEGRAM_WEBHOOK_SECRET is not valid/],
    [{ TYCHE_SIGNING_KEY: secret }, /^TYCHE_SIGNING_KEY is not valid .*Ed25519/],
    [
      { DATABASE_URL: `mysql://admin:${secret}@db.internal/tyche` },
      /^DATABASE_URL="mysql:\/\/admin:\*\*\*@db/,
    ],
    [{ DATABASE_URL: `postgres://admin:${secret}@[::1/tyche` }, /^DATABASE_URL="postgres:…" is not valid/],
    [{ DATABASE_URL: `mysql://db/tyche?password=${secret}` }, /^DATABASE_URL=.*password=\*\*\*/],
  ];
  for (const [input, message] of cases) {
    assert.throws(
      () => createConfig(input),
      (error: unknown) =>
        error instanceof ConfigError &&
        message.test(error.message) &&
        !error.message.includes(secret) &&
        !error.message.includes('\n'),
      Object.keys(input)[0],
    );
  }
});

test('HOST must be an address or a host name, and says so', () => {
  for (const host of ['0.0.0.0', '::', '127.0.0.1', 'localhost', 'tyche.internal']) {
    assert.equal(createConfig({ HOST: host }).HOST, host);
  }
  for (const host of ['bad host', 'http://x', 'exa_mple', '-x']) {
    assert.throws(
      () => createConfig({ HOST: host }),
      /^ConfigError: HOST=.* is not valid: expected an IP address/,
    );
  }
});

test('database timeouts have defaults and bounds', () => {
  const config = createConfig({});
  assert.equal(config.TYCHE_DB_CONNECT_TIMEOUT_MS, 5000);
  assert.equal(config.TYCHE_DB_STATEMENT_TIMEOUT_MS, 10_000);
  assert.throws(
    () => createConfig({ TYCHE_DB_CONNECT_TIMEOUT_MS: '5' }),
    /^ConfigError: TYCHE_DB_CONNECT_TIMEOUT_MS=/,
  );
  assert.throws(
    () => createConfig({ TYCHE_DB_STATEMENT_TIMEOUT_MS: 'x' }),
    /^ConfigError: TYCHE_DB_STATEMENT_TIMEOUT_MS=/,
  );
});

/** The PKCS#8 PEM form of an Ed25519 seed, the other format a key file may hold. */
function pkcs8Pem(seed: string): string {
  return createPrivateKey({
    key: Buffer.concat([
      Buffer.from('302e020100300506032b657004220420', 'hex'),
      Buffer.from(seed, 'base64url'),
    ]),
    format: 'der',
    type: 'pkcs8',
  }).export({ format: 'pem', type: 'pkcs8' }) as string;
}

/** A folder for key files, removed after the suite, and a writer that sets each file's mode. */
function keyFiles() {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-key-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string, mode: number) => {
    const path = join(dir, name);
    writeFileSync(path, text, { mode });
    chmodSync(path, mode);
    return path;
  };
  return { dir, write };
}

describe('TYCHE_SIGNING_KEY_FILE', () => {
  const { dir, write } = keyFiles();
  const seed = randomBytes(32).toString('base64url');

  test('an owner-only file stands in for TYCHE_SIGNING_KEY', () => {
    const path = write('seed', `${seed}\n`, 0o600);
    assert.equal(createConfig({ TYCHE_SIGNING_KEY_FILE: path }).TYCHE_SIGNING_KEY, seed);
    const pem = pkcs8Pem(seed);
    const pemPath = write('key.pem', pem, 0o400);
    assert.equal(createConfig({ TYCHE_SIGNING_KEY_FILE: pemPath }).TYCHE_SIGNING_KEY, pem);
  });

  test('a file others can read is refused, naming the variable and the fix', () => {
    const path = write('open', seed, 0o644);
    assert.throws(
      () => createConfig({ TYCHE_SIGNING_KEY_FILE: path }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.startsWith(`TYCHE_SIGNING_KEY_FILE="${path}" is open to group or others (mode 644)`) &&
        error.message.includes(`chmod 600 "${path}"`) &&
        !error.message.includes(seed),
    );
    assert.throws(() => createConfig({ TYCHE_SIGNING_KEY_FILE: write('group', seed, 0o640) }), /mode 640/);
  });

  test('a missing file, a file without a key and two settings at once are refused', () => {
    assert.throws(
      () => createConfig({ TYCHE_SIGNING_KEY_FILE: join(dir, 'none') }),
      /^ConfigError: TYCHE_SIGNING_KEY_FILE=".*none" cannot be read: ENOENT$/,
    );
    const junk = write('junk', 'not-a-key-at-all', 0o600);
    assert.throws(
      () => createConfig({ TYCHE_SIGNING_KEY_FILE: junk }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /^TYCHE_SIGNING_KEY_FILE=.* does not hold a base64url Ed25519 seed/.test(error.message) &&
        !error.message.includes('not-a-key-at-all'),
    );
    const path = write('both', seed, 0o600);
    assert.throws(
      () => createConfig({ TYCHE_SIGNING_KEY_FILE: path, TYCHE_SIGNING_KEY: seed }),
      /both set: keep only one/,
    );
  });
});

describe('TYCHE_LOG_KEY_FILE and WITNESS_KEY_FILE', () => {
  const { dir, write } = keyFiles();
  const seed = randomBytes(32).toString('base64url');

  test('an owner-only file in the signing key format gives the seed, named for messages', () => {
    const path = write('seed', `${seed}\n`, 0o600);
    const config = createConfig({ TYCHE_LOG_KEY_FILE: path, WITNESS_KEY_FILE: path });
    assert.deepEqual(config.logKeyFile, { seed, source: `TYCHE_LOG_KEY_FILE="${path}"` });
    assert.deepEqual(config.witnessKeyFile, { seed, source: `WITNESS_KEY_FILE="${path}"` });
    assert.equal(config.TYCHE_SIGNING_KEY, undefined, 'no other key is taken from them');
    const pem = pkcs8Pem(seed);
    const pemPath = write('key.pem', pem, 0o400);
    assert.equal(createConfig({ TYCHE_LOG_KEY_FILE: pemPath }).logKeyFile?.seed, seed);
    const unset = createConfig({});
    assert.equal(unset.logKeyFile, undefined);
    assert.equal(unset.witnessKeyFile, undefined);
  });

  test('files others can read, missing files and files without a key are refused like the signing key file', () => {
    for (const name of ['TYCHE_LOG_KEY_FILE', 'WITNESS_KEY_FILE'] as const) {
      const open = write(`open-${name}`, seed, 0o640);
      assert.throws(
        () => createConfig({ [name]: open }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.message ===
            `${name}="${open}" is open to group or others (mode 640): run chmod 600 "${open}"`,
      );
      assert.throws(
        () => createConfig({ [name]: join(dir, 'none') }),
        new RegExp(`^ConfigError: ${name}=".*none" cannot be read: ENOENT$`),
      );
      const junk = write(`junk-${name}`, 'not-a-key-at-all', 0o600);
      assert.throws(
        () => createConfig({ [name]: junk }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.message.startsWith(`${name}="${junk}" does not hold a base64url Ed25519 seed`) &&
          !error.message.includes('not-a-key-at-all'),
      );
    }
  });
});

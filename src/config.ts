import {
  boolean,
  ConfigError,
  databaseUrl,
  drandChain,
  host,
  hostForUrl,
  integer,
  type KeyFromFile,
  keyFromFile,
  oneOf,
  optional,
  pairList,
  readKeyFile,
  secondsList,
  secret,
  signingKey,
  sourceList,
  text,
  tsaTrustFrom,
  urlList,
} from './config-fields.ts';

export { ConfigError, type KeyedPlace, type KeyFromFile } from './config-fields.ts';

/**
 * Two independent public TSAs (CONTRACT §13) whose roots ship in trust/tsa/ (docs/timestamps.md):
 * DigiCert's, chaining to DigiCert Trusted Root G4, and GlobalSign's, chaining to GlobalSign Root R6.
 */
const DEFAULT_TSA_URLS = 'http://timestamp.digicert.com,http://timestamp.globalsign.com/tsa/r6advanced1';

/** PostgreSQL connections per process: the best of 2–16 measured by bench/random.bench.ts. */
const DEFAULT_POOL_SIZE = 10;

/**
 * Every setting the service reads from its environment. Each entry parses one variable and
 * throws a one-line message naming the variable and what it accepts; the Config type is
 * inferred from this table so the two cannot drift.
 */
const fields = {
  HOST: host('127.0.0.1'),
  PORT: integer(8080, 0, 65535),
  DATA_DIR: text('./data'),
  DATABASE_URL: databaseUrl(),
  TYCHE_DB_CONNECT_TIMEOUT_MS: integer(5000, 100, 600_000),
  TYCHE_DB_STATEMENT_TIMEOUT_MS: integer(10_000, 100, 3_600_000),
  TYCHE_DB_MIGRATION_TIMEOUT_MS: integer(900_000, 1000, 86_400_000),
  TYCHE_DB_MIGRATION_LOCK_TIMEOUT_MS: integer(30_000, 100, 3_600_000),
  TYCHE_DB_POOL_SIZE: integer(DEFAULT_POOL_SIZE, 1, 100),
  PUBLIC_BASE_URL: optional(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, 'an http:// or https:// URL'),
  TYCHE_SOURCES: sourceList('anu,nist,system'),
  TYCHE_TIME_BUDGET_MS: integer(3000, 100, 60000),
  TYCHE_DAILY_LIMIT: integer(1000, 1, 1_000_000_000),
  TYCHE_SIGNING_KEY: signingKey(),
  TYCHE_SIGNING_KEY_FILE: optional(/^.+$/, 'a file path'),
  TYCHE_LOG_KEY_FILE: optional(/^.+$/, 'a file path'),
  ANU_QRNG_URL: optional(/^https?:\/\//, 'an http:// or https:// URL'),
  ANU_QRNG_API_KEY: secret(/^\S+$/, 'an ANU API key without spaces'),
  NIST_BEACON_URL: text('https://beacon.nist.gov/beacon/2.0', /^https?:\/\//, 'an http:// or https:// URL'),
  DRAND_URL: text('https://api.drand.sh', /^https?:\/\//, 'an http:// or https:// URL'),
  DRAND_CHAIN: drandChain(),
  TYCHE_DRAW_WAIT_MS: integer(10_000, 0, 120_000),
  TYCHE_SEAL_DELAY_ROUNDS: integer(10, 2, 10_000),
  TYCHE_PUBLIC_RATE_LIMIT: integer(1200, 0, 1_000_000),
  TYCHE_TRUST_PROXY: boolean(false),
  TYCHE_WEBHOOK_RETRY_S: secondsList('5,300,1800,7200,18000,36000,36000'),
  TYCHE_WEBHOOK_ALLOW_PRIVATE: boolean(false),
  TYCHE_WITNESSES: pairList('url'),
  TYCHE_WITNESS_LOGS: pairList('origin'),
  WITNESS_NAME: optional(/^[^\s+]+$/, 'a key name without spaces or "+"'),
  WITNESS_KEY_FILE: optional(/^.+$/, 'a file path'),
  TYCHE_TSA_URLS: urlList(DEFAULT_TSA_URLS),
  TYCHE_TSA_TRUST: optional(/^.+$/, 'a file path'),
  TELEGRAM_BOT_TOKEN: secret(/^\d+:[A-Za-z0-9_-]+$/, 'a Bot API token like 123456:ABC-DEF'),
  TELEGRAM_API_ROOT: text('https://api.telegram.org', /^https?:\/\//, 'an http:// or https:// URL'),
  TELEGRAM_WEBHOOK_URL: optional(/^https:\/\//, 'an https:// URL'),
  TELEGRAM_WEBHOOK_SECRET: secret(/^[A-Za-z0-9_-]{1,256}$/, '1-256 characters of A-Z a-z 0-9 _ -'),
  TELEGRAM_BULK_PER_SECOND: integer(25, 1, 10_000),
  LOG_LEVEL: oneOf('info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  // auto: readable lines when stdout is a terminal, JSON lines otherwise.
  LOG_FORMAT: oneOf('auto', ['auto', 'json', 'pretty']),
} as const;

type Fields = typeof fields;
export type Config = { readonly [K in keyof Fields]: ReturnType<Fields[K]> } & {
  /** PUBLIC_BASE_URL without a trailing slash, or http://HOST:PORT. */
  readonly publicBaseUrl: string;
  /** The transparency log's name (CONTRACT §8): host and path of the public URL + `/log`. */
  readonly logOrigin: string;
  /** This deployment's name as a witness: WITNESS_NAME, else host and path + `/witness`. */
  readonly witnessName: string;
  /** The log key from TYCHE_LOG_KEY_FILE, if set: `source` names the variable and file for messages. */
  readonly logKeyFile: KeyFromFile | undefined;
  /** The witness key from WITNESS_KEY_FILE, if set. */
  readonly witnessKeyFile: KeyFromFile | undefined;
  /** The PEM text of TYCHE_TSA_TRUST, if set: trust anchors for RFC 3161 tokens beside the shipped roots. */
  readonly tsaTrust: string | undefined;
};

export type ConfigInput = Partial<Record<keyof Fields, string | undefined>>;

export const CONFIG_VARIABLES = Object.keys(fields) as (keyof Fields)[];

/** Builds a config from plain strings; tests call this directly instead of touching process.env. */
export function createConfig(input: ConfigInput = {}): Config {
  const parsed: Record<string, unknown> = {};
  for (const name of CONFIG_VARIABLES) {
    const raw = input[name];
    // An empty TYCHE_TSA_URLS is a setting of its own (timestamps off), not the default.
    parsed[name] = fields[name](name, raw === '' && name !== 'TYCHE_TSA_URLS' ? undefined : raw);
  }
  if (parsed.TYCHE_SIGNING_KEY_FILE !== undefined) {
    if (parsed.TYCHE_SIGNING_KEY !== undefined) {
      throw new ConfigError('TYCHE_SIGNING_KEY and TYCHE_SIGNING_KEY_FILE are both set: keep only one');
    }
    // The key read from the file stands in for the variable, so everything after this sees one setting.
    parsed.TYCHE_SIGNING_KEY = readKeyFile('TYCHE_SIGNING_KEY_FILE', String(parsed.TYCHE_SIGNING_KEY_FILE));
  }
  const config = parsed as { [K in keyof Fields]: ReturnType<Fields[K]> };
  const publicBaseUrl = (
    config.PUBLIC_BASE_URL ?? `http://${hostForUrl(config.HOST)}:${config.PORT}`
  ).replace(/\/+$/, '');
  const hostAndPath = publicBaseUrl.replace(/^https?:\/\//, '');
  return Object.freeze({
    ...config,
    publicBaseUrl,
    logOrigin: `${hostAndPath}/log`,
    witnessName: config.WITNESS_NAME ?? `${hostAndPath}/witness`,
    logKeyFile: keyFromFile('TYCHE_LOG_KEY_FILE', config.TYCHE_LOG_KEY_FILE),
    witnessKeyFile: keyFromFile('WITNESS_KEY_FILE', config.WITNESS_KEY_FILE),
    tsaTrust: tsaTrustFrom(config.TYCHE_TSA_TRUST),
  });
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const input: ConfigInput = {};
  for (const name of CONFIG_VARIABLES) input[name] = env[name];
  return createConfig(input);
}

import { readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseChainInfo, QUICKNET } from './proof/drand.ts';
import { parseVerifierKey, type VerifierKey } from './proof/note.ts';
import type { DrandChainInfo } from './proof/v2-types.ts';
import { SOURCE_NAMES, type SourceName } from './randomness/source.ts';
import { signingKeyFromSecret, signingKeySecret } from './signing/certificate-crypto.ts';
import { redactUrl } from './store/redact-url.ts';

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
  TELEGRAM_BOT_TOKEN: secret(/^\d+:[A-Za-z0-9_-]+$/, 'a Bot API token like 123456:ABC-DEF'),
  TELEGRAM_API_ROOT: text('https://api.telegram.org', /^https?:\/\//, 'an http:// or https:// URL'),
  TELEGRAM_WEBHOOK_URL: optional(/^https:\/\//, 'an https:// URL'),
  TELEGRAM_WEBHOOK_SECRET: secret(/^[A-Za-z0-9_-]{1,256}$/, '1-256 characters of A-Z a-z 0-9 _ -'),
  TELEGRAM_BULK_PER_SECOND: integer(25, 1, 10_000),
  LOG_LEVEL: oneOf('info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
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
};

/** A key read from a file: its base64url 32-byte Ed25519 seed, and `VARIABLE="path"` for messages. */
export interface KeyFromFile {
  seed: string;
  source: string;
}
export type ConfigInput = Partial<Record<keyof Fields, string | undefined>>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const CONFIG_VARIABLES = Object.keys(fields) as (keyof Fields)[];

/** Builds a config from plain strings; tests call this directly instead of touching process.env. */
export function createConfig(input: ConfigInput = {}): Config {
  const parsed: Record<string, unknown> = {};
  for (const name of CONFIG_VARIABLES) {
    const raw = input[name];
    parsed[name] = fields[name](name, raw === '' ? undefined : raw);
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
  });
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const input: ConfigInput = {};
  for (const name of CONFIG_VARIABLES) input[name] = env[name];
  return createConfig(input);
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function fail(name: string, raw: string, allowed: string): never {
  throw new ConfigError(`${name}=${JSON.stringify(raw)} is not valid: expected ${allowed}`);
}

/** For variables that hold a secret: the message names the variable but never shows its value. */
function failSecret(name: string, allowed: string): never {
  throw new ConfigError(`${name} is not valid (its value is not shown): expected ${allowed}`);
}

function secret(pattern: RegExp, allowed: string) {
  return (name: string, raw: string | undefined): string | undefined => {
    if (raw !== undefined && !pattern.test(raw)) failSecret(name, allowed);
    return raw;
  };
}

function databaseUrl() {
  return (name: string, raw: string | undefined): string | undefined => {
    if (raw === undefined) return undefined;
    let valid = /^postgres(ql)?:\/\//.test(raw);
    try {
      new URL(raw);
    } catch {
      valid = false;
    }
    if (!valid) fail(name, redactUrl(raw), 'a postgres:// or postgresql:// URL');
    return raw;
  };
}

function host(fallback: string) {
  const hostname =
    /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
  return (name: string, raw: string | undefined): string => {
    if (raw === undefined) return fallback;
    if (isIP(raw) === 0 && !hostname.test(raw)) {
      fail(name, raw, 'an IP address (0.0.0.0, ::, 127.0.0.1) or a host name');
    }
    return raw;
  };
}

const SIGNING_KEY_FORMAT = 'a base64url Ed25519 seed (32 bytes) or a PKCS#8 PEM Ed25519 private key';

function signingKey() {
  return (name: string, raw: string | undefined): string | undefined => {
    if (raw === undefined) return undefined;
    try {
      signingKeyFromSecret(raw);
    } catch {
      failSecret(name, SIGNING_KEY_FORMAT);
    }
    return raw;
  };
}

/**
 * A key file must be readable by its owner only: a key others can read can sign certificates,
 * checkpoints or cosignatures in this service's name. Checked on every start, so a later chmod
 * is noticed too. The signing, log and witness key files share this format.
 */
function readKeyFile(name: string, path: string): string {
  let mode: number;
  let text: string;
  try {
    mode = statSync(path).mode;
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `${name}=${JSON.stringify(path)} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new ConfigError(
      `${name}=${JSON.stringify(path)} is open to group or others (mode ${(mode & 0o777).toString(8)}): run chmod 600 ${JSON.stringify(path)}`,
    );
  }
  const key = text.includes('-----BEGIN') ? text : text.trim();
  try {
    signingKeyFromSecret(key);
  } catch {
    throw new ConfigError(`${name}=${JSON.stringify(path)} does not hold ${SIGNING_KEY_FORMAT}`);
  }
  return key;
}

function keyFromFile(name: string, path: string | undefined): KeyFromFile | undefined {
  if (path === undefined) return undefined;
  const seed = signingKeySecret(signingKeyFromSecret(readKeyFile(name, path)));
  return { seed, source: `${name}=${JSON.stringify(path)}` };
}

function text(fallback: string, pattern?: RegExp, allowed?: string) {
  return (name: string, raw: string | undefined): string => {
    if (raw === undefined) return fallback;
    if (pattern && !pattern.test(raw)) fail(name, raw, allowed ?? pattern.source);
    return raw;
  };
}

function optional(pattern: RegExp, allowed: string) {
  return (name: string, raw: string | undefined): string | undefined => {
    if (raw !== undefined && !pattern.test(raw)) fail(name, raw, allowed);
    return raw;
  };
}

function integer(fallback: number, min: number, max: number) {
  return (name: string, raw: string | undefined): number => {
    if (raw === undefined) return fallback;
    const value = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(value >= min && value <= max)) fail(name, raw, `an integer from ${min} to ${max}`);
    return value;
  };
}

function oneOf<T extends string>(fallback: T, allowed: readonly T[]) {
  return (name: string, raw: string | undefined): T => {
    if (raw === undefined) return fallback;
    if (!allowed.includes(raw as T)) fail(name, raw, `one of ${allowed.join(', ')}`);
    return raw as T;
  };
}

function boolean(fallback: boolean) {
  return (name: string, raw: string | undefined): boolean => {
    if (raw === undefined) return fallback;
    if (raw !== 'true' && raw !== 'false') fail(name, raw, 'true or false');
    return raw === 'true';
  };
}

/** A comma list of whole seconds, e.g. the delays before each webhook retry; may be empty. */
function secondsList(fallback: string) {
  return (name: string, raw: string | undefined): readonly number[] => {
    const value = raw ?? fallback;
    if (value.trim() === '') return [];
    const parts = value.split(',').map((part) => part.trim());
    if (parts.some((p) => !/^[0-9]{1,9}$/.test(p))) {
      fail(name, value, 'a comma list of whole seconds, e.g. 5,300,1800');
    }
    return parts.map(Number);
  };
}

/** `quicknet` (built in) or the chain's own `/info` JSON, for another chain of the same scheme. */
function drandChain() {
  return (name: string, raw: string | undefined): Readonly<DrandChainInfo> => {
    if (raw === undefined || raw === 'quicknet') return QUICKNET;
    try {
      return parseChainInfo(JSON.parse(raw));
    } catch (error) {
      fail(
        name,
        raw.length > 60 ? `${raw.slice(0, 60)}…` : raw,
        `quicknet or a drand chain's /info JSON (${(error as Error).message})`,
      );
    }
  };
}

function sourceList(fallback: string) {
  return (name: string, raw: string | undefined): readonly SourceName[] => {
    const value = raw ?? fallback;
    const names = value.split(',').map((part) => part.trim());
    const allowed = `a comma list of distinct sources from ${SOURCE_NAMES.join(', ')}`;
    if (names.some((n) => !SOURCE_NAMES.includes(n as SourceName))) fail(name, value, allowed);
    if (new Set(names).size !== names.length) fail(name, value, allowed);
    return names as SourceName[];
  };
}

/** One `<place> <note verifier key>` pair of TYCHE_WITNESSES (place = url) or TYCHE_WITNESS_LOGS (origin). */
export interface KeyedPlace {
  place: string;
  /** The note verifier key as written. */
  vkey: string;
  key: VerifierKey;
}

/** A comma list of `<url|origin> <note verifier key>`; empty when unset. */
function pairList(place: 'url' | 'origin') {
  return (name: string, raw: string | undefined): readonly KeyedPlace[] => {
    if (raw === undefined || raw.trim() === '') return [];
    const allowed = `a comma list of "<${place}> <note verifier key>"`;
    return raw.split(',').map((part) => {
      const [where, vkey, ...rest] = part.trim().split(/\s+/);
      if (!where || !vkey || rest.length > 0) fail(name, raw, allowed);
      if (place === 'url' && !/^https?:\/\/\S+$/.test(where)) fail(name, raw, `${allowed} with http(s) URLs`);
      try {
        return {
          place: place === 'url' ? where.replace(/\/+$/, '') : where,
          vkey,
          key: parseVerifierKey(vkey),
        };
      } catch (error) {
        return fail(name, raw, `${allowed} (${(error as Error).message})`);
      }
    });
  };
}

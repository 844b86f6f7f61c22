import { readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseChainInfo, QUICKNET } from './proof/drand.ts';
import { parseVerifierKey, type VerifierKey } from './proof/note.ts';
import { pemCertificates } from './proof/timestamp/pem.ts';
import type { DrandChainInfo } from './proof/v2-types.ts';
import { SOURCE_NAMES, type SourceName } from './randomness/source.ts';
import { signingKeyFromSecret, signingKeySecret } from './signing/certificate-crypto.ts';
import { redactUrl } from './store/redact-url.ts';

// The parsers behind config.ts's table: each reads one variable and fails with a one-line
// message naming it and what it accepts (never showing a secret's value).

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A key read from a file: its base64url 32-byte Ed25519 seed, and `VARIABLE="path"` for messages. */
export interface KeyFromFile {
  seed: string;
  source: string;
}

export function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function fail(name: string, raw: string, allowed: string): never {
  throw new ConfigError(`${name}=${JSON.stringify(raw)} is not valid: expected ${allowed}`);
}

/** For variables that hold a secret: the message names the variable but never shows its value. */
function failSecret(name: string, allowed: string): never {
  throw new ConfigError(`${name} is not valid (its value is not shown): expected ${allowed}`);
}

export function secret(pattern: RegExp, allowed: string) {
  return (name: string, raw: string | undefined): string | undefined => {
    if (raw !== undefined && !pattern.test(raw)) failSecret(name, allowed);
    return raw;
  };
}

export function databaseUrl() {
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

export function host(fallback: string) {
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

export function signingKey() {
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
export function readKeyFile(name: string, path: string): string {
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

export function keyFromFile(name: string, path: string | undefined): KeyFromFile | undefined {
  if (path === undefined) return undefined;
  const seed = signingKeySecret(signingKeyFromSecret(readKeyFile(name, path)));
  return { seed, source: `${name}=${JSON.stringify(path)}` };
}

export function text(fallback: string, pattern?: RegExp, allowed?: string) {
  return (name: string, raw: string | undefined): string => {
    if (raw === undefined) return fallback;
    if (pattern && !pattern.test(raw)) fail(name, raw, allowed ?? pattern.source);
    return raw;
  };
}

export function optional(pattern: RegExp, allowed: string) {
  return (name: string, raw: string | undefined): string | undefined => {
    if (raw !== undefined && !pattern.test(raw)) fail(name, raw, allowed);
    return raw;
  };
}

export function integer(fallback: number, min: number, max: number) {
  return (name: string, raw: string | undefined): number => {
    if (raw === undefined) return fallback;
    const value = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(value >= min && value <= max)) fail(name, raw, `an integer from ${min} to ${max}`);
    return value;
  };
}

export function oneOf<T extends string>(fallback: T, allowed: readonly T[]) {
  return (name: string, raw: string | undefined): T => {
    if (raw === undefined) return fallback;
    if (!allowed.includes(raw as T)) fail(name, raw, `one of ${allowed.join(', ')}`);
    return raw as T;
  };
}

export function boolean(fallback: boolean) {
  return (name: string, raw: string | undefined): boolean => {
    if (raw === undefined) return fallback;
    if (raw !== 'true' && raw !== 'false') fail(name, raw, 'true or false');
    return raw === 'true';
  };
}

/** A comma list of whole seconds, e.g. the delays before each webhook retry; may be empty. */
export function secondsList(fallback: string) {
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
export function drandChain() {
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

export function sourceList(fallback: string) {
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
export function pairList(place: 'url' | 'origin') {
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

/** A comma list of distinct http(s) URLs; an empty value is an empty list. */
export function urlList(fallback: string) {
  return (name: string, raw: string | undefined): readonly string[] => {
    const value = raw ?? fallback;
    if (value.trim() === '') return [];
    const urls = value.split(',').map((part) => part.trim());
    const allowed = 'a comma list of distinct http:// or https:// URLs, or nothing to turn timestamps off';
    if (urls.some((u) => !/^https?:\/\/\S+$/.test(u)) || new Set(urls).size !== urls.length) {
      fail(name, value, allowed);
    }
    return urls;
  };
}

/**
 * The PEM text of TYCHE_TSA_TRUST, checked to hold certificate blocks. The certificates are parsed
 * when a token is first checked: the X.509 library is not loaded by every command that reads config.
 */
export function tsaTrustFrom(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const where = `TYCHE_TSA_TRUST=${JSON.stringify(path)}`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `${where} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let count: number;
  try {
    count = pemCertificates(text).length;
  } catch (error) {
    throw new ConfigError(`${where} holds a certificate that cannot be read: ${(error as Error).message}`);
  }
  if (count === 0) throw new ConfigError(`${where} holds no PEM CERTIFICATE block`);
  return text;
}

import { randomUUID } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';
import {
  createSigningKey,
  type PublicJwk,
  type SigningKey,
  signingKeyFromSecret,
  signingKeySecret,
} from './certificate-crypto.ts';
import type {
  KeyLease,
  Leased,
  Retirement,
  SigningKeyRepository,
  SigningKeyRow,
} from './signing-key.repository.ts';

export interface PublishedKey extends PublicJwk {
  /** Not JWK members: when the key was first used and, once replaced, retired. ISO 8601 UTC. */
  created_at: string;
  retired_at: string | null;
}

/** The key a process signs with, and the last instant (its clock, epoch ms) it may date a signature by it. */
export interface LeasedKey extends SigningKey {
  until: number;
}

interface Deps {
  keys: SigningKeyRepository;
  clock: Clock;
  /** TYCHE_SIGNING_KEY: when set, certificates are signed with it instead of a generated key. */
  secret?: string | undefined;
}

function jwkOf(row: SigningKeyRow): PublishedKey {
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x: row.x,
    kid: row.kid,
    alg: 'EdDSA',
    use: 'sig',
    created_at: new Date(row.created_at).toISOString(),
    retired_at: row.retired_at === null ? null : new Date(row.retired_at).toISOString(),
  };
}

function rowOf(key: SigningKey, origin: 'generated' | 'configured', at: number): SigningKeyRow {
  return {
    kid: key.kid,
    x: Buffer.from(key.publicKeyRaw).toString('base64url'),
    private_seed: origin === 'generated' ? signingKeySecret(key) : null,
    origin,
    created_at: at,
    retired_at: null,
  };
}

/** How long a process signs with the key it read before reading the store again. */
export const REFRESH_MS = 5_000;
/**
 * How long the lease a process records at each read lasts: REFRESH_MS, plus time for a request
 * that took the key just before the next read to date and write what it signs. A replaced key
 * retires once every lease on it has run out.
 */
export const LEASE_MS = REFRESH_MS + 10_000;
/** Leases that ended this long ago belong to processes long gone; any clock skew is far smaller. */
const STALE_LEASE_MS = 60 * 60_000;

export class ConfiguredKeyError extends Error {
  override name = 'ConfiguredKeyError';
}

/** A signature that would be dated after the lease of its key, or by a key the log has retired. */
export class StaleKeyError extends Error {
  override name = 'StaleKeyError';
}

/**
 * Refuses a signature by `key` dated `at` after the key's lease: the key may have been retired
 * since, and a signature dated after its key's retirement fails every verifier.
 */
export function checkLease(key: LeasedKey, at: number): void {
  if (at > key.until) {
    throw new StaleKeyError(
      `the lease on signing key ${key.kid} ended at ${new Date(key.until).toISOString()}, before ${new Date(at).toISOString()}`,
    );
  }
}

/**
 * The certificate signing key. Generated on first use and kept in the store, so every process
 * on one PostgreSQL signs with the same key and a restart keeps it; the store's unique index
 * settles processes that start together. Every key ever used stays published.
 *
 * Each process reads the key it signs with at most REFRESH_MS before it signs, and records a
 * lease on it (LEASE_MS) in the same transaction. A rotation (by another process, e.g. the CLI)
 * is therefore taken up within REFRESH_MS, and the replaced key is retired only once no lease on
 * it lasts: by the first process to read the key after that, or by `tyche signing-key rotate
 * --wait`. No process goes on signing with a key after its retirement.
 */
export function createSigner({ keys, clock, secret }: Deps) {
  const processId = randomUUID();
  const configured = secret ? signingKeyFromSecret(secret) : undefined;
  let started = false;
  let loading: Promise<LeasedKey> | undefined;
  let fresh: { key: LeasedKey; readUntil: number } | undefined;
  const parsed = new Map<string, SigningKey>();

  const keyOf = (row: SigningKeyRow): SigningKey => {
    if (!row.private_seed) throw new Error(`no secret is stored for signing key ${row.kid}`);
    let key = parsed.get(row.kid);
    if (!key) {
      key = signingKeyFromSecret(row.private_seed);
      parsed.set(row.kid, key);
    }
    return key;
  };

  const retireUnused = (now: number): Promise<Retirement> => keys.retireUnused(now, now - STALE_LEASE_MS);

  async function lease(now: number): Promise<LeasedKey> {
    const held: KeyLease = { processId, until: now + LEASE_MS };
    let leased: Leased;
    let key: SigningKey;
    if (configured) {
      leased = await keys.leaseConfigured(held, rowOf(configured, 'configured', now), !started);
      key = configured;
    } else {
      leased = await keys.leaseGenerated(held, () => rowOf(createSigningKey(), 'generated', now));
      key = keyOf(leased.row);
    }
    started = true;
    // A failed retirement fails no signature: the next read tries again.
    if (leased.retiring) await retireUnused(now).catch(() => undefined);
    return { ...key, until: held.until };
  }

  return {
    /** The key to sign with now; a failed read is retried on the next call. */
    current(): Promise<LeasedKey> {
      const now = clock.now().getTime();
      if (fresh && now < fresh.readUntil) return Promise.resolve(fresh.key);
      loading ??= lease(now).then(
        (key) => {
          fresh = { key, readUntil: now + REFRESH_MS };
          loading = undefined;
          return key;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },

    /**
     * Makes a new generated key the one in use, announced in the log at once; the old one keeps
     * verifying and retires once no process holds a lease on it. A configured key is rotated by
     * configuring another one instead.
     */
    async rotate(): Promise<{ kid: string; replaced: string[] }> {
      if (configured) {
        throw new ConfiguredKeyError(
          'the signing key comes from TYCHE_SIGNING_KEY or TYCHE_SIGNING_KEY_FILE: rotate it by configuring a new key (tyche signing-key generate FILE) and restarting',
        );
      }
      const key = createSigningKey();
      const replaced = await keys.rotateGenerated(rowOf(key, 'generated', clock.now().getTime()));
      fresh = undefined;
      return { kid: key.kid, replaced };
    },

    /** Retires every replaced key no process holds a lease on any more; names those still held. */
    retireUnused(): Promise<Retirement> {
      return retireUnused(clock.now().getTime());
    },

    /** Every key that has signed or may sign certificates, retired ones included. */
    async publicKeys(): Promise<PublishedKey[]> {
      await this.current();
      return (await keys.all()).map(jwkOf);
    },
  };
}

export type Signer = ReturnType<typeof createSigner>;

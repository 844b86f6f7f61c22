import type { Clock } from '../shared/clock.ts';
import {
  createSigningKey,
  type PublicJwk,
  type SigningKey,
  signingKeyFromSecret,
  signingKeySecret,
} from './certificate-crypto.ts';
import { RETIRING, type SigningKeyRepository, type SigningKeyRow } from './signing-key.repository.ts';

export interface PublishedKey extends PublicJwk {
  /** Not JWK members: when the key was first used and, once replaced, retired. ISO 8601 UTC. */
  created_at: string;
  retired_at: string | null;
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

/**
 * How long a rotated-out key stays valid in the log. Generous: a seal or draw loads its key
 * before its transaction and may log what it signed a while later; every process also reloads
 * within REFRESH_MS.
 */
export const ROTATION_GRACE_MS = 10 * 60_000;
/** How long a process keeps signing with the key it loaded before asking the store again. */
const REFRESH_MS = 30_000;

export class ConfiguredKeyError extends Error {
  override name = 'ConfiguredKeyError';
}

/**
 * The certificate signing key. Generated on first use and kept in the store, so every process
 * on one PostgreSQL signs with the same key and a restart keeps it; the store's unique index
 * settles processes that start together. Every key ever used stays published. A rotation (by
 * another process, e.g. the CLI) is picked up within REFRESH_MS, and the replaced key retires
 * once ROTATION_GRACE_MS has passed, by whichever process loads the key next.
 */
export function createSigner({ keys, clock, secret }: Deps) {
  let loading: Promise<SigningKey> | undefined;
  let fresh: { key: SigningKey; until: number } | undefined;
  const parsed = new Map<string, SigningKey>();

  const keyOf = (row: SigningKeyRow & { private_seed: string }) => {
    let key = parsed.get(row.kid);
    if (!key) {
      key = signingKeyFromSecret(row.private_seed);
      parsed.set(row.kid, key);
    }
    return key;
  };

  async function load(now: number): Promise<SigningKey> {
    if (secret) {
      const key = signingKeyFromSecret(secret);
      await keys.useConfigured(rowOf(key, 'configured', now));
      return key;
    }
    const unretired = await keys.unretired();
    if (unretired.some((row) => row.origin === RETIRING)) await keys.retireReplaced(now, ROTATION_GRACE_MS);
    const existing = unretired.find((row) => row.origin === 'generated');
    if (existing?.private_seed) return keyOf({ ...existing, private_seed: existing.private_seed });
    await keys.insertGenerated(rowOf(createSigningKey(), 'generated', now));
    const adopted = await keys.activeGenerated();
    if (!adopted?.private_seed) throw new Error('no signing key could be stored');
    return keyOf({ ...adopted, private_seed: adopted.private_seed });
  }

  return {
    /** The key new certificates are signed with; a failed load is retried on the next call. */
    current(): Promise<SigningKey> {
      const now = clock.now().getTime();
      if (fresh && now < fresh.until) return Promise.resolve(fresh.key);
      loading ??= load(now).then(
        (key) => {
          // A configured key changes only with the configuration, i.e. with a restart.
          fresh = { key, until: secret ? Number.POSITIVE_INFINITY : now + REFRESH_MS };
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
     * verifying and retires after ROTATION_GRACE_MS. A configured key is rotated by configuring
     * another one instead.
     */
    async rotate(): Promise<{ kid: string; replaced: string[] }> {
      if (secret) {
        throw new ConfiguredKeyError(
          'the signing key comes from TYCHE_SIGNING_KEY or TYCHE_SIGNING_KEY_FILE: rotate it by configuring a new key (tyche signing-key generate FILE) and restarting',
        );
      }
      await this.current();
      const key = createSigningKey();
      const replaced = await keys.rotateGenerated(rowOf(key, 'generated', clock.now().getTime()));
      fresh = undefined;
      return { kid: key.kid, replaced };
    },

    /** Every key that has signed or may sign certificates, retired ones included. */
    async publicKeys(): Promise<PublishedKey[]> {
      await this.current();
      return (await keys.all()).map(jwkOf);
    },
  };
}

export type Signer = ReturnType<typeof createSigner>;

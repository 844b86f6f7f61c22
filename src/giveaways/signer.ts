import type { Clock } from '../clock.ts';
import {
  createSigningKey,
  type PublicJwk,
  type SigningKey,
  signingKeyFromSecret,
  signingKeySecret,
} from './certificate-crypto.ts';
import type { SigningKeyRepository, SigningKeyRow } from './signing-key.repository.ts';

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
 * The certificate signing key. Generated on first use and kept in the store, so every process
 * on one PostgreSQL signs with the same key and a restart keeps it; the store's unique index
 * settles processes that start together. Every key ever used stays published.
 */
export function createSigner({ keys, clock, secret }: Deps) {
  let loading: Promise<SigningKey> | undefined;

  async function load(): Promise<SigningKey> {
    const now = clock.now().getTime();
    if (secret) {
      const key = signingKeyFromSecret(secret);
      await keys.useConfigured(rowOf(key, 'configured', now));
      return key;
    }
    const existing = await keys.activeGenerated();
    if (existing?.private_seed) return signingKeyFromSecret(existing.private_seed);
    await keys.insertGenerated(rowOf(createSigningKey(), 'generated', now));
    const adopted = await keys.activeGenerated();
    if (!adopted?.private_seed) throw new Error('no signing key could be stored');
    return signingKeyFromSecret(adopted.private_seed);
  }

  return {
    /** The key new certificates are signed with; a failed load is retried on the next call. */
    current(): Promise<SigningKey> {
      loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      return loading;
    },

    /** Every key that has signed or may sign certificates, retired ones included. */
    async publicKeys(): Promise<PublishedKey[]> {
      await this.current();
      return (await keys.all()).map(jwkOf);
    },
  };
}

export type Signer = ReturnType<typeof createSigner>;

import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
} from 'node:crypto';
import { canonicalJsonBytes } from '../proof/canonical-json.ts';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The 32-byte Ed25519 public key. */
  publicKeyRaw: Uint8Array;
}

export interface CertificateSignature {
  alg: 'Ed25519';
  kid: string;
  /** base64url of the 64-byte signature over the canonical JSON of the body. */
  value: string;
}

export interface Sealed {
  hash: string;
  signature: CertificateSignature;
}

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

// PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): SEQUENCE { version 0, id-Ed25519, OCTET STRING { seed } }.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
export function kidOf(publicKeyRaw: Uint8Array): string {
  return createHash('sha256').update(publicKeyRaw).digest('hex').slice(0, 16);
}

function fromPrivateKey(privateKey: KeyObject): SigningKey {
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new TypeError('the signing key must be an Ed25519 key');
  const publicKey = createPublicKey(privateKey);
  const x = publicKey.export({ format: 'jwk' }).x;
  if (!x) throw new TypeError('cannot read the Ed25519 public key');
  const publicKeyRaw = new Uint8Array(Buffer.from(x, 'base64url'));
  return { kid: kidOf(publicKeyRaw), privateKey, publicKey, publicKeyRaw };
}

export function createSigningKey(): SigningKey {
  return fromPrivateKey(generateKeyPairSync('ed25519').privateKey);
}

/** Accepts a PKCS#8 PEM, a base64url (or base64) 32-byte seed, or the 32 seed bytes themselves. */
export function signingKeyFromSecret(secret: string | Uint8Array): SigningKey {
  if (typeof secret === 'string' && secret.includes('-----BEGIN')) {
    return fromPrivateKey(createPrivateKey({ key: secret, format: 'pem' }));
  }
  const seed = typeof secret === 'string' ? Buffer.from(secret.trim(), 'base64url') : Buffer.from(secret);
  if (seed.length !== 32) throw new RangeError('an Ed25519 seed must be 32 bytes');
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, seed]);
  return fromPrivateKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
}

/** base64url of the 32-byte seed: what an operator stores to keep signing with the same key. */
export function signingKeySecret(key: SigningKey): string {
  const d = key.privateKey.export({ format: 'jwk' }).d;
  if (!d) throw new TypeError('cannot export the Ed25519 seed');
  return d;
}

export function publicJwk(key: SigningKey): PublicJwk {
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x: Buffer.from(key.publicKeyRaw).toString('base64url'),
    kid: key.kid,
    alg: 'EdDSA',
    use: 'sig',
  };
}

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export function certificateHash(body: object): string {
  return sha256Hex(canonicalJsonBytes(body));
}

/** Adds `hash` and `signature`, both over the RFC 8785 canonical JSON of `body`. */
export function sealCertificate<T extends object>(body: T, key: SigningKey): T & Sealed {
  if ('hash' in body || 'signature' in body) throw new TypeError('the body is already sealed');
  const bytes = canonicalJsonBytes(body);
  const hash = sha256Hex(bytes);
  const value = sign(null, bytes, key.privateKey).toString('base64url');
  return { ...body, hash, signature: { alg: 'Ed25519', kid: key.kid, value } };
}

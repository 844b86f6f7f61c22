// The signed-object convention of CONTRACT §5.8 and §7.3, for seals, tickets and certificates:
// the body is the RFC 8785 canonical JSON of every member but `hash` and `signature`, `hash` is its
// SHA-256, and `signature.kid` names a key of /.well-known/tyche-keys.json. The Ed25519 check is
// synchronous through @noble/curves, so every verifier runs the same code without Web Crypto.

import { ed25519 } from '@noble/curves/ed25519.js';
import { canonicalJsonBytes } from './canonical-json.ts';
import type { Sha256 } from './digest.ts';
import { fromBase64url, toHex } from './hex.ts';
import { isRecord } from './report.ts';

/** RFC 8785 canonical JSON of `obj` without its `hash` and `signature` members. Throws when there is none. */
export function signedBodyBytes(obj: Record<string, unknown>): Uint8Array {
  const { hash: _hash, signature: _signature, ...body } = obj;
  return canonicalJsonBytes(body);
}

/** The signed body's bytes, or why there are none. */
function bodyOrProblem(obj: Record<string, unknown>): Uint8Array | string {
  try {
    return signedBodyBytes(obj);
  } catch (error) {
    return `it has no canonical JSON form (${(error as Error).message})`;
  }
}

/** Why `obj.hash` is not the SHA-256 hex of its body, or null when it is. */
export function objectHashProblem(obj: unknown, sha256: Sha256): string | null {
  if (!isRecord(obj)) return 'not a JSON object';
  const bytes = bodyOrProblem(obj);
  if (typeof bytes === 'string') return bytes;
  const digest = toHex(sha256(bytes));
  if (typeof obj.hash !== 'string') return `hash is missing; SHA-256 of the canonical JSON is ${digest}`;
  return digest === obj.hash ? null : `SHA-256 of the canonical JSON is ${digest}, not ${obj.hash}`;
}

interface SignatureParts {
  kid: string;
  /** The 64 signature bytes. */
  value: Uint8Array;
  /** The 32 bytes of the published Ed25519 key. */
  publicKey: Uint8Array;
  body: Uint8Array;
}

/**
 * Everything an Ed25519 verification of `obj` needs, or why it cannot be done: the algorithm,
 * the key named by `kid` among the published ones, and well-formed signature and key bytes.
 */
function signatureParts(obj: unknown, keysDocument: unknown): SignatureParts | string {
  if (!isRecord(obj)) return 'not a JSON object';
  const sig = obj.signature;
  if (!isRecord(sig)) return 'signature is missing';
  if (sig.alg !== 'Ed25519') return `signature.alg is ${JSON.stringify(sig.alg)}, not "Ed25519"`;
  if (typeof sig.kid !== 'string') return 'signature.kid is missing';
  const keys = isRecord(keysDocument) && Array.isArray(keysDocument.keys) ? keysDocument.keys : [];
  const jwk = keys.find((k): k is Record<string, unknown> => isRecord(k) && k.kid === sig.kid);
  if (!jwk) return `key ${JSON.stringify(sig.kid)} is not among the published keys`;
  const publicKey = typeof jwk.x === 'string' ? fromBase64url(jwk.x) : null;
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || publicKey?.length !== 32) {
    return `published key ${JSON.stringify(sig.kid)} is not an Ed25519 key`;
  }
  const value = typeof sig.value === 'string' ? fromBase64url(sig.value) : null;
  if (value?.length !== 64) return 'signature.value is not 64 bytes of base64url';
  const body = bodyOrProblem(obj);
  if (typeof body === 'string') return body;
  return { kid: sig.kid, value, publicKey, body };
}

/** An Ed25519 check: (signature, message, public key) → valid. */
export type Ed25519Verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean;

// RFC 8032 strict (not ZIP-215), as node:crypto verifies on the server.
const nobleVerify: Ed25519Verify = (signature, message, publicKey) =>
  ed25519.verify(signature, message, publicKey, { zip215: false });

/**
 * Why `obj.signature` is not a valid signature of its body by a published key, or null when it is.
 * `verify` replaces the pure-JS check where a faster one exists (node:crypto, for whole-log audits).
 */
export function objectSignatureProblem(
  obj: unknown,
  keysDocument: unknown,
  verify: Ed25519Verify = nobleVerify,
): string | null {
  const parts = signatureParts(obj, keysDocument);
  if (typeof parts === 'string') return parts;
  let ok: boolean;
  try {
    ok = verify(parts.value, parts.body, parts.publicKey);
  } catch (error) {
    return `cannot verify Ed25519: ${(error as Error).message}`;
  }
  return ok ? null : `does not verify under key ${parts.kid}: the content is not what was signed`;
}

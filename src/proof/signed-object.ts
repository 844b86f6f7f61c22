// Hash and Ed25519 signature checks of Tyche's signed objects (seals, tickets, certificates),
// synchronous through @noble/curves so every verifier runs the same code without Web Crypto.

import { ed25519 } from '@noble/curves/ed25519.js';
import { signatureParts } from './signed-body.ts';

export { objectHashProblem, signedBodyBytes } from './signed-body.ts';

/** Why `obj.signature` is not a valid signature of its body by a published key, or null when it is. */
export function objectSignatureProblem(obj: unknown, keysDocument: unknown): string | null {
  const parts = signatureParts(obj, keysDocument);
  if (typeof parts === 'string') return parts;
  let ok: boolean;
  try {
    // RFC 8032 strict (not ZIP-215), as node:crypto verifies on the server.
    ok = ed25519.verify(parts.value, parts.body, parts.publicKey, { zip215: false });
  } catch (error) {
    return `cannot verify Ed25519: ${(error as Error).message}`;
  }
  return ok ? null : `does not verify under key ${parts.kid}: the content is not what was signed`;
}
